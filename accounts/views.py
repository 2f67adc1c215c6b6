"""``/api/auth/``: register, obtain a token, log out (revoke it), who am I; passwords
(reset by mail, change), deleting the account, downloading one's own data."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.http import StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from accounts.deletion import AccountInPlay, delete_account
from accounts.export import export_chunks
from accounts.passwords import Refusal, change_password, reset_password, send_reset_mail
from accounts.registration import register_player, token_for
from accounts.serializers import (
    AccountDeletionSerializer,
    CredentialsSerializer,
    MessageSerializer,
    PasswordChangeSerializer,
    PasswordResetConfirmSerializer,
    PasswordResetRequestSerializer,
    RegistrationSerializer,
    TokenSerializer,
    UserSerializer,
)
from accounts.streaming import streamed
from accounts.tokens import revoke_token
from games.selectors.invitations import invitation_is_open
from leagues.selectors.entry_links import link_is_open
from services.api.errors import ApiProblem, ProblemHandlingMixin
from services.api.schema import PROBLEM
from services.api.throttles import (
    AccountThrottle,
    InvitedRegistrationThrottle,
    LoginAddressThrottle,
    LoginThrottle,
    PasswordResetThrottle,
    RegistrationThrottle,
)

RESET_SENT = (
    "If an account has this address, a link to choose a new password is on its way. "
    "It works once, for a limited time."
)
MAX_TABLES_LISTED = 20
MAX_TABLES_OFFSET = 10_000_000


class RegisterView(ProblemHandlingMixin, APIView):
    """Create a player account; answers with its API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [RegistrationThrottle]

    def get_throttles(self) -> list[BaseThrottle]:
        # An open invitation moves the sign-up to its own, larger per-address count: a club
        # signing its invited players up from one network is not stopped at the plain
        # limit. Checked before the body is validated (throttles run first); a bad
        # invitation counts as a plain sign-up and is refused by the serializer.
        # A competition's invitation link (or a partner link) counts the same way.
        data: Any = self.request.data
        invitation = data.get("invitation") if isinstance(data, dict) else None
        if isinstance(invitation, dict) and invitation_is_open(
            invitation.get("table"), invitation.get("seat"), invitation.get("secret")
        ):
            return [InvitedRegistrationThrottle()]
        link = data.get("competition_link") if isinstance(data, dict) else None
        if isinstance(link, dict) and link_is_open(
            link.get("competition"), link.get("secret"), link.get("partnership")
        ):
            return [InvitedRegistrationThrottle()]
        return [RegistrationThrottle()]

    @extend_schema(
        operation_id="auth_register",
        request=RegistrationSerializer,
        responses={201: TokenSerializer, 400: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = RegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        invitations = ("invitation", "competition_link")
        fields = {k: v for k, v in serializer.validated_data.items() if k not in invitations}
        registration = register_player(**fields)
        body = {"token": registration.token, "user": UserSerializer(registration.user).data}
        return Response(body, status=status.HTTP_201_CREATED)


class ObtainTokenView(ProblemHandlingMixin, APIView):
    """Exchange a username and password for the user's API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [LoginThrottle, LoginAddressThrottle]

    @extend_schema(
        operation_id="auth_token",
        request=CredentialsSerializer,
        responses={200: TokenSerializer, 400: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        return Response({"token": token_for(user), "user": UserSerializer(user).data})


class LogoutView(ProblemHandlingMixin, APIView):
    """Revoke the caller's API token: it authenticates nothing from now on, on any device
    (REST or WebSocket). A session login is ended too."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_logout",
        request=None,
        responses={204: None, 401: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        revoke_token(request.user)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeView(ProblemHandlingMixin, APIView):
    """The authenticated user."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_me",
        responses={200: UserSerializer, 401: PROBLEM},
        tags=["auth"],
    )
    def get(self, request: Request) -> Response:
        return Response(UserSerializer(request.user).data)


def _refused(refusal: Refusal) -> ApiProblem:
    return ApiProblem(
        status_code=400,
        code=refusal.code,
        message=refusal.message,
        **({"fields": refusal.fields} if refusal.fields else {}),
    )


class PasswordResetView(ProblemHandlingMixin, APIView):
    """Mail a password-reset link to the accounts with this address. Answers the same
    whether or not there is one, so nobody learns who has an account."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(
        operation_id="auth_password_reset",
        request=PasswordResetRequestSerializer,
        responses={202: MessageSerializer, 400: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            send_reset_mail(request._request, serializer.validated_data["email"])
        except Refusal as refusal:
            raise _refused(refusal) from None
        return Response({"message": RESET_SENT}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmView(ProblemHandlingMixin, APIView):
    """Set a new password with the ``uid`` and ``token`` of a reset link; the account's
    API token is revoked (log in with the new password)."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [PasswordResetThrottle]

    @extend_schema(
        operation_id="auth_password_reset_confirm",
        request=PasswordResetConfirmSerializer,
        responses={204: None, 400: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordResetConfirmSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            reset_password(data["uid"], data["token"], data["new_password"])
        except Refusal as refusal:
            raise _refused(refusal) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeView(ProblemHandlingMixin, APIView):
    """Change the caller's password (the old one must be right). Answers with a new API
    token: the old one stops working on every device."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(
        operation_id="auth_password_change",
        request=PasswordChangeSerializer,
        responses={200: TokenSerializer, 400: PROBLEM, 401: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = PasswordChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            token = change_password(request.user, data["old_password"], data["new_password"])
        except Refusal as refusal:
            raise _refused(refusal) from None
        return Response({"token": token, "user": UserSerializer(request.user).data})


class AccountDeletionView(ProblemHandlingMixin, APIView):
    """Delete the caller's account (the password again): it becomes a pseudonym
    ``deleted-<id>`` that can never log in; games and competitions keep their history.
    409 ``account_in_play`` while the caller holds a seat a person must still play."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(
        operation_id="auth_delete",
        request=AccountDeletionSerializer,
        responses={204: None, 400: PROBLEM, 401: PROBLEM, 409: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = AccountDeletionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        if not request.user.check_password(serializer.validated_data["password"]):
            raise ApiProblem(
                status_code=400,
                code="wrong_password",
                message="That is not your password.",
                fields={"password": ["That is not your password."]},
            )
        try:
            delete_account(request.user)
        except AccountInPlay as in_play:
            raise ApiProblem(
                status_code=409,
                code="account_in_play",
                message=(
                    f"You still hold a seat at {len(in_play.tables)} table(s) that a person "
                    "must play: leave it, or hand it to a computer player, then delete."
                ),
                tables=in_play.tables[:MAX_TABLES_LISTED],
            ) from None
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountExportView(ProblemHandlingMixin, APIView):
    """Download the caller's own data as JSON (docs/api.md, "Your data"): the account,
    ratings, competitions and games (at most ``SPADES_EXPORT_MAX_TABLES`` a download,
    newest first; ``tables.next_offset`` gives the next ``tables_offset``)."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AccountThrottle]

    @extend_schema(
        operation_id="auth_export",
        parameters=[
            OpenApiParameter(
                "tables_offset", int, required=False, description="Skip this many tables."
            )
        ],
        responses={
            (200, "application/json"): OpenApiResponse(description="The export document."),
            400: PROBLEM,
            401: PROBLEM,
            429: PROBLEM,
        },
        tags=["auth"],
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        raw = request.query_params.get("tables_offset", "0")
        if not raw.isdigit() or int(raw) > MAX_TABLES_OFFSET:
            raise ApiProblem(
                status_code=400,
                code="invalid",
                message=f"tables_offset is a whole number from 0 to {MAX_TABLES_OFFSET}.",
                fields={"tables_offset": ["A whole number."]},
            )
        chunks = export_chunks(request.user, int(raw))
        response = StreamingHttpResponse(streamed(chunks), content_type="application/json")
        name = f"spades-{request.user.pk}-{timezone.now():%Y%m%d}.json"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
