"""Scoresheets: a paper game's bids and tricks in, the ledger out (the seed calculator).

A scoresheet document is ``{"rules": PRESET_OR_OBJECT, "hands": [{"bids": {...},
"tricks": {...}}, ...]}`` (``docs/formats.md``).  :func:`score_scoresheet` reads and
checks it hand by hand and scores it with :class:`~scoring.core.ledger.Ledger`.  Any
problem raises :class:`ScoresheetError` with a message that names the hand, so the
person holding the paper knows which line to fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.bidding import BLIND_NIL, MAX_BID, NIL, bid_label
from games.engine.input_fields import unknown_fields_problem
from games.engine.rules import Rules, RulesError, rules_from_spec
from games.engine.seats import SEAT_NAMES, TEAM_WORDS, team_of

from .ledger import Ledger

TRICKS_PER_HAND = 13
DOCUMENT_KEYS = ("rules", "hands")
HAND_KEYS = ("bids", "tricks")


class ScoresheetError(ValueError):
    """A scoresheet that cannot be scored; ``hand`` is the 1-based hand, if one is to blame."""

    def __init__(self, message: str, hand: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand


@dataclass(frozen=True, slots=True)
class ScoresheetHand:
    """One line of the scoresheet: each seat's bid (0 for nil) and tricks taken."""

    number: int
    bids: tuple[int, int, int, int]
    blind: tuple[bool, bool, bool, bool]
    tricks: tuple[int, int, int, int]

    def bid_labels(self) -> list[int | str]:
        """The bids as written: numbers, ``"nil"`` or ``"blind_nil"``, north first."""
        return [bid_label(self.bids[seat], self.blind[seat]) for seat in range(4)]


@dataclass(frozen=True, slots=True)
class ScoredScoresheet:
    """The checked hands and the ledger that scored them."""

    rules: Rules
    hands: tuple[ScoresheetHand, ...]
    ledger: Ledger

    def as_dict(self) -> dict[str, Any]:
        """``{"hands", "totals", "winner", "finished_after_hand"}`` as in ``docs/formats.md``."""
        return self.ledger.summary()


