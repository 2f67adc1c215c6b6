"""``/api/auth/``: register, obtain a token, log out (revoke it), who am I."""

from __future__ import annotations

from django.contrib.auth import logout
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.registration import register_player, token_for
from accounts.serializers import (
    CredentialsSerializer,
    RegistrationSerializer,
    TokenSerializer,
    UserSerializer,
)
from accounts.tokens import revoke_token
from services.api.errors import ProblemHandlingMixin
from services.api.schema import PROBLEM
from services.api.throttles import LoginAddressThrottle, LoginThrottle, RegistrationThrottle


class RegisterView(ProblemHandlingMixin, APIView):
    """Create a player account; answers with its API token."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [RegistrationThrottle]

    @extend_schema(
        operation_id="auth_register",
        request=RegistrationSerializer,
        responses={201: TokenSerializer, 400: PROBLEM, 429: PROBLEM},
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = RegistrationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        registration = register_player(**serializer.validated_data)
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
