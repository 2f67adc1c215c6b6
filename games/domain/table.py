"""A table's state, folded event by event through the rules engine.

:class:`TableState` is the only interpretation of a table's stream: the command services
decide against it, the views filter it, the ledger projection and the export read its
:class:`~scoring.core.game.Game`.  Applying an event validates it first and changes the
state only when it is acceptable, with the engine's own refusal when it is not, so an
event the engine would refuse can never be folded into a state.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from games.engine.bidding import look_at_cards, parse_bid, place_bid
from games.engine.cards import parse_card
from games.engine.deal import DealError, board_deck, deal_deck, seed_commitment, shuffled_deck
from games.engine.hand import BIDDING, COMPLETE, NO_SEAT, PASSING, PHASE_NAMES, PLAYING, HandState
from games.engine.passing import pass_cards
from games.engine.play import play_card
from games.engine.rules import Rules, rules_from_spec
from games.engine.seats import SEAT_NAMES, parse_seat
from scoring.core.game import Game

from . import events as ev
from .errors import TableRefusal

LOBBY = "lobby"
PLAYING_STATUS = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"
STATUSES = (LOBBY, PLAYING_STATUS, FINISHED, ABANDONED)

HUMAN = "human"
BOT = "bot"


class EventLike(Protocol):
    """Anything with an event's ``type`` and ``data`` (a DomainEvent or a StoredEvent)."""

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> Mapping[str, Any]: ...


