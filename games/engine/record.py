"""Game records: every input of a game in one JSON document, and replaying it.

A record holds what cannot be derived: the rules, and per hand the dealer, the deal,
the blind nil passes, the bids and the cards in the order played (format in
``docs/formats.md``).  :func:`replay_record` feeds it through the same engine calls
the server validates moves with (``Game.start_hand``, ``place_bid``, ``pass_cards``,
``play_card``) and derives tricks, trick winners and the score ledger.  The first
action the rules refuse stops the replay with a :class:`RecordError` that says
where (hand, position, seat, card) and why (the engine's sentence).

:func:`record_from_game` is the inverse: it writes a played game as a record, which
is how stored games are exported for audit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .bidding import bid_label, parse_bid, place_bid
from .cards import CardError, card_name, names_in, parse_card
from .deal import DealError, hands_from_lists
from .errors import IllegalMove
from .game import Game
from .hand import COMPLETE, PASSING, HandState
from .input_fields import unknown_fields_problem
from .passing import pass_cards
from .play import TRICKS_PER_HAND, play_card
from .rules import Rules, RulesError, rules_from_spec, rules_name
from .seats import SEAT_NAMES, TEAM_NAMES, parse_seat

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
    ``rescoring`` is true when only the re-scoring rules forbid the action.
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
        rescoring: bool = False,
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
        self.rescoring = rescoring

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
        result = {key: value for key, value in fields.items() if value is not None}
        if self.rescoring:
            result["rescoring"] = True
        return result


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


@dataclass(frozen=True, slots=True)
class Replay:
    """A replayed record: the game as the engine rebuilt it.

    ``hands_after_end`` counts the record's hands left unscored because, under
    re-scoring rules, the game was already over before them.
    """

    rules: Rules
    game: Game
    hands_after_end: int = 0

    def as_dict(self) -> dict[str, Any]:
        """``{"hands": [...], "totals", "winner", "finished_after_hand"}`` (docs/formats.md).

        Each hand is ``{"tricks", "trick_winners", "north_south", "east_west"}`` with the
        team objects of the scoresheet output.
        """
        summary = self.game.ledger.summary()
        hands = []
        for state, scored in zip(self.game.hands, summary["hands"], strict=True):
            hands.append(
                {
                    "tricks": {SEAT_NAMES[s]: state.tricks_won[s] for s in range(4)},
                    "trick_winners": [SEAT_NAMES[s] for s in state.trick_winners],
                    **scored,
                }
            )
        result: dict[str, Any] = {
            "hands": hands,
            "totals": summary["totals"],
            "winner": summary["winner"],
            "finished_after_hand": summary["finished_after_hand"],
        }
        if self.hands_after_end:
            result["hands_after_end"] = self.hands_after_end
        return result


def parse_record(document: object) -> GameRecord:
    """Read a decoded JSON record, checking its shape: seats, cards, 4 x 13 dealt, 52 plays.

    Legality (turn order, following suit, blind nil eligibility...) is left to
    :func:`replay_record`, which asks the engine.
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


def replay_record(record: GameRecord, rules: Rules | None = None) -> Replay:
    """Replay ``record`` through the engine; with ``rules``, re-score it under those rules.

    The record is always checked under its own rules first.  With other ``rules``
    it is then replayed again under them: an action only those rules forbid raises
    a :class:`RecordError` saying so, and hands after the end of the re-scored game
    are counted in ``hands_after_end`` instead of scored.
    """
    own = _replay(record, record.rules, rescoring=False)
    if rules is None or rules == record.rules:
        return own
    return _replay(record, rules, rescoring=True)


def replay_document(document: object, rules_spec: object = None) -> Replay:
    """Parse and replay a decoded JSON record; ``rules_spec`` as in ``rules_from_spec``."""
    record = parse_record(document)
    rules = None
    if rules_spec is not None:
        try:
            rules = rules_from_spec(rules_spec)
        except RulesError as error:
            raise RecordError(f"Re-scoring rules: {error}") from None
    return replay_record(record, rules)


