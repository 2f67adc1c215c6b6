"""Passwords: the reset mail and its link, setting a new password from it, and changing
one's password. Django's own forms do the checking (``PasswordResetForm``,
``SetPasswordForm``, ``PasswordChangeForm``: the password validators, the one-use link
token); the API (``accounts.views``) and the pages (``web.account``) both come here.

A reset link is ``/account/reset/<uid>/<token>/`` on the host the request came to (one
of ``ALLOWED_HOSTS``), valid ``PASSWORD_RESET_TIMEOUT`` seconds and only until the
password changes. Setting or changing a password revokes the account's API token, so
every other device must log in again.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, PasswordResetForm, SetPasswordForm
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.http import HttpRequest
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode

from accounts.tokens import active_token, revoke_token

RESET_SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"
RESET_EMAIL_TEMPLATE = "accounts/password_reset_email.txt"
# The page the link opens (web/urls.py); the API's confirm takes the same uid and token.
RESET_CONFIRM_URL_NAME = "web-password-reset-confirm"


class Refusal(Exception):
    """A request a form refused: a code, a sentence, and the form's errors by field."""

    def __init__(self, code: str, message: str, fields: dict[str, list[str]]) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fields = fields


def _refusal(code: str, form: Any) -> Refusal:
    fields = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
    first = next(iter(fields.values()), ["The request was refused."])[0]
    return Refusal(code, first, fields)


def send_reset_mail(request: HttpRequest, email: str) -> None:
    """Mail a reset link to every active account with this address that has a usable
    password. Says nothing about whether there is one (no account discovery)."""
    form = PasswordResetForm(data={"email": email})
    if not form.is_valid():
        raise _refusal("invalid", form)
    form.save(
        request=request,
        use_https=request.is_secure(),
        subject_template_name=RESET_SUBJECT_TEMPLATE,
        email_template_name=RESET_EMAIL_TEMPLATE,
        extra_email_context={
            "confirm_url_name": RESET_CONFIRM_URL_NAME,
            "valid_minutes": settings.PASSWORD_RESET_TIMEOUT // 60,
        },
    )


def user_of_link(uidb64: str, token: str) -> Any | None:
    """The account a reset link is for, or None when the link is malformed, expired or
    already used (its password changed since)."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        user = get_user_model()._default_manager.get(pk=pk)
    except (TypeError, ValueError, OverflowError, get_user_model().DoesNotExist):
        return None
    if not default_token_generator.check_token(user, token):
        return None
    return user


def reset_password(uidb64: str, token: str, new_password: str) -> Any:
    """Set the password a reset link allows (``invalid_link``: no such valid link)."""
    user = user_of_link(uidb64, token)
    if user is None:
        raise Refusal(
            "invalid_link",
            "This password-reset link is not valid: it may have expired or been used. "
            "Ask for a new one.",
            {},
        )
    form = SetPasswordForm(
        user, data={"new_password1": new_password, "new_password2": new_password}
    )
    if not form.is_valid():
        raise _refusal("invalid", form)
    with transaction.atomic():
        form.save()
        revoke_token(user)
    return user


def change_password(user: Any, old_password: str, new_password: str) -> str:
    """Change the password (the old one must be right); returns the account's new API
    token: the old one, on every device, authenticates nothing from now on."""
    form = PasswordChangeForm(
        user,
        data={
            "old_password": old_password,
            "new_password1": new_password,
            "new_password2": new_password,
        },
    )
    if not form.is_valid():
        code = "wrong_password" if "old_password" in form.errors else "invalid"
        raise _refusal(code, form)
    with transaction.atomic():
        form.save()
        revoke_token(user)
        return active_token(user)
