"""The account pages: the signed-in player's account page (``/account/``, its module
talks to the API with the token the play page keeps), and the password-reset pages
(Django's own views, server-rendered: they work with no token and no script)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse_lazy

from accounts.passwords import Refusal, send_reset_mail
from accounts.tokens import revoke_token


class PasswordResetPage(auth_views.PasswordResetView):
    """Ask for a reset link by e-mail: the same mail as ``POST /api/auth/password/reset``."""

    template_name = "web/password_reset.html"
    success_url = reverse_lazy("web-password-reset-sent")

    def form_valid(self, form: Any) -> HttpResponse:
        try:
            send_reset_mail(self.request, form.cleaned_data["email"])
        except Refusal as refusal:
            form.add_error("email", refusal.message)
            return self.form_invalid(form)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetSentPage(auth_views.PasswordResetDoneView):
    template_name = "web/password_reset_sent.html"


class PasswordResetConfirmPage(auth_views.PasswordResetConfirmView):
    """The link's page: choose a new password. Revokes the account's API token, as the
    API's confirm does, so every device logs in again."""

    template_name = "web/password_reset_confirm.html"
    success_url = reverse_lazy("web-password-reset-done")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        revoke_token(form.user)
        return response


class PasswordResetDonePage(auth_views.PasswordResetCompleteView):
    template_name = "web/password_reset_done.html"
