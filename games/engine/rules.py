"""Rule presets: the table rules every part of the platform reads.

A :class:`Rules` value is immutable and carries every option of the seed rules.
Presets are named values; a custom preset is ``{"preset": NAME, **overrides}``.
Contradictory combinations, and numbers beyond :data:`RULE_BOUNDS`, are refused with a
:class:`RulesError` whose message a person can act on.  The same messages are shown by
the API and the admin.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

SetPenalty = Literal["minus_bid", "zero"]
FirstLead = Literal["left_of_dealer", "two_of_clubs"]

SET_PENALTIES: tuple[str, ...] = ("minus_bid", "zero")
FIRST_LEADS: tuple[str, ...] = ("left_of_dealer", "two_of_clubs")


class RulesError(ValueError):
    """A rules preset or override that cannot be used."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table option of the seed rules, with the Standard defaults."""

    target_score: int = 500
    lose_score: int | None = None
    nil: bool = True
    nil_points: int = 100
    blind_nil: bool = False
    blind_nil_points: int = 200
    blind_nil_min_deficit: int = 100
    set_penalty: SetPenalty = "minus_bid"
    bag_penalty: bool = True
    nil_tricks_count_for_partner: bool = False
    first_lead: FirstLead = "left_of_dealer"
    breaking_spades: bool = True
    #: A game of exactly this many hands (a match of a fixed number of hands); None: to
    #: ``target_score``. With it, the target and the losing score end nothing: the side
    #: ahead after hand ``hands`` wins, level totals are a draw (but see ``extra_hands``).
    hands: int | None = None
    #: With ``hands``: a game level after its hands goes on one hand at a time until a side
    #: is ahead, for at most this many hands; still level after the last of them, the side
    #: that took more of that hand's 13 tricks wins (13 is odd: one side always did). 0:
    #: level totals after ``hands`` are a draw. A knockout match cannot end drawn.
    extra_hands: int = 0

    def __post_init__(self) -> None:
        _check(self)

    def to_dict(self) -> dict[str, Any]:
        """The rules as a plain JSON-ready mapping (no preset name): every field, but
        ``hands`` and ``extra_hands`` only for a game of a fixed number of hands, so that
        the snapshot of a game to the target is the one it was before those rules existed
        (snapshots pinned then and now compare equal)."""
        values = asdict(self)
        if self.hands is None:
            del values["hands"], values["extra_hands"]
        return values

    @property
    def bid_minimum(self) -> int:
        """The lowest ordinary bid: 0 (Nil) when Nil is on, otherwise 1."""
        return 0 if self.nil else 1


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))


_INT_FIELDS = (
    "target_score",
    "nil_points",
    "blind_nil_points",
    "blind_nil_min_deficit",
    "extra_hands",
)

#: The most hands a fixed-hands game may have (``hands``), and the most extra hands that
#: may break a tie after them (``extra_hands``).
MAX_HANDS = 100
MAX_EXTRA_HANDS = 10

#: The range of every numeric rule (``lose_score`` when set), and why it stops there
#: (docs/rules.md). Wide enough for any house rule a table can play, small enough that
#: no total of a game's hands comes near what a score column can hold.
RULE_BOUNDS: dict[str, tuple[int, int, str]] = {
    "target_score": (1, 10_000, "twenty times the standard 500"),
    "lose_score": (-10_000, -1, "fifty times the usual -200"),
    "nil_points": (0, 1_000, "ten times the standard 100"),
    "blind_nil_points": (0, 1_000, "five times the standard 200"),
    "blind_nil_min_deficit": (0, 10_000, "the largest target_score; for never, turn blind_nil off"),
    "hands": (1, MAX_HANDS, "a long evening's match; for a game to the target, use null"),
    "extra_hands": (0, MAX_EXTRA_HANDS, "eleven level hands in a row are all but impossible"),
}


def _shown_number(value: int) -> str:
    # Very long numbers are described, not printed: the sentence stays one short line.
    return str(value) if abs(value) < 10**15 else f"a {value.bit_length()}-bit number"


_BOOL_FIELDS = (
    "nil",
    "blind_nil",
    "bag_penalty",
    "nil_tricks_count_for_partner",
    "breaking_spades",
)


