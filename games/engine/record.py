"""Game records: every input of a game in one JSON document, read and written.

A record holds what cannot be derived: the rules, and per hand the dealer, the deal,
the blind nil passes, the bids and the cards in the order played (format in
``docs/formats.md``).  :func:`parse_record` reads a decoded document and checks its
shape (seats, cards, 4 x 13 dealt, 52 plays), raising a :class:`RecordError` that
says which hand and what is wrong; whether the actions are legal is for the replay
(:mod:`games.engine.replay` for one hand; whole games are replayed above the engine,
next to the ledger).

:func:`record_from_game` is the inverse: it writes a played game as a record, which
is how stored games are exported for audit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .bidding import parse_bid
from .cards import CardError, card_name, cards_in, names_in, parse_card
from .deal import DealError, hands_from_lists
from .errors import IllegalMove
from .hand import COMPLETE, HandState
from .hand_summary import hand_summary
from .input_fields import unknown_fields_problem
from .play import TRICKS_PER_HAND
from .rules import Rules, RulesError, rules_from_spec
from .seats import SEAT_NAMES, parse_seat

PLAYS_PER_HAND = 4 * TRICKS_PER_HAND
RECORD_KEYS = ("rules", "hands")
# An export of a stored game also carries where it came from and the stream's head hash
# (docs/tables.md); replay reads past them, they change nothing it derives.
EXPORT_KEYS = ("table", "head_hash")
HAND_KEYS = ("dealer", "deal", "passes", "bids", "plays")


class RecordError(ValueError):
    """A game record that cannot be replayed.

    ``message`` names the hand and what is wrong.  For a refused action the other
    attributes say where: ``action`` (``"deal"``, ``"bid"``, ``"pass"``,
    ``"play"``), ``index`` (1-based position among that hand's bids or plays),
    ``seat`` and ``card`` (names), and the engine's ``code`` and ``reason``.
    """

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        action: str | None = None,
        index: int | None = None,
        seat: str | None = None,
        card: str | None = None,
        code: str | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.action = action
        self.index = index
        self.seat = seat
        self.card = card
        self.code = code
        self.reason = reason

    def as_dict(self) -> dict[str, Any]:
        """The error as a JSON-ready mapping (``None`` fields left out)."""
        fields = {
            "message": self.message,
            "hand": self.hand,
            "action": self.action,
            "index": self.index,
            "seat": self.seat,
            "card": self.card,
            "code": self.code,
            "reason": self.reason,
        }
        return {key: value for key, value in fields.items() if value is not None}


@dataclass(frozen=True, slots=True)
class RecordedHand:
    """One hand of a record, read and checked for shape (not yet for legality)."""

    number: int
    dealer: int
    dealt: tuple[int, int, int, int]
    passes: tuple[tuple[int, ...], ...]
    bids: tuple[tuple[int, bool], ...]
    plays: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole record: the rules it was played under and its hands."""

    rules: Rules
    hands: tuple[RecordedHand, ...]


def parse_record(document: object) -> GameRecord:
    """Read a decoded JSON record, checking its shape: seats, cards, 4 x 13 dealt, 52 plays.

    Legality (turn order, following suit, blind nil eligibility...) is left to the
    replay, which asks the engine.
    """
    if not isinstance(document, Mapping):
        raise RecordError('A game record is an object like {"rules": "standard", "hands": [...]}.')
    _refuse_unknown_keys(document, RECORD_KEYS + EXPORT_KEYS, "The record", None)
    try:
        rules = rules_from_spec(document.get("rules", "standard"))
    except RulesError as error:
        raise RecordError(f"rules: {error}") from None
    raw_hands = document.get("hands")
    if not isinstance(raw_hands, list) or not raw_hands:
        raise RecordError('"hands" must be a list with at least one hand.')
    hands = tuple(_read_hand(number, raw) for number, raw in enumerate(raw_hands, start=1))
    return GameRecord(rules, hands)


def _read_hand(number: int, raw: object) -> RecordedHand:
    where = f"Hand {number}"
    if not isinstance(raw, Mapping):
        raise RecordError(
            f'{where}: a hand is an object with "dealer", "deal", "bids" and "plays".',
            hand=number,
        )
    _refuse_unknown_keys(raw, HAND_KEYS, where, number)
    dealer_name = raw.get("dealer")
    if not isinstance(dealer_name, str) or dealer_name not in SEAT_NAMES:
        raise RecordError(
            f"{where}: dealer must be one of {', '.join(SEAT_NAMES)}, not {dealer_name!r}.",
            hand=number,
        )
    dealer = parse_seat(dealer_name)

    deal = _seat_mapping(raw.get("deal"), "deal", number, every_seat=True)
    try:
        dealt_lists = [_read_cards(deal[name], f"{where}: {name}'s deal") for name in SEAT_NAMES]
    except CardError as error:
        raise RecordError(str(error), hand=number, action="deal") from None
    try:
        masks = hands_from_lists(dealt_lists)
    except DealError as error:
        raise RecordError(f"{where}, deal: {error}", hand=number, action="deal") from None

    passes: list[tuple[int, ...]] = [(), (), (), ()]
    if "passes" in raw:
        raw_passes = _seat_mapping(raw["passes"], "passes", number, every_seat=False)
        for seat, name in enumerate(SEAT_NAMES):
            if name in raw_passes:
                try:
                    passes[seat] = tuple(_read_cards(raw_passes[name], f"{where}: {name}'s pass"))
                except CardError as error:
                    raise RecordError(str(error), hand=number, action="pass") from None

    raw_bids = _seat_mapping(raw.get("bids"), "bids", number, every_seat=True)
    bids: list[tuple[int, bool]] = []
    for name in SEAT_NAMES:
        try:
            bids.append(parse_bid(raw_bids[name]))
        except IllegalMove as error:
            raise RecordError(
                f"{where}: {name}'s bid: {error.message}",
                hand=number,
                action="bid",
                seat=name,
                code=error.code,
                reason=error.message,
            ) from None

    raw_plays = raw.get("plays")
    if not isinstance(raw_plays, list):
        raise RecordError(
            f'{where}: "plays" must be the list of the {PLAYS_PER_HAND} cards in the order played.',
            hand=number,
        )
    if len(raw_plays) != PLAYS_PER_HAND:
        raise RecordError(
            f"{where}: plays lists {len(raw_plays)} cards; a hand is {PLAYS_PER_HAND} plays "
            f"({TRICKS_PER_HAND} tricks of 4).",
            hand=number,
            action="play",
        )
    plays: list[int] = []
    for index, text in enumerate(raw_plays, start=1):
        try:
            plays.append(parse_card(text))
        except CardError as error:
            raise RecordError(
                f"{where}, play {index}: {error}", hand=number, action="play", index=index
            ) from None
    return RecordedHand(
        number,
        dealer,
        (masks[0], masks[1], masks[2], masks[3]),
        tuple(passes),
        tuple(bids),
        tuple(plays),
    )


def _read_cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise CardError(f'{where} must be a list of cards like ["AS", "10D"].')
    try:
        return [parse_card(text) for text in value]
    except CardError as error:
        raise CardError(f"{where}: {error}") from None


def _seat_mapping(value: object, field: str, number: int, every_seat: bool) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RecordError(
            f'Hand {number}: "{field}" must be an object keyed by seat ({", ".join(SEAT_NAMES)}).',
            hand=number,
        )
    unknown = [str(key) for key in value if key not in SEAT_NAMES]
    if unknown:
        raise RecordError(
            f"Hand {number}: {field} names {', '.join(repr(key) for key in unknown)}, "
            f"which is not a seat; the seats are {', '.join(SEAT_NAMES)}.",
            hand=number,
        )
    missing = [name for name in SEAT_NAMES if name not in value]
    if every_seat and missing:
        raise RecordError(
            f"Hand {number}: {field} has nothing for {', '.join(missing)}; "
            "every seat needs an entry.",
            hand=number,
        )
    return value


def _refuse_unknown_keys(
    value: Mapping[Any, object], known: tuple[str, ...], where: str, number: int | None
) -> None:
    problem = unknown_fields_problem(value, known, where)
    if problem is not None:
        raise RecordError(problem, hand=number)


def record_from_hands(rules: Rules, hands: Iterable[HandState]) -> dict[str, Any]:
    """Write complete hands played under ``rules`` as a game record (a JSON-ready dict).

    The rules are written out in full (every field), so the record stays exact even
    if a preset changes later.  Hands not yet complete are left out: a record holds
    whole hands only.  Cards are written ``"AS"``, ``"TD"``; each seat's deal and
    passes spades first, high to low; plays in the order played.
    """
    written: list[dict[str, Any]] = []
    for state in hands:
        if state.phase != COMPLETE:
            continue
        hand: dict[str, Any] = {
            "dealer": SEAT_NAMES[state.dealer],
            "deal": {SEAT_NAMES[s]: names_in(state.dealt[s]) for s in range(4)},
        }
        passes = {SEAT_NAMES[s]: names_in(state.passes[s]) for s in range(4) if state.passes[s]}
        if passes:
            hand["passes"] = passes
        hand["bids"] = hand_summary(state).bids
        hand["plays"] = [card_name(card) for card in state.plays]
        written.append(hand)
    return {"rules": rules.to_dict(), "hands": written}


class PlayedGame(Protocol):
    """What a record is written from: the rules and the hands (a whole game)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def hands(self) -> Sequence[HandState]: ...


def record_from_game(game: PlayedGame) -> dict[str, Any]:
    """Write a played game as a game record (``docs/formats.md``).

    Replaying ``parse_record(record_from_game(game))`` rebuilds the same tricks and
    ledger; this is the export format of stored games.  A hand still in progress is
    left out.
    """
    return record_from_hands(game.rules, game.hands)


def recorded_hand(state: HandState) -> RecordedHand:
    """A played hand as the record would read it back (its passes low card first)."""
    return RecordedHand(
        state.hand_number,
        state.dealer,
        (state.dealt[0], state.dealt[1], state.dealt[2], state.dealt[3]),
        tuple(tuple(cards_in(state.passes[s])) for s in range(4)),
        tuple((state.bids[s], state.blind[s]) for s in range(4)),
        tuple(state.plays),
    )
