# Django models of the scoring app. The pure rules live elsewhere and import nothing from Django.

from django.db import models  # noqa: F401
