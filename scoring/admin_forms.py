"""The rule preset form of the admin: one field per rule option, checked by the engine.

Numbers are bounded by :data:`games.engine.rules.RULE_BOUNDS` (the browser's ``min`` and
``max`` too); a combination the engine refuses (blind nil without nil, a target at or below
the losing score) shows the engine's own :class:`RulesError` sentence above the form.
"""

from __future__ import annotations

from typing import Any

from django import forms

from games.engine.rule_words import in_words
from games.engine.rules import FIELD_NAMES, PRESETS, RULE_BOUNDS, RulesError
from scoring.models import RulePreset
from scoring.services.presets import NAME_PATTERN, rules_from_mapping

# What each option does, for the person choosing it (docs/rules.md has the full text).
LABELS: dict[str, tuple[str, str]] = {
    "target_score": ("Game to", "A team at or above this total wins."),
    "lose_score": (
        "Losing score",
        "A team at or below this total loses. Leave empty for no losing score.",
    ),
    "nil": ("Nil bids", "A player may bid to take no trick."),
    "nil_points": ("Nil points", "Won for a made nil, lost for a failed one."),
    "blind_nil": (
        "Blind nil",
        "A nil bid before looking at the cards, for a team trailing by the deficit below.",
    ),
    "blind_nil_points": ("Blind nil points", "Won for a made blind nil, lost for a failed one."),
    "blind_nil_min_deficit": (
        "Blind nil needs a deficit of",
        "How far the bidder's team must trail at the start of the hand.",
    ),
    "set_penalty": ("A set team", "What a team scores when it takes fewer tricks than it bid."),
    "bag_penalty": ("Bag penalty", "Every 10 bags cost the team 100 points."),
    "nil_tricks_count_for_partner": (
        "Nil bidder's tricks count for the partner",
        "Off (the usual rule): each is a bag for the team and helps no contract.",
    ),
    "first_lead": ("First lead", "Who leads the first trick of a hand."),
    "breaking_spades": (
        "Breaking spades",
        "Spades may not be led until a spade has been played (unless only spades are left).",
    ),
    "hands": (
        "Fixed number of hands",
        "A game of exactly this many hands, the side ahead winning (level: a draw). "
        "Leave empty for a game to the target.",
    ),
    "extra_hands": (
        "Extra hands to break a tie",
        "With a fixed number of hands: level totals go on one hand at a time, at most this "
        "many; 0 for a draw.",
    ),
}

SET_PENALTY_CHOICES = [
    ("minus_bid", "loses 10 x its bid (Standard)"),
    ("zero", "scores 0 (Bicycle)"),
]
FIRST_LEAD_CHOICES = [
    ("left_of_dealer", "the player left of the dealer"),
    ("two_of_clubs", "whoever holds the two of clubs, with it"),
]


def _number_field(name: str) -> forms.IntegerField:
    low, high, reason = RULE_BOUNDS[name]
    label, help_text = LABELS[name]
    return forms.IntegerField(
        label=label,
        # Empty: no losing score, a game to the target, no extra hands.
        required=name not in ("lose_score", "hands", "extra_hands"),
        min_value=low,
        max_value=high,
        help_text=f"{help_text} From {low} to {high} ({reason}).",
        # The engine's own sentence (games.engine.rules._check_bounds), as the API says it.
        error_messages={
            "min_value": in_words(f"{name} must be at least {low} ({reason}), not ")
            + "%(show_value)s.",
            "max_value": in_words(f"{name} must be at most {high} ({reason}), not ")
            + "%(show_value)s.",
        },
    )


def _flag_field(name: str) -> forms.BooleanField:
    label, help_text = LABELS[name]
    return forms.BooleanField(label=label, required=False, help_text=help_text)


def _choice_field(name: str, choices: list[tuple[str, str]]) -> forms.ChoiceField:
    label, help_text = LABELS[name]
    return forms.ChoiceField(label=label, choices=choices, help_text=help_text)


class RulePresetForm(forms.ModelForm):
    """Name, description and every rule option; ``cleaned_data["rules"]`` is the full set."""

    target_score = _number_field("target_score")
    lose_score = _number_field("lose_score")
    nil = _flag_field("nil")
    nil_points = _number_field("nil_points")
    blind_nil = _flag_field("blind_nil")
    blind_nil_points = _number_field("blind_nil_points")
    blind_nil_min_deficit = _number_field("blind_nil_min_deficit")
    set_penalty = _choice_field("set_penalty", SET_PENALTY_CHOICES)
    bag_penalty = _flag_field("bag_penalty")
    nil_tricks_count_for_partner = _flag_field("nil_tricks_count_for_partner")
    first_lead = _choice_field("first_lead", FIRST_LEAD_CHOICES)
    breaking_spades = _flag_field("breaking_spades")
    hands = _number_field("hands")
    extra_hands = _number_field("extra_hands")

    class Meta:
        model = RulePreset
        fields = ["name", "description"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = self.instance.rules if self.instance.pk is not None else None
        standard = PRESETS["standard"]
        current = {**{name: getattr(standard, name) for name in FIELD_NAMES}, **(stored or {})}
        for name in FIELD_NAMES:
            self.fields[name].initial = current[name]

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if not NAME_PATTERN.match(name or ""):
            raise forms.ValidationError(
                "Use 1-100 lowercase letters, digits, '-' or '_', starting with a letter or digit."
            )
        if self.instance.pk is not None and name != self.instance.name:
            raise forms.ValidationError(
                "A preset's name cannot change; create a new preset instead."
            )
        if self.instance.pk is None and RulePreset.objects.filter(name=name).exists():
            raise forms.ValidationError(
                f"A preset called '{name}' exists already; edit it to add a version."
            )
        return str(name)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if any(name in self.errors for name in FIELD_NAMES):
            return cleaned  # each field says what is wrong with it first
        values = {name: cleaned.get(name) for name in FIELD_NAMES}
        if values["extra_hands"] is None:
            values["extra_hands"] = 0
        try:
            cleaned["rules"] = rules_from_mapping(values).to_dict()
        except RulesError as error:
            raise forms.ValidationError(in_words(str(error))) from None
        return cleaned
