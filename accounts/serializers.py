"""Request and response shapes of the account endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from services.api.errors import ApiProblem
from services.api.serializers import StrictSerializer


class RegistrationSerializer(StrictSerializer):
    """A new player's account; unknown fields (``is_staff``, a misspelt ``emial``) are refused."""

    username = serializers.CharField(
        max_length=150, validators=[UnicodeUsernameValidator()], trim_whitespace=False
    )
    password = serializers.CharField(
        max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )
    email = serializers.EmailField(required=False, allow_blank=True, default="")

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.", code="taken")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = get_user_model()(username=attrs["username"], email=attrs.get("email", ""))
        try:
            password_validation.validate_password(attrs["password"], user=candidate)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from None
        return attrs


class CredentialsSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(
        max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = authenticate(
            request=self.context.get("request"),
            username=attrs["username"],
            password=attrs["password"],
        )
        if user is None:
            # Wrong credentials are an authentication failure, not a malformed request.
            raise ApiProblem(
                status_code=400,
                code="invalid_credentials",
                message="Unable to log in with the username and password given.",
            )
        attrs["user"] = user
        return attrs


class UserSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    username = serializers.CharField(read_only=True)
    email = serializers.CharField(read_only=True)
    is_staff = serializers.BooleanField(read_only=True)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(read_only=True)
    user = UserSerializer(read_only=True)