def score_scoresheet(document: object) -> ScoredScoresheet:
    """Check and score a scoresheet document (already decoded from JSON).

    Hands are checked in order against the totals before each one, because blind
    nil eligibility and the end of the game depend on them.  Raises
    :class:`ScoresheetError` at the first problem.
    """
    if not isinstance(document, Mapping):
        raise ScoresheetError(
            'A scoresheet is an object like {"rules": "standard", "hands": [...]}.'
        )
    _refuse_unknown_keys(document, DOCUMENT_KEYS, "The scoresheet", None)
    try:
        rules = rules_from_spec(document.get("rules", "standard"))
    except RulesError as error:
        raise ScoresheetError(f"rules: {error}") from None
    raw_hands = document.get("hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise ScoresheetError('"hands" must be a list with at least one hand.')
    ledger = Ledger(rules)
    hands: list[ScoresheetHand] = []
    for number, raw_hand in enumerate(raw_hands, start=1):
        if ledger.finished:
            raise ScoresheetError(
                f"Hand {number}: the game was over after hand {ledger.finished_after_hand} "
                f"({ledger.ending}); remove the hands after it.",
                number,
            )
        hand = read_hand(rules, number, raw_hand, (ledger.totals[0], ledger.totals[1]))
        ledger.record_hand(list(hand.bids), list(hand.blind), list(hand.tricks))
        hands.append(hand)
    return ScoredScoresheet(rules, tuple(hands), ledger)


def read_hand(
    rules: Rules, number: int, raw_hand: object, totals: tuple[int, int]
) -> ScoresheetHand:
    """One hand's ``{"bids", "tricks"}`` checked under ``rules`` with ``totals`` before it
    (a duplicate board is a hand from 0 to 0); messages start ``Hand NUMBER: ``."""
    where = f"Hand {number}"
    if not isinstance(raw_hand, Mapping):
        raise ScoresheetError(
            f'{where}: a hand is an object like {{"bids": {{...}}, "tricks": {{...}}}}.', number
        )
    _refuse_unknown_keys(raw_hand, HAND_KEYS, where, number)
    raw_bids = _seat_mapping(raw_hand.get("bids"), "bids", number)
    raw_tricks = _seat_mapping(raw_hand.get("tricks"), "tricks", number)
    bids: list[int] = []
    blind: list[bool] = []
    for seat, name in enumerate(SEAT_NAMES):
        tricks, is_blind = _read_bid(rules, number, name, raw_bids[name])
        if is_blind:
            _check_blind_nil(rules, number, seat, totals)
        bids.append(tricks)
        blind.append(is_blind)
    tricks_taken: list[int] = []
    for name in SEAT_NAMES:
        value = raw_tricks[name]
        if type(value) is not int or not 0 <= value <= TRICKS_PER_HAND:
            raise ScoresheetError(
                f"{where}: {name} took {value!r} tricks; tricks are a whole number "
                f"from 0 to {TRICKS_PER_HAND}.",
                number,
            )
        tricks_taken.append(value)
    if sum(tricks_taken) != TRICKS_PER_HAND:
        raise ScoresheetError(
            f"{where}: the tricks add up to {sum(tricks_taken)}, not {TRICKS_PER_HAND} "
            f"({_listing(tricks_taken)}).",
            number,
        )
    return ScoresheetHand(
        number,
        (bids[0], bids[1], bids[2], bids[3]),
        (blind[0], blind[1], blind[2], blind[3]),
        (tricks_taken[0], tricks_taken[1], tricks_taken[2], tricks_taken[3]),
    )


def _seat_mapping(value: object, field: str, number: int) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise ScoresheetError(
            f'Hand {number}: "{field}" must be an object with one entry per seat '
            f"({', '.join(SEAT_NAMES)}).",
            number,
        )
    unknown = [str(key) for key in value if key not in SEAT_NAMES]
    if unknown:
        raise ScoresheetError(
            f"Hand {number}: {field} names {', '.join(repr(key) for key in unknown)}, "
            f"which is not a seat; the seats are {', '.join(SEAT_NAMES)}.",
            number,
        )
    missing = [name for name in SEAT_NAMES if name not in value]
    if missing:
        raise ScoresheetError(
            f"Hand {number}: {field} has nothing for {', '.join(missing)}; "
            "every seat needs an entry.",
            number,
        )
    return value


def _read_bid(rules: Rules, number: int, seat_name: str, value: object) -> tuple[int, bool]:
    where = f"Hand {number}: {seat_name}"
    if value == NIL:
        tricks, blind = 0, False
    elif value == BLIND_NIL:
        tricks, blind = 0, True
    elif type(value) is int:
        if not 0 <= value <= MAX_BID:
            raise ScoresheetError(
                f"{where} bid {value}; bids run from 0 to {MAX_BID}.",
                number,
            )
        tricks, blind = value, False
    else:
        raise ScoresheetError(
            f"{where}'s bid {value!r} is not a bid: write a number from 0 to {MAX_BID}, "
            '"nil" or "blind_nil".',
            number,
        )
    if tricks == 0 and not blind and not rules.nil:
        raise ScoresheetError(
            f"{where} bid nil, but nil is not played under these rules: bid at least 1.",
            number,
        )
    return tricks, blind


def _check_blind_nil(rules: Rules, number: int, seat: int, totals: tuple[int, int]) -> None:
    name = SEAT_NAMES[seat]
    if not rules.blind_nil:
        raise ScoresheetError(
            f"Hand {number}: {name} bid blind nil, but blind nil is not played under these rules.",
            number,
        )
    team = team_of(seat)
    deficit = totals[1 - team] - totals[team]
    if deficit < rules.blind_nil_min_deficit:
        raise ScoresheetError(
            f"Hand {number}: {name} bid blind nil, but {TEAM_WORDS[team]} was not "
            f"{rules.blind_nil_min_deficit} or more points behind at the start of the hand "
            f"({TEAM_WORDS[team]} {totals[team]}, {TEAM_WORDS[1 - team]} {totals[1 - team]}).",
            number,
        )


def _refuse_unknown_keys(
    value: Mapping[Any, object], known: tuple[str, ...], where: str, number: int | None
) -> None:
    problem = unknown_fields_problem(value, known, where)
    if problem is not None:
        raise ScoresheetError(problem, number)


def _listing(tricks: list[int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in zip(SEAT_NAMES, tricks, strict=True))
