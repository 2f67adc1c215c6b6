# Django models of the games app. The pure rules live elsewhere and import nothing from Django.

from django.db import models  # noqa: F401
