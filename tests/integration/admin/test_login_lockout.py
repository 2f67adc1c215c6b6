"""The admin login is locked after ADMIN_LOGIN_FAILURE_LIMIT failures (django-axes), the
right password included, until the cool-off ends or ``axes_reset``; failures at the API
login count only towards the API's own throttle."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import AdminFactory

pytestmark = pytest.mark.django_db

PASSWORD = "an admin passphrase 93"


def admin_login(client: Client, username: str, password: str) -> Any:
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def signed_in(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def test_repeated_failures_lock_the_admin_login(settings: Any) -> None:
    staff = AdminFactory(username="locked-admin", password=PASSWORD)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert admin_login(client, staff.username, "wrong").status_code == 200  # the form again
    locked = admin_login(client, staff.username, "wrong")
    assert locked.status_code == 429

    # Now even the right password is refused, from anywhere, for this username.
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    assert admin_login(elsewhere, staff.username, PASSWORD).status_code == 429
    assert not signed_in(elsewhere)

    call_command("axes_reset")
    assert admin_login(elsewhere, staff.username, PASSWORD).status_code == 302
    assert signed_in(elsewhere)


def test_api_login_failures_do_not_lock_the_admin(settings: Any) -> None:
    staff = AdminFactory(username="api-admin", password=PASSWORD)
    api = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        answer = api.post(
            "/api/auth/token", {"username": staff.username, "password": "wrong"}, format="json"
        )
        assert answer.status_code == 400
    client = Client()
    assert admin_login(client, staff.username, PASSWORD).status_code == 302
    assert signed_in(client)
