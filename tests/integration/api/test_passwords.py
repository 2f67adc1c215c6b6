"""Passwords: the reset mail (locmem backend), its link on the page and in the API, and
changing one's password. Each path revokes the old API token."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a quite different passphrase 7"
LINK = re.compile(r"https?://[^/\s]+(/account/reset/(?P<uid>[^/]+)/(?P<token>[^/]+)/)")


def user_with_token(email: str = "wendy@example.org") -> tuple[Any, APIClient]:
    user = UserFactory(username=f"wendy-{email.split('@')[0]}", email=email, password=PASSWORD)
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return user, client


def logs_in(username: str, password: str) -> bool:
    answer = APIClient().post(
        "/api/auth/token", {"username": username, "password": password}, format="json"
    )
    return answer.status_code == 200


def reset_link(anonymous: APIClient, email: str) -> re.Match[str]:
    answer = anonymous.post("/api/auth/password/reset", {"email": email}, format="json")
    assert answer.status_code == 202, answer.content
    assert len(mail.outbox) == 1
    found = LINK.search(mail.outbox[0].body)
    assert found is not None, mail.outbox[0].body
    return found


def test_the_mailed_link_opens_a_page_that_sets_the_new_password(anonymous: APIClient) -> None:
    user, old_client = user_with_token()
    link = reset_link(anonymous, user.email)
    assert mail.outbox[0].to == [user.email]
    assert user.username in mail.outbox[0].body

    page = APIClient()
    form = page.get(link.group(1), follow=True)  # Django swaps the token for a session
    assert form.status_code == 200
    assert b'id="new-password-form"' in form.content
    done = page.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert done.status_code == 200
    assert b'id="reset-done"' in done.content

    assert logs_in(user.username, NEW_PASSWORD)
    assert not logs_in(user.username, PASSWORD)
    assert old_client.get("/api/auth/me").status_code == 401
    # The link worked once.
    again = APIClient().get(link.group(1), follow=True)
    assert b'id="invalid-link"' in again.content


def test_the_api_confirms_a_link_once_with_its_uid_and_token(anonymous: APIClient) -> None:
    user, old_client = user_with_token("api@example.org")
    link = reset_link(anonymous, user.email)
    body = {"uid": link["uid"], "token": link["token"], "new_password": NEW_PASSWORD}

    weak = anonymous.post(
        "/api/auth/password/reset/confirm", {**body, "new_password": "123"}, format="json"
    )
    assert weak.status_code == 400
    assert weak.json()["code"] == "invalid"
    assert logs_in(user.username, PASSWORD)  # nothing changed

    answer = anonymous.post("/api/auth/password/reset/confirm", body, format="json")
    assert answer.status_code == 204, answer.content
    assert logs_in(user.username, NEW_PASSWORD)
    assert old_client.get("/api/auth/me").status_code == 401

    again = anonymous.post("/api/auth/password/reset/confirm", body, format="json")
    assert again.status_code == 400
    assert again.json()["code"] == "invalid_link"


def test_an_unknown_address_gets_the_same_answer_and_no_mail(anonymous: APIClient) -> None:
    answer = anonymous.post(
        "/api/auth/password/reset", {"email": "nobody@example.org"}, format="json"
    )
    assert answer.status_code == 202
    assert mail.outbox == []
    malformed = anonymous.post(
        "/api/auth/password/reset", {"email": "not an address"}, format="json"
    )
    assert malformed.status_code == 400


def test_the_reset_page_mails_the_same_link() -> None:
    user = UserFactory(username="paige", email="paige@example.org", password=PASSWORD)
    page = APIClient()
    assert b'id="reset-form"' in page.get("/account/password-reset/").content
    sent = page.post("/account/password-reset/", {"email": user.email}, follow=True)
    assert b'id="reset-sent"' in sent.content
    assert len(mail.outbox) == 1
    assert LINK.search(mail.outbox[0].body) is not None


def test_changing_the_password_needs_the_old_one_and_renews_the_token() -> None:
    user, client = user_with_token("change@example.org")
    wrong = client.post(
        "/api/auth/password/change",
        {"old_password": "not it", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "wrong_password"

    answer = client.post(
        "/api/auth/password/change",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert client.get("/api/auth/me").status_code == 401  # the old token is revoked
    renewed = APIClient()
    renewed.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert renewed.get("/api/auth/me").json()["username"] == user.username
    assert logs_in(user.username, NEW_PASSWORD)
    assert not logs_in(user.username, PASSWORD)


def test_changing_the_password_needs_a_login(anonymous: APIClient) -> None:
    answer = anonymous.post(
        "/api/auth/password/change",
        {"old_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )
    assert answer.status_code == 401
