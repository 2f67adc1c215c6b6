# Admin registrations of the games app.

from django.contrib import admin  # noqa: F401
