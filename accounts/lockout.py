"""The admin login's lockout (django-axes), kept to the admin site.

The API login (``POST /api/auth/token``) has its own throttles per username and address
(``services/api/throttles.py``); counting its failures here too would let anyone lock an
admin out through the API, so both the backend and the handler look only at requests
for the admin site. Settings: ``AXES_*`` in ``services/settings.py`` ("accounts").
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.http import HttpRequest


class AdminLockoutBackend(AxesStandaloneBackend):
    """Refuses a login to the admin site while its username or address is locked out.

    Logs nobody in (the next backend does). A call with no request (a management command,
    a test's ``client.login``) is no login form to lock, so it passes.
    """

    def authenticate(  # type: ignore[override]
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None or not AdminLoginHandler().is_admin_request(request):
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]


class AdminLoginHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """axes' database handler, recording only the admin site's login failures."""

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        if request is not None and self.is_admin_request(request):
            super().user_login_failed(sender, credentials, request, **kwargs)

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        if request is not None and self.is_admin_request(request):
            super().user_logged_in(sender, request, user, **kwargs)

    def user_logged_out(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        if request is not None and self.is_admin_request(request):
            super().user_logged_out(sender, request, user, **kwargs)
