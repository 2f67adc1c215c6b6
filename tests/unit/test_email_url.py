"""EMAIL_URL -> Django's e-mail settings (services/email_url.py)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from services.email_url import BACKENDS, parse_email_url


def test_smtp_with_starttls_credentials_and_timeout() -> None:
    assert parse_email_url("smtp+tls://mailer:p%40ss@mail.example.org:2525?timeout=10") == {
        "EMAIL_BACKEND": BACKENDS["smtp"],
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 2525,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "p@ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": 10,
    }


def test_default_ports_follow_the_scheme() -> None:
    assert parse_email_url("smtps://mail.example.org")["EMAIL_PORT"] == 465
    assert parse_email_url("smtps://mail.example.org")["EMAIL_USE_SSL"] is True
    assert parse_email_url("smtp://mail.example.org")["EMAIL_PORT"] == 25


def test_console_file_and_dummy() -> None:
    assert parse_email_url("console://") == {"EMAIL_BACKEND": BACKENDS["console"]}
    assert parse_email_url("dummy://") == {"EMAIL_BACKEND": BACKENDS["dummy"]}
    assert parse_email_url("file:///var/spool/mail") == {
        "EMAIL_BACKEND": BACKENDS["file"],
        "EMAIL_FILE_PATH": "/var/spool/mail",
    }


@pytest.mark.parametrize(
    "url",
    [
        "smpt://mail.example.org",  # a typo must not drop every mail
        "smtp://",
        "smtp://mail.example.org:notaport",
        "smtp://mail.example.org?timeout=0",
        "smtp://mail.example.org?tls=yes",
        "file://relative/path",
    ],
)
def test_anything_else_is_refused(url: str) -> None:
    with pytest.raises(ImproperlyConfigured):
        parse_email_url(url)


def test_the_password_never_shows_in_the_refusal() -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        parse_email_url("smtq://user:s3cret@mail.example.org")
    assert "s3cret" not in str(refused.value)