def invitation_digest(secret: str) -> str:
    """What a seat invitation's event keeps of its secret: SHA-256 of its UTF-8 text, in
    hex (``events.INVITATION_SCHEME``). The secret is 256 random bits, so its digest can be
    public without letting anyone find it."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def invitation_matches(state: TableState, seat: int, secret: object) -> bool:
    """Whether ``secret`` is the live invitation of kept ``seat`` (a constant-time
    comparison of digests; a revoked invitation matches nothing)."""
    digest = state.invitation_digests[seat]
    if digest is None or not isinstance(secret, str):
        return False
    return hmac.compare_digest(invitation_digest(secret), digest)


class TableState:
    """Everything about one table, derived from its events."""

    __slots__ = (
        "version",
        "status",
        "rules",
        "rules_snapshot",
        "preset_name",
        "preset_version",
        "seat_kinds",
        "seat_levels",
        "players",
        "reserved",
        "invitation_digests",
        "bot_stand_ins",
        "turn_timer_seconds",
        "spectator_delay_tricks",
        "created_by",
        "owner",
        "first_dealer",
        "commitment",
        "revealed_seed",
        "decks",
        "timeouts",
        "game",
        "deal_versions",
        "trick_ends",
        "deal_source",
        "board_count",
        "boards_commitment",
        "reveal_held",
        "lobby_version",
    )

    def __init__(self) -> None:
        self.version = 0
        self.status = LOBBY
        self.rules: Rules = Rules()
        self.rules_snapshot: dict[str, Any] = {}
        self.preset_name: str | None = None
        self.preset_version: int | None = None
        self.seat_kinds: list[str] = [HUMAN] * 4
        self.seat_levels: list[str | None] = [None] * 4
        self.players: list[int | None] = [None] * 4
        # Seats the creator keeps for invited friends, and the digest of each one's live
        # invitation (None once revoked: the seat stays kept and no link seats anyone).
        self.reserved: list[bool] = [False] * 4
        self.invitation_digests: list[str | None] = [None] * 4
        # A human seat played by a bot (its player handed it over or timed out): the level.
        self.bot_stand_ins: list[str | None] = [None] * 4
        self.turn_timer_seconds: int | None = None
        # How many completed tricks behind play spectators are kept (0: live).
        self.spectator_delay_tricks = 0
        self.created_by: int | None = None
        # The opaque tag of what the table was created for (TableCreated v3; None: nobody's).
        self.owner: dict[str, Any] | None = None
        self.first_dealer: int | None = None
        self.commitment: str | None = None
        self.revealed_seed: str | None = None
        self.decks: list[list[int]] = []
        self.timeouts = [0, 0, 0, 0]
        self.game: Game | None = None
        # The stream versions of each HandDealt, and of each card that completed a trick
        # (counted over the whole game): where a spectator's delayed view may end.
        self.deal_versions: list[int] = []
        self.trick_ends: list[int] = []
        # Where the deals come from (TableCreated v4 ``deals``): "seed" (its own, fresh at
        # the start) or "boards" (a duplicate round's: hand n is board n, the round seed
        # committed at creation, revealed only by the owner's RevealDeals).
        self.deal_source = "seed"
        self.board_count = 0
        self.boards_commitment: str | None = None
        # A boards table's game is over and its seed held back (DealRevealHeld).
        self.reveal_held = False
        # The version just before GameStarted: all a spectator sees of a boards table
        # until its seed is revealed.
        self.lobby_version = 0

    # ------------------------------------------------------------ folding

    @classmethod
    def fold(cls, events: Iterable[EventLike]) -> TableState:
        """The state after ``events`` (a whole stream, in version order)."""
        state = cls()
        for event in events:
            state.apply(event.type, event.data)
        return state

    def apply(self, type_: str, data: Mapping[str, Any]) -> None:
        """Fold one event; raise (engine's :class:`IllegalMove` or a refusal) if it cannot be.

        A refused event leaves the state as it was.
        """
        handler = _HANDLERS.get(type_)
        if handler is None:
            raise TableRefusal("unknown_event", f"Unknown event type {type_!r}.", 400)
        handler(self, data)
        self.version += 1

    # ------------------------------------------------------------ derived facts

    @property
    def hand(self) -> HandState | None:
        """The current (or last) hand, once the first was dealt."""
        return self.game.current if self.game is not None else None

    @property
    def hand_number(self) -> int:
        """The number of the current hand (0 before the first deal)."""
        return len(self.game.hands) if self.game is not None else 0

    @property
    def phase(self) -> str | None:
        """``bidding``/``passing``/``playing``/``complete`` for the current hand, or None."""
        hand = self.hand
        return PHASE_NAMES[hand.phase] if hand is not None else None

    def controller(self, seat: int) -> str:
        """Who makes the moves of ``seat`` now: ``"human"`` or ``"bot"``."""
        if self.seat_kinds[seat] == BOT or self.bot_stand_ins[seat] is not None:
            return BOT
        return HUMAN

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot playing ``seat``, if a bot plays it."""
        if self.seat_kinds[seat] == BOT:
            return self.seat_levels[seat]
        return self.bot_stand_ins[seat]

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds at this table, if any."""
        if user_id is None:
            return None
        for seat, player in enumerate(self.players):
            if player == user_id:
                return seat
        return None

    def acting_seats(self) -> list[int]:
        """The seats whose move the table waits for (several while blind nil cards pass)."""
        hand = self.hand
        if self.status != PLAYING_STATUS or hand is None:
            return []
        if hand.phase in (BIDDING, PLAYING):
            return [hand.turn]
        if hand.phase == PASSING:
            return [s for s in range(4) if hand.pass_owed[s] and not hand.passes[s]]
        return []

    def bot_to_act(self) -> bool:
        """Whether a bot plays one of the seats the table waits for."""
        return any(self.controller(seat) == BOT for seat in self.acting_seats())

    @property
    def needs_deal(self) -> bool:
        """Whether the next hand is due (the game is on and no hand is in progress)."""
        if self.status != PLAYING_STATUS or self.game is None or self.commitment is None:
            return False
        return self.game.can_deal() is None

    @property
    def needs_reveal(self) -> bool:
        """Whether the game is over and the deal seed not yet revealed (a boards table's
        seed: not yet held back, then revealed by its owner's command only)."""
        return self.status == FINISHED and self.revealed_seed is None and not self.reveal_held

    @property
    def deals_from_boards(self) -> bool:
        """Whether the table deals a duplicate round's boards (TableCreated v4)."""
        return self.deal_source == "boards"

    def deck_for(self, seed: str, hand_number: int) -> list[int]:
        """The deck the committed ``seed`` gives hand ``hand_number`` at this table: its
        own shuffle, or (a boards table) board ``hand_number`` of the round."""
        if self.deals_from_boards:
            return board_deck(seed, hand_number)
        return shuffled_deck(seed, hand_number)

    @property
    def boards_embargoed(self) -> bool:
        """Whether the table's play is hidden from everyone but its seats: a boards table
        before its seed is revealed (other tables may still be playing its boards)."""
        return self.deals_from_boards and self.revealed_seed is None

    def team_totals(self) -> tuple[int, int]:
        """The running scores (0, 0 before any hand is scored)."""
        if self.game is None:
            return (0, 0)
        totals = self.game.ledger.totals
        return (totals[0], totals[1])

    def team_bags(self) -> tuple[int, int]:
        """The running bag counts."""
        if self.game is None:
            return (0, 0)
        bags = self.game.ledger.bags
        return (bags[0], bags[1])

    def spectator_version(self) -> int:
        """The stream version a spectator is shown: the end of the prefix that stops
        ``spectator_delay_tricks`` completed tricks behind play (docs/tables.md,
        "Spectator delay").

        Tricks count over the whole game. The prefix ends with the card that completed trick
        ``T - N`` (``T`` tricks completed, ``N`` the delay), and with the next hand's deal
        when that card ended a hand (the two are appended together). Before trick ``N + 1``
        has been completed it ends with the game's first deal. No delay in the lobby, or once
        the game is over (finished or abandoned): then everything is shown.
        """
        if self.boards_embargoed and self.status != LOBBY:
            # A duplicate board's play reaches no spectator before the round's boards are
            # revealed: the table as it was when the game started, no bid, no card.
            return self.lobby_version
        delay = self.spectator_delay_tricks
        if delay == 0 or self.status != PLAYING_STATUS or not self.deal_versions:
            return self.version
        shown = len(self.trick_ends) - delay
        if shown < 1:
            return self.deal_versions[0]
        cut = self.trick_ends[shown - 1]
        if cut + 1 in self.deal_versions:
            cut += 1
        return cut

    def hand_is_over(self, hand_number: int) -> bool:
        """Whether hand ``hand_number`` has been played out (its cards are public then)."""
        if self.game is None or hand_number > len(self.game.hands):
            return False
        return self.game.hands[hand_number - 1].phase == COMPLETE


# ---------------------------------------------------------------- event handlers


def _seat_arg(data: Mapping[str, Any], name: str = "seat") -> int:
    return parse_seat(data[name])


def _require(condition: bool, code: str, message: str, status: int = 409) -> None:
    if not condition:
        raise TableRefusal(code, message, status)


def _current_hand(state: TableState, data: Mapping[str, Any]) -> HandState:
    hand = state.hand
    _require(
        state.status == PLAYING_STATUS and hand is not None,
        "game_not_started" if state.status == LOBBY else "game_over",
        "The game has not started yet."
        if state.status == LOBBY
        else "The game is over: no more moves are taken.",
    )
    assert hand is not None  # for the type checker; _require guarantees it
    number = data.get("hand_number", state.hand_number)
    _require(
        number == state.hand_number,
        "wrong_hand",
        f"That move is for hand {number}, but hand {state.hand_number} is being played.",
    )
    return hand


def _on_table_created(state: TableState, data: Mapping[str, Any]) -> None:
    _require(state.version == 0, "table_exists", "This table already exists.")
    rules = rules_from_spec({"preset": "standard", **data["rules"]})
    seats = data["seats"]
    state.rules = rules
    state.rules_snapshot = rules.to_dict()
    state.preset_name = data["preset"]["name"]
    state.preset_version = data["preset"]["version"]
    state.seat_kinds = [seats[name]["kind"] for name in SEAT_NAMES]
    state.seat_levels = [seats[name].get("level") for name in SEAT_NAMES]
    state.turn_timer_seconds = data["turn_timer_seconds"]
    # Schema 1 had no delay: those tables are live.
    state.spectator_delay_tricks = data.get("spectator_delay_tricks", 0)
    state.created_by = data["created_by"]
    # Before schema 3 no table had an owner tag.
    owner = data.get("owner")
    state.owner = None if owner is None else dict(owner)
    # Before schema 4 every table dealt from its own seed.
    deals = data.get("deals")
    if deals is not None:
        state.deal_source = "boards"
        state.board_count = int(deals["boards"])
        state.boards_commitment = str(deals["commitment"])


def _on_seat_taken(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    user_id = data["user_id"]
    _require(
        state.status == LOBBY,
        "not_in_lobby",
        "The game has started: seats are taken before it starts.",
    )
    _require(
        state.seat_kinds[seat] == HUMAN,
        "bot_seat",
        f"A bot plays {SEAT_NAMES[seat]} at this table.",
    )
    _require(
        state.players[seat] is None,
        "seat_taken",
        f"{SEAT_NAMES[seat].capitalize()} is already taken.",
    )
    held = state.seat_of(user_id)
    _require(
        held is None,
        "already_seated",
        f"You already sit at {SEAT_NAMES[held] if held is not None else ''} at this table.",
    )
    state.players[seat] = user_id


def _on_seat_left(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _require(
        state.status == LOBBY,
        "not_in_lobby",
        "The game has started: hand your seat to a bot instead of leaving.",
    )
    _require(
        state.players[seat] is not None and state.players[seat] == data["user_id"],
        "not_your_seat",
        f"You do not sit at {SEAT_NAMES[seat]}.",
        403,
    )
    state.players[seat] = None


def _creator_in_lobby(state: TableState, data: Mapping[str, Any], seat: int) -> None:
    _require(
        state.status == LOBBY,
        "not_in_lobby",
        "The game has started: seats are kept for friends before it starts.",
    )
    _require(
        state.created_by is not None and data["user_id"] == state.created_by,
        "not_allowed",
        "Only the table's creator keeps seats for friends.",
        403,
    )
    _require(
        state.seat_kinds[seat] == HUMAN,
        "bot_seat",
        f"A bot plays {SEAT_NAMES[seat]} at this table.",
    )


def _on_seat_reserved(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _creator_in_lobby(state, data, seat)
    _require(
        not state.reserved[seat],
        "already_reserved",
        f"{SEAT_NAMES[seat].capitalize()} is already kept for a friend: issue a new link instead.",
    )
    _require(
        state.players[seat] is None,
        "seat_taken",
        f"{SEAT_NAMES[seat].capitalize()} is already taken.",
    )
    state.reserved[seat] = True
    state.invitation_digests[seat] = data["digest"]


def _on_seat_invitation_reissued(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _creator_in_lobby(state, data, seat)
    _require(
        state.reserved[seat],
        "not_reserved",
        f"{SEAT_NAMES[seat].capitalize()} is not kept for a friend: keep it first.",
    )
    state.invitation_digests[seat] = data["digest"]


def _on_seat_invitation_revoked(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _creator_in_lobby(state, data, seat)
    _require(
        state.reserved[seat] and state.invitation_digests[seat] is not None,
        "not_reserved",
        f"{SEAT_NAMES[seat].capitalize()} has no invitation to revoke.",
    )
    state.invitation_digests[seat] = None


def _on_game_started(state: TableState, data: Mapping[str, Any]) -> None:
    _require(state.status == LOBBY, "already_started", "The game has already started.")
    empty = [
        SEAT_NAMES[s] for s in range(4) if state.seat_kinds[s] == HUMAN and state.players[s] is None
    ]
    _require(
        not empty,
        "seats_empty",
        f"Every seat needs a player or a bot before the game starts; empty: {', '.join(empty)}.",
    )
    first_dealer = _seat_arg(data, "first_dealer")
    _require(
        not state.deals_from_boards or first_dealer == 0,
        "boards_dealer",
        "A table dealing a round's boards starts with North dealing board 1.",
    )
    state.lobby_version = state.version
    state.first_dealer = first_dealer
    state.game = Game(state.rules, first_dealer)
    state.status = PLAYING_STATUS


def _on_deal_committed(state: TableState, data: Mapping[str, Any]) -> None:
    _require(
        state.status == PLAYING_STATUS and state.commitment is None and state.hand_number == 0,
        "commitment_out_of_place",
        "A deal commitment is recorded once, after the game starts and before the first deal.",
    )
    _require(
        not state.deals_from_boards or data["commitment"] == state.boards_commitment,
        "boards_commitment",
        "A table dealing a round's boards commits to the round's seed.",
    )
    state.commitment = data["commitment"]


def _on_hand_dealt(state: TableState, data: Mapping[str, Any]) -> None:
    _require(
        state.commitment is not None,
        "no_commitment",
        "No hand is dealt before the deal commitment is recorded.",
    )
    game = state.game
    assert game is not None  # a commitment implies a started game
    _require(
        data["hand_number"] == len(game.hands) + 1,
        "wrong_hand",
        f"The next deal is hand {len(game.hands) + 1}, not {data['hand_number']}.",
    )
    _require(
        not state.deals_from_boards or data["hand_number"] <= state.board_count,
        "no_such_board",
        f"This table deals {state.board_count} boards.",
    )
    deck = [parse_card(name) for name in data["deck"]]
    try:
        dealt = deal_deck(deck, game.next_dealer)
    except DealError as error:
        raise TableRefusal("bad_deck", str(error), 400) from None
    game.start_hand(dealt, _seat_arg(data, "dealer"))
    state.decks.append(deck)
    state.deal_versions.append(state.version + 1)


def _on_cards_looked(state: TableState, data: Mapping[str, Any]) -> None:
    hand = _current_hand(state, data)
    _require(
        hand.phase == BIDDING,
        "not_bidding",
        "Cards are looked at during the bidding; your cards are already in view.",
    )
    look_at_cards(hand, _seat_arg(data))


def _on_bid_placed(state: TableState, data: Mapping[str, Any]) -> None:
    hand = _current_hand(state, data)
    tricks, blind = parse_bid(data["bid"])
    place_bid(hand, _seat_arg(data), tricks, blind)


def _on_cards_passed(state: TableState, data: Mapping[str, Any]) -> None:
    hand = _current_hand(state, data)
    pass_cards(hand, _seat_arg(data), [parse_card(name) for name in data["cards"]])


def _on_card_played(state: TableState, data: Mapping[str, Any]) -> None:
    hand = _current_hand(state, data)
    tricks = len(hand.trick_winners)
    play_card(hand, _seat_arg(data), parse_card(data["card"]))
    if len(hand.trick_winners) > tricks:
        # This event (version + 1 once folded) completed a trick.
        state.trick_ends.append(state.version + 1)
    game = state.game
    assert game is not None
    if hand.phase == COMPLETE:
        game.score_if_complete()
        if game.finished:
            state.status = FINISHED


def _on_turn_timed_out(state: TableState, data: Mapping[str, Any]) -> None:
    _current_hand(state, data)
    seat = _seat_arg(data)
    _require(
        seat in state.acting_seats(),
        "not_waiting",
        f"The table is not waiting for {SEAT_NAMES[seat]}.",
    )
    state.timeouts[seat] += 1


def _on_seat_handed_to_bot(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _require(
        state.status == PLAYING_STATUS,
        "not_playing",
        "Seats are handed to bots while a game is being played.",
    )
    _require(
        state.controller(seat) == HUMAN,
        "already_bot",
        f"A bot already plays {SEAT_NAMES[seat]}.",
    )
    state.bot_stand_ins[seat] = data["level"]


def _on_seat_taken_back(state: TableState, data: Mapping[str, Any]) -> None:
    seat = _seat_arg(data)
    _require(
        state.status == PLAYING_STATUS,
        "not_playing",
        "A seat is taken back from a bot while the game is being played.",
    )
    _require(
        state.seat_kinds[seat] == HUMAN and state.players[seat] == data["user_id"],
        "not_your_seat",
        f"You do not sit at {SEAT_NAMES[seat]}.",
        403,
    )
    _require(
        state.bot_stand_ins[seat] is not None,
        "not_with_bot",
        f"You are playing {SEAT_NAMES[seat]} yourself already.",
    )
    state.bot_stand_ins[seat] = None


def _on_deal_reveal_held(state: TableState, data: Mapping[str, Any]) -> None:
    _require(
        state.deals_from_boards and state.status == FINISHED and not state.reveal_held,
        "not_finished",
        "Only a finished game of a round's boards holds its seed back.",
    )
    state.reveal_held = True


def _on_deal_seed_revealed(state: TableState, data: Mapping[str, Any]) -> None:
    _require(
        state.status == FINISHED and state.revealed_seed is None,
        "not_finished",
        "The deal seed is revealed once, when the game is over.",
    )
    _require(
        state.commitment == seed_commitment(data["seed"]),
        "seed_mismatch",
        "The revealed seed does not match the deal commitment.",
    )
    state.revealed_seed = data["seed"]


def _on_table_abandoned(state: TableState, data: Mapping[str, Any]) -> None:
    _require(
        state.status in (LOBBY, PLAYING_STATUS),
        "not_open",
        "Only a table in the lobby or in play can be abandoned.",
        409,
    )
    state.status = ABANDONED


_HANDLERS: dict[str, Any] = {
    ev.TABLE_CREATED: _on_table_created,
    ev.SEAT_TAKEN: _on_seat_taken,
    ev.SEAT_LEFT: _on_seat_left,
    ev.GAME_STARTED: _on_game_started,
    ev.DEAL_COMMITTED: _on_deal_committed,
    ev.HAND_DEALT: _on_hand_dealt,
    ev.CARDS_LOOKED: _on_cards_looked,
    ev.BID_PLACED: _on_bid_placed,
    ev.CARDS_PASSED: _on_cards_passed,
    ev.CARD_PLAYED: _on_card_played,
    ev.TURN_TIMED_OUT: _on_turn_timed_out,
    ev.SEAT_HANDED_TO_BOT: _on_seat_handed_to_bot,
    ev.SEAT_TAKEN_BACK: _on_seat_taken_back,
    ev.DEAL_SEED_REVEALED: _on_deal_seed_revealed,
    ev.DEAL_REVEAL_HELD: _on_deal_reveal_held,
    ev.TABLE_ABANDONED: _on_table_abandoned,
    ev.SEAT_RESERVED: _on_seat_reserved,
    ev.SEAT_INVITATION_REISSUED: _on_seat_invitation_reissued,
    ev.SEAT_INVITATION_REVOKED: _on_seat_invitation_revoked,
}

PHASE_BY_NAME = {name: index for index, name in enumerate(PHASE_NAMES)}
__all__ = [
    "ABANDONED",
    "BOT",
    "FINISHED",
    "HUMAN",
    "LOBBY",
    "NO_SEAT",
    "PLAYING_STATUS",
    "STATUSES",
    "TableState",
    "invitation_digest",
    "invitation_matches",
    "seed_commitment",
]
