"""Request and response shapes of the table endpoints.

Requests are checked for shape here (types, ranges, written forms); whether a move is
allowed is the engine's and the services' business.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.fields import (
    BidField,
    CardField,
    JsonObjectField,
    RulesSpecField,
    SeatField,
    WholeNumberField,
)
from games.domain.events import BOT_LEVELS, MAX_SPECTATOR_DELAY_TRICKS, SEAT_KINDS
from games.engine.seats import SEAT_NAMES
from services.api.serializers import StrictSerializer

MAX_TURN_TIMER_SECONDS = 24 * 3600
MAX_EVENTS_PAGE = 500
DEFAULT_EVENTS_PAGE = 100


class SeatSpecSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=SEAT_KINDS, default="human")
    level = serializers.ChoiceField(
        choices=BOT_LEVELS, required=False, help_text="Bot difficulty (bots only)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "bot":
            attrs.setdefault("level", "normal")
        elif "level" in attrs:
            raise serializers.ValidationError({"level": "Only a bot seat has a level."})
        return attrs


class SeatsSerializer(StrictSerializer):
    north = SeatSpecSerializer(required=False)
    east = SeatSpecSerializer(required=False)
    south = SeatSpecSerializer(required=False)
    west = SeatSpecSerializer(required=False)


class CreateTableSerializer(StrictSerializer):
    preset = serializers.CharField(
        required=False,
        max_length=100,
        help_text="Name of a stored rules preset; the table pins its current version.",
    )
    rules = RulesSpecField(
        required=False,
        help_text='Custom rules instead of a stored preset: a name or {"preset": NAME, ...}.',
    )
    seats = SeatsSerializer(
        required=False, help_text="Seats by name; missing seats are human seats."
    )
    turn_timer_seconds = serializers.IntegerField(
        required=False, allow_null=True, min_value=5, max_value=MAX_TURN_TIMER_SECONDS
    )
    spectator_delay_tricks = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_SPECTATOR_DELAY_TRICKS,
        help_text="Spectators see the table this many completed tricks behind play (0: live).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "preset" in attrs and "rules" in attrs:
            raise serializers.ValidationError(
                {"rules": "Give either a stored preset or custom rules, not both."}
            )
        return attrs

    def table_options(self) -> dict[str, Any]:
        """The validated table as ``create_table`` (and the lobby's use cases) take it."""
        data = self.validated_data
        return {
            "rules": data.get("rules"),
            "preset": data.get("preset"),
            "seats": data.get("seats", {}),
            "turn_timer_seconds": data.get("turn_timer_seconds"),
            "spectator_delay_tricks": data.get("spectator_delay_tricks", 0),
        }


class CommandSerializer(StrictSerializer):
    """What every command accepts: the version the client acted on (optional)."""

    expected_version = WholeNumberField(
        required=False,
        allow_null=True,
        min_value=0,
        help_text="The table version the client saw; a stale one is answered with 409.",
    )


class TakeSeatSerializer(CommandSerializer):
    invitation = serializers.CharField(
        required=False,
        allow_null=True,
        max_length=100,
        trim_whitespace=True,
        help_text="The secret of the seat's invite link (after '#invite=' in it): needed "
        "for a seat kept for a friend, ignored elsewhere.",
    )


class SeatCommandSerializer(CommandSerializer):
    """A move made from a seat: which of the caller's seats moves."""

    seat = SeatField(help_text="The seat you move for (yours).")


class LookSerializer(SeatCommandSerializer):
    pass


class BidSerializer(SeatCommandSerializer):
    bid = BidField()


class PassSerializer(SeatCommandSerializer):
    cards = serializers.ListField(child=CardField(), min_length=2, max_length=2)

    def validate_cards(self, value: list[int]) -> list[int]:
        if value[0] == value[1]:
            raise serializers.ValidationError("Pass two different cards.")
        return value


class PlaySerializer(SeatCommandSerializer):
    card = CardField()


class HandToBotSerializer(CommandSerializer):
    level = serializers.ChoiceField(choices=BOT_LEVELS, default="normal")


class EventsQuerySerializer(serializers.Serializer[Any]):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, help_text="Only events after this version."
    )
    limit = serializers.IntegerField(
        required=False, default=DEFAULT_EVENTS_PAGE, min_value=1, max_value=MAX_EVENTS_PAGE
    )


# ---------------------------------------------------------------- responses


class StoredEventSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    type = serializers.CharField()
    schema_version = serializers.IntegerField(required=False)
    data = JsonObjectField(help_text="The payload, without what you may not see yet.")
    metadata = JsonObjectField(required=False, help_text="Who acted (kind, user id or level).")
    recorded_at = serializers.DateTimeField(required=False)
    hash = serializers.CharField(required=False, help_text="This event's link in the chain.")


class TableViewSerializer(serializers.Serializer[Any]):
    """The table as one viewer may see it (``games.selectors.visibility.table_view``)."""

    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    rules = JsonObjectField()
    preset = JsonObjectField()
    turn_timer_seconds = serializers.IntegerField(allow_null=True)
    spectator_delay_tricks = serializers.IntegerField(
        help_text="Spectators see this table this many completed tricks behind play (0: live)."
    )
    created_by = serializers.IntegerField(allow_null=True)
    seats = serializers.ListField(child=JsonObjectField())
    your_seat = serializers.CharField(allow_null=True)
    first_dealer = serializers.CharField(allow_null=True)
    hand = JsonObjectField(
        allow_null=True, help_text="The current hand; `you` holds your cards and legal moves."
    )
    scores = JsonObjectField()
    deal = JsonObjectField(help_text="The deal commitment, and the seed once revealed.")


class CommandResultSerializer(serializers.Serializer[Any]):
    table_id = serializers.CharField()
    version = serializers.IntegerField(help_text="The table's version after this command.")
    duplicate = serializers.BooleanField(
        help_text="True when this Idempotency-Key was seen before: nothing new was written."
    )
    events = StoredEventSerializer(
        many=True, help_text="The command's events, as you may see them."
    )
    table = TableViewSerializer(help_text="The table as you see it now (as GET /tables/{id}).")


class EventsPageSerializer(serializers.Serializer[Any]):
    events = StoredEventSerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Pass as ?after= for the next page; null at the end."
    )


class GameRecordSerializer(serializers.Serializer[Any]):
    """A game record (docs/formats.md): ``manage.py replay`` reproduces its ledger."""

    rules = JsonObjectField()
    hands = serializers.ListField(child=JsonObjectField())
    table = JsonObjectField(help_text="Id, stream, version, status, preset, deal commitment.")
    head_hash = serializers.CharField(
        allow_null=True, help_text="Hash of the stream's last event when exported."
    )


class SeatInvitationSerializer(serializers.Serializer[Any]):
    seat = serializers.ChoiceField(choices=SEAT_NAMES)
    taken = serializers.BooleanField(help_text="A friend sits there already.")
    secret = serializers.CharField(
        allow_null=True, help_text="The live invitation's secret; null once revoked."
    )
    path = serializers.CharField(
        allow_null=True,
        help_text="The page link that seats the friend (the secret after '#invite=').",
    )


class SeatInvitationsSerializer(serializers.Serializer[Any]):
    table_id = serializers.UUIDField()
    invitations = SeatInvitationSerializer(many=True)