def _check(rules: Rules) -> None:
    for name in _INT_FIELDS:
        value = getattr(rules, name)
        if type(value) is not int:
            raise RulesError(f"{name} must be a whole number, not {value!r}.")
    if rules.lose_score is not None and type(rules.lose_score) is not int:
        raise RulesError(f"lose_score must be a whole number or null, not {rules.lose_score!r}.")
    if rules.hands is not None and type(rules.hands) is not int:
        raise RulesError(
            f"hands must be a whole number (a game of that many hands) or null, "
            f"not {rules.hands!r}."
        )
    for name in _BOOL_FIELDS:
        value = getattr(rules, name)
        if type(value) is not bool:
            raise RulesError(f"{name} must be true or false, not {value!r}.")
    _check_bounds(rules)
    if rules.set_penalty not in SET_PENALTIES:
        raise RulesError(
            f"set_penalty must be 'minus_bid' (a set team loses 10 x bid) or 'zero' "
            f"(a set team scores 0), not {rules.set_penalty!r}."
        )
    if rules.first_lead not in FIRST_LEADS:
        raise RulesError(
            f"first_lead must be 'left_of_dealer' or 'two_of_clubs', not {rules.first_lead!r}."
        )
    if rules.target_score <= 0:
        raise RulesError("target_score must be above 0: a game has to be winnable.")
    if rules.lose_score is not None and rules.target_score <= rules.lose_score:
        raise RulesError(
            f"target_score ({rules.target_score}) must be above lose_score ({rules.lose_score})."
        )
    if rules.lose_score is not None and rules.lose_score >= 0:
        raise RulesError(
            f"lose_score must be below 0 (teams start at 0), not {rules.lose_score}; "
            "use null to turn the losing score off."
        )
    if rules.blind_nil and not rules.nil:
        raise RulesError("Blind nil needs nil: turn nil on, or blind nil off.")
    if rules.nil_points < 0 or rules.blind_nil_points < 0:
        raise RulesError("nil_points and blind_nil_points must be 0 or more.")
    if rules.blind_nil_min_deficit < 0:
        raise RulesError("blind_nil_min_deficit must be 0 or more.")
    if rules.hands is not None and rules.hands < 1:
        raise RulesError(f"hands must be 1 or more (or null: to the target), not {rules.hands}.")
    if rules.extra_hands < 0:
        raise RulesError("extra_hands must be 0 or more.")
    if rules.extra_hands and rules.hands is None:
        raise RulesError(
            "extra_hands breaks a tie after a fixed number of hands: set hands too, "
            "or extra_hands to 0."
        )


def _check_bounds(rules: Rules) -> None:
    # The far bounds only, before any other sentence prints a number; the near ones (0, 1
    # and -1) are worded by _check's own sentences ("above 0", "below 0", "0 or more").
    for name, (low, high, reason) in RULE_BOUNDS.items():
        value = getattr(rules, name)
        if value is None:
            continue
        if high > 0 and value > high:
            raise RulesError(
                f"{name} must be at most {high} ({reason}), not {_shown_number(value)}."
            )
        if low < 0 and value < low:
            raise RulesError(
                f"{name} must be at least {low} ({reason}), not {_shown_number(value)}."
            )


PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "easy": Rules(nil=False, set_penalty="zero", target_score=200),
    "bicycle": Rules(set_penalty="zero"),
}


def rules_from_spec(spec: object) -> Rules:
    """Build rules from a preset name or ``{"preset": NAME, **overrides}``.

    A mapping without ``"preset"`` overrides the Standard preset.  Unknown
    presets, unknown fields and contradictions raise :class:`RulesError`.
    """
    if isinstance(spec, Rules):
        return spec
    if isinstance(spec, str):
        return _preset(spec)
    if not isinstance(spec, Mapping):
        raise RulesError(
            "Rules must be a preset name (standard, easy, bicycle) or an object like "
            '{"preset": "standard", "target_score": 300}.'
        )
    overrides = dict(spec)
    base_name = overrides.pop("preset", "standard")
    if not isinstance(base_name, str):
        raise RulesError(f"preset must be a name, not {base_name!r}.")
    base = _preset(base_name)
    unknown = sorted(str(key) for key in overrides if key not in FIELD_NAMES)
    if unknown:
        raise RulesError(
            f"Unknown rule field{'s' if len(unknown) > 1 else ''}: {', '.join(unknown)}. "
            f"Known fields: {', '.join(FIELD_NAMES)}."
        )
    try:
        return replace(base, **overrides)
    except TypeError as error:  # pragma: no cover - guarded by the unknown-field check
        raise RulesError(str(error)) from None


def _preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"Unknown preset '{name}': use one of {', '.join(PRESETS)}, "
            'or an object such as {"preset": "standard", "nil": false}.'
        ) from None


def rules_name(rules: Rules) -> str | None:
    """The preset name these rules equal, or ``None`` for a custom set."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