def _replay(record: GameRecord, rules: Rules, rescoring: bool) -> Replay:
    game = Game(rules, first_dealer=record.hands[0].dealer)
    for position, hand in enumerate(record.hands):
        if game.finished:
            if rescoring:
                return Replay(rules, game, len(record.hands) - position)
            winner = TEAM_NAMES[game.ledger.winner] if game.ledger.winner is not None else ""
            raise RecordError(
                f"Hand {hand.number}: the game was over after hand "
                f"{game.ledger.finished_after_hand} ({winner} won); no more hands are dealt.",
                hand=hand.number,
                action="deal",
                code="game_over",
            )
        _replay_hand(game, hand, rules, rescoring)
    return Replay(rules, game)


def _replay_hand(game: Game, hand: RecordedHand, rules: Rules, rescoring: bool) -> None:
    def refused(
        error: IllegalMove,
        action: str,
        where: str,
        seat: int | None = None,
        index: int | None = None,
        card: int | None = None,
    ) -> RecordError:
        if rescoring:
            name = rules_name(rules) or "custom"
            because = f"forbidden under the re-scoring rules ({name}): {error.message}"
        else:
            because = error.message
        return RecordError(
            f"Hand {hand.number}, {where}: {because}",
            hand=hand.number,
            action=action,
            index=index,
            seat=None if seat is None else SEAT_NAMES[seat],
            card=None if card is None else card_name(card),
            code=error.code,
            reason=error.message,
            rescoring=rescoring,
        )

    try:
        state = game.start_hand(list(hand.dealt), hand.dealer)
    except IllegalMove as error:
        raise refused(error, "deal", f"dealt by {SEAT_NAMES[hand.dealer]}") from None

    for index in range(1, 5):
        seat = state.turn
        tricks, blind = hand.bids[seat]
        label = bid_label(tricks, blind)
        try:
            place_bid(state, seat, tricks, blind)
        except IllegalMove as error:
            raise refused(
                error, "bid", f"bid {index} ({SEAT_NAMES[seat]} bid {label})", seat, index
            ) from None

    for seat in range(4):
        cards = hand.passes[seat]
        if not cards:
            continue
        try:
            pass_cards(state, seat, list(cards))
        except IllegalMove as error:
            given = " and ".join(card_name(card) for card in cards)
            raise refused(error, "pass", f"{SEAT_NAMES[seat]} passing {given}", seat) from None
    if state.phase == PASSING:
        missing = [SEAT_NAMES[s] for s in range(4) if state.pass_owed[s] and not state.passes[s]]
        raise RecordError(
            f"Hand {hand.number}: after the blind nil bid, {' and '.join(missing)} must pass "
            'two cards to their partner; add them under "passes".',
            hand=hand.number,
            action="pass",
            code="pass_missing",
        )

    for index, card in enumerate(hand.plays, start=1):
        seat = state.turn
        try:
            play_card(state, seat, card)
        except IllegalMove as error:
            trick = (index - 1) // 4 + 1
            where = f"play {index} (trick {trick}: {SEAT_NAMES[seat]} played {card_name(card)})"
            raise refused(error, "play", where, seat, index, card) from None
    game.score_if_complete()


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
        hand["bids"] = {SEAT_NAMES[s]: bid_label(state.bids[s], state.blind[s]) for s in range(4)}
        hand["plays"] = [card_name(card) for card in state.plays]
        written.append(hand)
    return {"rules": rules.to_dict(), "hands": written}


def record_from_game(game: Game) -> dict[str, Any]:
    """Write a played :class:`Game` as a game record (``docs/formats.md``).

    ``replay_record(parse_record(record_from_game(game)))`` rebuilds the same
    tricks and ledger; this is the export format of stored games.  A hand still
    in progress is left out.
    """
    return record_from_hands(game.rules, game.hands)
