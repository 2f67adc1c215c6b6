# Admin registrations of the scoring app.

from django.contrib import admin  # noqa: F401
