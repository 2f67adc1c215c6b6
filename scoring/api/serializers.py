"""Request and response shapes of the preset, ledger and rescoring endpoints."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.fields import RulesSpecField
from games.api.serializers import StrictSerializer

MAX_DESCRIPTION = 2000
# What docs/api.md promises for POST /api/rescore (the service itself allows more, for
# the management commands).
MAX_RESCORE_TABLES = 50


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": 'Rule fields (games.engine.rules.Rules), e.g. {"target_score": 300}.',
        "example": {"target_score": 300, "nil": False},
    }
)
class RuleFieldsField(serializers.DictField):
    """An object of rule fields; the engine judges the values."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.JSONField(), **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        if len(value) > 32:
            raise serializers.ValidationError("A rules object has at most 32 fields.")
        return dict(value)


class PresetCreateSerializer(StrictSerializer):
    name = serializers.RegexField(
        r"^[a-z0-9][a-z0-9_-]{0,99}$",
        max_length=100,
        help_text="1-100 lowercase letters, digits, '-' or '_'.",
    )
    rules = RuleFieldsField()
    description = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=MAX_DESCRIPTION
    )


class PresetEditSerializer(StrictSerializer):
    rules = RuleFieldsField(help_text="The fields that change; the rest keep their values.")
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=MAX_DESCRIPTION
    )


class PresetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    version = serializers.IntegerField()
    rules = serializers.DictField()
    description = serializers.CharField()
    created_at = serializers.DateTimeField()
    created_by = serializers.SerializerMethodField()

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_created_by(self, preset: Any) -> str | None:
        user = preset.created_by
        return None if user is None else str(user.get_username())


@extend_schema_field(OpenApiTypes.OBJECT)
class _Object(serializers.DictField):
    """A JSON object (shape in docs/api.md)."""


class LedgerSerializer(serializers.Serializer[Any]):
    table_id = serializers.CharField()
    hands = serializers.ListField(
        child=_Object(), help_text="Per hand: bids, tricks and each team's breakdown and total."
    )
    totals = _Object()
    bags = _Object()
    winner = serializers.CharField(allow_null=True)


class RescoreQuerySerializer(serializers.Serializer[Any]):
    rules = RulesSpecField(
        from_text=True,
        help_text='A preset name, or custom rules as JSON text: {"preset": "standard", ...}.',
    )


class RescoreManySerializer(StrictSerializer):
    table_ids = serializers.ListField(
        child=serializers.UUIDField(), min_length=1, max_length=MAX_RESCORE_TABLES
    )
    rules = RulesSpecField(help_text='A preset name or {"preset": NAME, ...overrides}.')


class RescoredLedgerSerializer(serializers.Serializer[Any]):
    table_id = serializers.CharField()
    rules = _Object(help_text="The full rules the table was rescored under.")
    preset = _Object()
    hands = serializers.ListField(
        child=_Object(), help_text="Complete hands re-scored; `flagged` marks forbidden actions."
    )
    totals = _Object()
    bags = _Object()
    winner = serializers.CharField(allow_null=True)
    finished_after_hand = serializers.IntegerField(allow_null=True)
    hands_after_end = serializers.IntegerField(
        help_text="Hands played after the game would have ended under these rules."
    )
    flags = serializers.ListField(
        child=_Object(), help_text="Actions these rules forbid, with the engine's sentence."
    )
    comparable = serializers.BooleanField(
        help_text="False when a move the table played would be refused under these rules "
        "(the what-if keeps such a table's result as played)."
    )
    reason = serializers.CharField(
        allow_null=True, help_text="Why the table is not comparable (null when it is)."
    )
    original = _Object(help_text="The table's own totals and winner.")
