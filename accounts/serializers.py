"""Request and response shapes of the account endpoints."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from accounts.deletion import PSEUDONYM_PREFIX, is_pseudonym
from games.engine.seats import SEAT_NAMES
from games.selectors.invitations import invitation_is_open
from leagues.selectors.entry_links import link_is_open
from services.api.errors import ApiProblem
from services.api.serializers import StrictSerializer


class SignUpInvitationSerializer(StrictSerializer):
    """The invitation a new player arrives with: a seat kept for them at a friend's table
    (the invite link's ``join``, ``seat`` and ``#invite=`` secret)."""

    table = serializers.UUIDField()
    seat = serializers.ChoiceField(choices=list(SEAT_NAMES))
    secret = serializers.CharField(max_length=128, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not invitation_is_open(attrs["table"], attrs["seat"], attrs["secret"]):
            raise serializers.ValidationError(
                "This invitation is not open any more (revoked, or its seat is taken); "
                "sign up without it.",
                code="invitation_closed",
            )
        return attrs


class SignUpCompetitionLinkSerializer(StrictSerializer):
    """The competition invitation a new player arrives with: the invitation link's
    ``secret`` (``#link=``), or a partner link's ``partnership`` and ``secret``
    (``?partner=...#partner=``). Signing up enters nobody: the landing page then
    follows the link with the new account's token."""

    competition = serializers.UUIDField()
    secret = serializers.CharField(max_length=128, trim_whitespace=False)
    partnership = serializers.CharField(max_length=64, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not link_is_open(attrs["competition"], attrs["secret"], attrs.get("partnership")):
            raise serializers.ValidationError(
                "This competition invitation does not work any more (revoked, replaced, "
                "used, or registration has closed); sign up without it.",
                code="invitation_closed",
            )
        return attrs


class RegistrationSerializer(StrictSerializer):
    """A new player's account; unknown fields (``is_staff``, a misspelt ``emial``) are refused."""

    username = serializers.CharField(
        max_length=150, validators=[UnicodeUsernameValidator()], trim_whitespace=False
    )
    password = serializers.CharField(
        max_length=128, write_only=True, trim_whitespace=False, style={"input_type": "password"}
    )
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    invitation = SignUpInvitationSerializer(required=False)
    competition_link = SignUpCompetitionLinkSerializer(required=False)

    def validate_username(self, value: str) -> str:
        if is_pseudonym(value):
            raise serializers.ValidationError(
                f"Usernames starting with {PSEUDONYM_PREFIX!r} are kept for deleted accounts.",
                code="reserved",
            )
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.", code="taken")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "invitation" in attrs and "competition_link" in attrs:
            raise serializers.ValidationError(
                "Bring one invitation: a seat's or a competition's, not both.",
                code="two_invitations",
            )
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


PASSWORD_FIELD = {
    "max_length": 128,
    "write_only": True,
    "trim_whitespace": False,
    "style": {"input_type": "password"},
}


class PasswordResetRequestSerializer(StrictSerializer):
    email = serializers.EmailField(max_length=254)


class PasswordResetConfirmSerializer(StrictSerializer):
    """The ``uid`` and ``token`` of a reset link (``/account/reset/<uid>/<token>/``)."""

    uid = serializers.CharField(max_length=64)
    token = serializers.CharField(max_length=128)
    new_password = serializers.CharField(**PASSWORD_FIELD)


class PasswordChangeSerializer(StrictSerializer):
    old_password = serializers.CharField(**PASSWORD_FIELD)
    new_password = serializers.CharField(**PASSWORD_FIELD)


class AccountDeletionSerializer(StrictSerializer):
    """The password again: deleting cannot be undone."""

    password = serializers.CharField(**PASSWORD_FIELD)


class MessageSerializer(serializers.Serializer[Any]):
    message = serializers.CharField(read_only=True)
