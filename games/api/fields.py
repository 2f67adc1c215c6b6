"""Serializer fields for the written forms of the game: seats, cards, bids, rules specs."""

from __future__ import annotations

import json
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.engine.bidding import BLIND_NIL, MAX_BID, NIL
from games.engine.cards import CardError, card_name, parse_card
from games.engine.seats import SEAT_NAMES
from services.api.parsers import has_nul, loads_safely

#: Bounds on a custom rules object, so a request cannot make the server chew on megabytes.
MAX_RULES_KEYS = 32
MAX_RULES_TEXT = 4000


@extend_schema_field(
    {"type": "string", "pattern": "^(10|[2-9TtJjQqKkAa])[SHDCshdc]$", "example": "AS"}
)
class CardField(serializers.Field):
    """A card written like ``"AS"``, ``"TD"`` or ``"10D"``; the engine's int internally."""

    default_error_messages = {"invalid": "{reason}"}

    def to_internal_value(self, data: Any) -> int:
        try:
            return parse_card(data)
        except CardError as error:
            self.fail("invalid", reason=str(error))
            raise  # unreachable: fail() raises

    def to_representation(self, value: int) -> str:
        return card_name(value)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": MAX_BID},
            {"type": "string", "enum": [NIL, BLIND_NIL]},
        ],
        "example": 4,
    }
)
class BidField(serializers.Field):
    """A bid as written: a whole number 0-13, ``"nil"`` or ``"blind_nil"``."""

    default_error_messages = {
        "invalid": "A bid is a whole number from 0 to 13, 'nil' or 'blind_nil', not {value!r}.",
    }

    def to_internal_value(self, data: Any) -> int | str:
        if data in (NIL, BLIND_NIL):
            return str(data)
        if isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= MAX_BID:
            return data
        self.fail("invalid", value=data)
        raise AssertionError  # unreachable: fail() raises

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "A preset name", "example": "standard"},
            {
                "type": "object",
                "description": 'Custom rules: {"preset": NAME, ...field overrides}',
                "additionalProperties": True,
                "example": {"preset": "standard", "target_score": 300},
            },
        ]
    }
)
class RulesSpecField(serializers.Field):
    """A rules spec: a preset name, or an object of overrides on a preset.

    Only the shape is checked here; the rules themselves are judged by the engine.
    """

    default_error_messages = {
        "invalid": 'Rules must be a preset name or an object like {{"preset": "standard"}}.',
        "too_big": "A rules object has at most {max} fields.",
        "too_long": "Rules are at most {max} characters long.",
        "bad_json": "Rules must be a preset name or a JSON object: {reason}.",
        "nul": "Rules may not contain the NUL character (U+0000).",
    }

    def __init__(self, *, from_text: bool = False, **kwargs: Any) -> None:
        #: In a query string the object arrives as JSON text.
        self.from_text = from_text
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str | dict[str, Any]:
        if self.from_text and isinstance(data, str) and data.lstrip().startswith("{"):
            if len(data) > MAX_RULES_TEXT:
                self.fail("too_long", max=MAX_RULES_TEXT)
            try:
                data = loads_safely(data)
            except ValueError as error:
                self.fail("bad_json", reason=str(error))
        if has_nul(data):
            self.fail("nul")
        if isinstance(data, str):
            name = data.strip()
            if not name or len(name) > 100:
                self.fail("invalid")
            return name
        if isinstance(data, dict):
            if len(data) > MAX_RULES_KEYS:
                self.fail("too_big", max=MAX_RULES_KEYS)
            if len(json.dumps(data)) > MAX_RULES_TEXT:
                self.fail("too_long", max=MAX_RULES_TEXT)
            return data
        self.fail("invalid")
        raise AssertionError  # unreachable: fail() raises

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(OpenApiTypes.OBJECT)
class WholeNumberField(serializers.IntegerField):
    """A JSON integer: ``3``, not ``"3"``, ``3.0`` or ``true`` (DRF's IntegerField takes
    all of these as 3, so a client's type mistake would pass unnoticed)."""

    default_error_messages = {"invalid": "A whole number is required (a JSON integer)."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        value: int = super().to_internal_value(data)
        return value


class JsonObjectField(serializers.DictField):
    """A free-form JSON object in responses (shapes documented in docs/api.md)."""


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(SEAT_NAMES)},
            {"type": "integer", "minimum": 0, "maximum": 3},
        ],
        "example": "north",
    }
)
class SeatField(serializers.Field):
    """A seat: ``"north"``..``"west"`` or its index 0-3 (clockwise from north)."""

    default_error_messages = {
        "invalid": "A seat is one of north, east, south, west (or 0-3), not {value!r}.",
    }

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, int) and not isinstance(data, bool) and 0 <= data <= 3:
            return data
        if isinstance(data, str) and data in SEAT_NAMES:
            return SEAT_NAMES.index(data)
        self.fail("invalid", value=data)
        raise AssertionError  # unreachable: fail() raises

    def to_representation(self, value: int) -> str:
        return SEAT_NAMES[value]
