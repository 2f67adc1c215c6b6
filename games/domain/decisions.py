"""What each command decides: permission, validation by the engine, the events it yields.

Each ``decide_*`` function takes a :class:`TableState` the caller owns, applies the events
it decides (so every event is validated by the same fold that replays it later) and returns
them.  On a refusal it raises :class:`IllegalMove` (the rules, status 400) or
:class:`TableRefusal` (403/404/409); the state may then be partly changed and must be
thrown away.  Follow-up events (the next deal, the seed reveal) come from
:func:`follow_ups`, which needs the secret seed the service keeps outside the stream.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.bidding import parse_bid
from games.engine.cards import CardError, parse_card
from games.engine.errors import IllegalMove
from games.engine.hand import BIDDING, PHASE_NAMES
from games.engine.rules import Rules
from games.engine.seats import SEAT_NAMES, SeatError, parse_seat

from . import events as ev
from .errors import TableRefusal
from .table import BOT, HUMAN, LOBBY, TableState, invitation_matches, seed_commitment

USER = "user"
BOT_ACTOR = "bot"
SYSTEM = "system"


@dataclass(frozen=True, slots=True)
class ActorRef:
    """Who sends a command, as the domain needs it: a user id, a bot, or the system."""

    kind: str
    user_id: int | None = None
    is_staff: bool = False
    name: str | None = None


def parse_seat_arg(seat: object) -> int:
    """A seat given as ``"north"`` .. ``"west"`` or 0-3; a clear 400 otherwise."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3:
        return seat
    if isinstance(seat, str):
        try:
            return parse_seat(seat.strip().lower())
        except SeatError as error:
            raise IllegalMove("bad_seat", str(error)) from None
    raise IllegalMove("bad_seat", f"A seat is north, east, south or west, not {seat!r}.")


def parse_card_arg(card: object) -> int:
    """A card given as ``"AS"``/``"10D"`` or its integer; a clear 400 otherwise."""
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return card
    try:
        return parse_card(card)  # type: ignore[arg-type]
    except CardError as error:
        raise IllegalMove("bad_card", str(error)) from None


def _emit(state: TableState, out: list[ev.DomainEvent], event: ev.DomainEvent) -> None:
    state.apply(event.type, event.data)
    out.append(event)


def _acts_for(state: TableState, actor: ActorRef, seat: int) -> None:
    """Refuse unless ``actor`` may move for ``seat`` now."""
    name = SEAT_NAMES[seat]
    if actor.kind == BOT_ACTOR:
        if state.controller(seat) != BOT:
            raise TableRefusal(
                "not_a_bot_seat", f"{name.capitalize()} is not played by a bot.", 403
            )
        return
    if actor.kind != USER or actor.user_id is None or state.players[seat] != actor.user_id:
        raise TableRefusal("not_your_seat", f"You do not sit at {name}.", 403)
    if state.controller(seat) == BOT:
        raise TableRefusal(
            "seat_with_bot",
            f"A bot is playing {name} for you: take the seat back first.",
            409,
        )


# ---------------------------------------------------------------- lobby


SEAT_CONFIG_KEYS = {"kind", "level"}


def normalise_seats(seats: Mapping[Any, Any] | None) -> dict[str, dict[str, Any]]:
    """Seat configuration ``{seat: {"kind": "human"|"bot", "level": ...}}``; missing -> human."""
    if seats is None:
        seats = {}
    if not isinstance(seats, Mapping):
        raise IllegalMove("bad_seats", 'seats must be an object like {"east": {"kind": "bot"}}.')
    config: dict[str, dict[str, Any]] = {name: {"kind": HUMAN} for name in SEAT_NAMES}
    for key, value in seats.items():
        seat = SEAT_NAMES[parse_seat_arg(key)]
        if isinstance(value, str):
            value = {"kind": value}
        if not isinstance(value, Mapping) or not set(value) <= SEAT_CONFIG_KEYS:
            raise IllegalMove(
                "bad_seats",
                f'Seat {seat}: give {{"kind": "human"}} or '
                f'{{"kind": "bot", "level": "easy|normal|hard"}}.',
            )
        kind = value.get("kind", HUMAN)
        if kind not in ev.SEAT_KINDS:
            raise IllegalMove("bad_seats", f"Seat {seat}: kind must be human or bot, not {kind!r}.")
        if kind == BOT:
            level = value.get("level", "normal")
            if level not in ev.BOT_LEVELS:
                raise IllegalMove(
                    "bad_seats",
                    f"Seat {seat}: a bot's level is easy, normal or hard, not {level!r}.",
                )
            config[seat] = {"kind": BOT, "level": level}
        else:
            if value.get("level") is not None:
                raise IllegalMove("bad_seats", f"Seat {seat}: only bots have a level.")
            config[seat] = {"kind": HUMAN}
    return config


def decide_create(
    state: TableState,
    *,
    rules: Rules,
    preset_name: str | None,
    preset_version: int | None,
    seats: Mapping[Any, Any] | None,
    turn_timer_seconds: int | None,
    created_by: int | None,
    spectator_delay_tricks: object = 0,
    owner: Mapping[str, Any] | None = None,
    boards: tuple[int, str] | None = None,
) -> list[ev.DomainEvent]:
    """A new table with its rules snapshot, seat configuration, spectator delay and the
    opaque tag of its owner (kept, never interpreted); ``boards``: ``(count, commitment)``
    when it deals a duplicate round's boards rather than its own seed."""
    deals = None
    if boards is not None:
        count, commitment = boards
        if isinstance(count, bool) or not isinstance(count, int):
            raise IllegalMove("bad_boards", "A table deals a whole number of boards.")
        if not 1 <= count <= ev.MAX_TABLE_BOARDS:
            raise IllegalMove("bad_boards", f"A table deals 1 to {ev.MAX_TABLE_BOARDS} boards.")
        if rules.hands != count or rules.extra_hands:
            raise IllegalMove(
                "bad_boards", f"A table dealing {count} boards plays exactly {count} hands."
            )
        deals = {"source": "boards", "boards": count, "commitment": commitment}
    if turn_timer_seconds is not None and (
        isinstance(turn_timer_seconds, bool)
        or not isinstance(turn_timer_seconds, int)
        or not 5 <= turn_timer_seconds <= 86_400
    ):
        raise IllegalMove(
            "bad_turn_timer",
            "turn_timer_seconds must be a whole number of seconds from 5 to 86400, or null.",
        )
    if (
        isinstance(spectator_delay_tricks, bool)
        or not isinstance(spectator_delay_tricks, int)
        or not 0 <= spectator_delay_tricks <= ev.MAX_SPECTATOR_DELAY_TRICKS
    ):
        raise IllegalMove(
            "bad_spectator_delay",
            "spectator_delay_tricks must be a whole number of tricks from 0 to "
            f"{ev.MAX_SPECTATOR_DELAY_TRICKS} (0: spectators watch live).",
        )
    if owner is not None:
        try:
            ev.validate_owner(owner)
        except ev.EventSchemaError as error:
            raise IllegalMove("bad_owner", str(error)) from None
    out: list[ev.DomainEvent] = []
    _emit(
        state,
        out,
        ev.table_created(
            rules=rules.to_dict(),
            preset_name=preset_name,
            preset_version=preset_version,
            seats=normalise_seats(seats),
            turn_timer_seconds=turn_timer_seconds,
            created_by=created_by,
            spectator_delay_tricks=spectator_delay_tricks,
            owner=owner,
            deals=deals,
        ),
    )
    return out


def _user_only(actor: ActorRef) -> int:
    if actor.kind != USER or actor.user_id is None:
        raise TableRefusal("players_only", "Only a signed-in player can do that.", 403)
    return actor.user_id


def decide_take_seat(
    state: TableState, actor: ActorRef, seat: int, invitation: object = None
) -> list[ev.DomainEvent]:
    """A player sits down in the lobby; a seat kept for a friend needs its live invitation
    secret. The refusal is the same whether the secret is missing, wrong or revoked, and
    says no more than the lobby shows (that the seat is kept)."""
    user_id = _user_only(actor)
    if (
        state.status == LOBBY
        and state.reserved[seat]
        and state.players[seat] is None
        and not invitation_matches(state, seat, invitation)
    ):
        raise TableRefusal(
            "invitation_required",
            f"{SEAT_NAMES[seat].capitalize()} is kept for an invited friend: only the "
            "invite link the table's creator sent them seats them.",
            403,
        )
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_taken(seat, user_id))
    return out


def decide_reserve_seat(
    state: TableState, actor: ActorRef, seat: int, digest: str
) -> list[ev.DomainEvent]:
    """The creator keeps ``seat`` for a friend, with the digest of a fresh secret."""
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_reserved(seat, _user_only(actor), digest))
    return out


def decide_reissue_invitation(
    state: TableState, actor: ActorRef, seat: int, digest: str
) -> list[ev.DomainEvent]:
    """The creator replaces a kept seat's invitation: the old link stops seating."""
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_invitation_reissued(seat, _user_only(actor), digest))
    return out


def decide_revoke_invitation(state: TableState, actor: ActorRef, seat: int) -> list[ev.DomainEvent]:
    """The creator revokes a kept seat's invitation; the seat stays kept."""
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_invitation_revoked(seat, _user_only(actor)))
    return out


def decide_leave_seat(state: TableState, actor: ActorRef, seat: int) -> list[ev.DomainEvent]:
    """A player stands up before the game starts, except from a seat the platform assigned:
    at a table the system created (no ``created_by``: a competition's table) the players
    were seated for a match, and its game waits for exactly those four (the seat stays
    theirs, and a player who never comes is a no-show, docs/leagues.md)."""
    user_id = actor.user_id if actor.kind == USER else None
    if (
        state.created_by is None
        and state.status == LOBBY
        and user_id is not None
        and state.players[seat] == user_id
    ):
        raise TableRefusal(
            "seat_assigned",
            f"{SEAT_NAMES[seat].capitalize()} was assigned to you for this match: "
            "it cannot be left before the game starts.",
        )
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_left(seat, _user_only(actor)))
    return out


def decide_start(
    state: TableState, actor: ActorRef, *, first_dealer: int, seed: str
) -> list[ev.DomainEvent]:
    """Start the game: the commitment to ``seed`` and the first deal derived from it."""
    if state.status != LOBBY:
        raise TableRefusal("already_started", "The game has already started.")
    allowed = actor.kind == SYSTEM or actor.is_staff
    if actor.kind == USER and actor.user_id is not None:
        allowed = allowed or actor.user_id == state.created_by or actor.user_id in state.players
    if not allowed:
        raise TableRefusal(
            "not_allowed", "Only the table's creator or a seated player can start the game.", 403
        )
    if state.deals_from_boards:
        first_dealer = 0  # board 1 is North's deal (leagues.core.duplicate.boards)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.game_started(first_dealer))
    _emit(state, out, ev.deal_committed(seed_commitment(seed), boards=state.deals_from_boards))
    out.extend(follow_ups(state, seed))
    return out


def decide_abandon(state: TableState, actor: ActorRef) -> list[ev.DomainEvent]:
    """Give the table up before its game ends: its creator may while no other person sits
    at it; the system (the scheduler, for an idle all-bot table) may."""
    if actor.kind == SYSTEM:
        reason, user_id = "idle", None
    elif actor.kind == USER and actor.user_id is not None and actor.user_id == state.created_by:
        if any(player not in (None, actor.user_id) for player in state.players):
            raise TableRefusal(
                "players_seated", "Other players sit at this table: it cannot be abandoned.", 409
            )
        reason, user_id = "creator", actor.user_id
    else:
        raise TableRefusal("not_allowed", "Only the table's creator can abandon it.", 403)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.table_abandoned(reason, user_id))
    return out


# ---------------------------------------------------------------- play


def decide_look(state: TableState, actor: ActorRef, seat: int) -> list[ev.DomainEvent]:
    """A blind-nil candidate looks at its cards (giving up blind nil)."""
    _acts_for(state, actor, seat)
    hand = state.hand
    if hand is not None and hand.phase == BIDDING and hand.looked[seat]:
        raise TableRefusal("already_looked", "You have already looked at your cards.")
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.cards_looked(max(state.hand_number, 1), seat))
    return out


def decide_bid(state: TableState, actor: ActorRef, seat: int, bid: object) -> list[ev.DomainEvent]:
    """A bid (0-13, ``"nil"``, ``"blind_nil"``), validated by the engine."""
    tricks, blind = parse_bid(bid)
    _acts_for(state, actor, seat)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.bid_placed(max(state.hand_number, 1), seat, tricks, blind))
    return out


def decide_pass(
    state: TableState, actor: ActorRef, seat: int, cards: Sequence[object]
) -> list[ev.DomainEvent]:
    """Two cards to partner after a blind nil bid."""
    if not isinstance(cards, Sequence) or isinstance(cards, str | bytes):
        raise IllegalMove("pass_two_cards", "Pass exactly two different cards to your partner.")
    parsed = [parse_card_arg(card) for card in cards]
    if len(parsed) != 2 or parsed[0] == parsed[1]:
        raise IllegalMove("pass_two_cards", "Pass exactly two different cards to your partner.")
    _acts_for(state, actor, seat)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.cards_passed(max(state.hand_number, 1), seat, parsed))
    return out


def decide_play(
    state: TableState, actor: ActorRef, seat: int, card: object, seed: str | None = None
) -> list[ev.DomainEvent]:
    """A card; when it ends the hand, the next deal (or the seed reveal) follows with it.

    ``seed`` is needed only when the card ends the hand; :func:`play_needs_seed` tells.
    """
    parsed = parse_card_arg(card)
    _acts_for(state, actor, seat)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.card_played(max(state.hand_number, 1), seat, parsed))
    if state.needs_deal or state.needs_reveal:
        if seed is None:
            raise RuntimeError("decide_play needs the deal seed when a hand ends")
        out.extend(follow_ups(state, seed))
    return out


def play_needs_seed(state: TableState) -> bool:
    """Whether the next card ends the hand (so the service must load the seed)."""
    hand = state.hand
    return hand is not None and len(hand.plays) == 51


def follow_ups(state: TableState, seed: str) -> list[ev.DomainEvent]:
    """Events the table appends by itself: the next deal, or the reveal at the game's end."""
    out: list[ev.DomainEvent] = []
    if state.needs_deal:
        assert state.game is not None
        number = state.hand_number + 1
        deck = state.deck_for(seed, number)
        _emit(state, out, ev.hand_dealt(number, state.game.next_dealer, deck))
    elif state.needs_reveal:
        if state.deals_from_boards:
            # Other tables may still be playing these boards: the owner reveals the seed.
            _emit(state, out, ev.deal_reveal_held(state.hand_number))
        else:
            _emit(state, out, ev.deal_seed_revealed(seed))
    return out


def decide_reveal_deals(state: TableState, actor: ActorRef, seed: str) -> list[ev.DomainEvent]:
    """Reveal a boards table's held-back seed (its owner's command, once no other table
    can still be playing its boards)."""
    if actor.kind != SYSTEM:
        raise TableRefusal("system_only", "Only the table's owner reveals its boards.", 403)
    if not state.deals_from_boards:
        raise TableRefusal("not_boards", "This table's seed is revealed when its game ends.", 409)
    if state.revealed_seed is not None:
        raise TableRefusal("already_revealed", "The boards are revealed already.", 409)
    if not state.reveal_held:
        raise TableRefusal("not_finished", "The table's game is not over yet.", 409)
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.deal_seed_revealed(seed))
    return out


# ---------------------------------------------------------------- seats during play


def decide_timeout(
    state: TableState, actor: ActorRef, seat: int, level: str = "normal"
) -> list[ev.DomainEvent]:
    """The turn timer ran out on ``seat``: record it and let a bot play the seat."""
    if actor.kind != SYSTEM:
        raise TableRefusal("system_only", "Only the table's timer records a timeout.", 403)
    hand = state.hand
    phase = PHASE_NAMES[hand.phase] if hand is not None else "bidding"
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.turn_timed_out(max(state.hand_number, 1), seat, phase))
    if state.controller(seat) == HUMAN:
        _emit(state, out, ev.seat_handed_to_bot(seat, level, "timeout"))
    return out


def decide_hand_to_bot(
    state: TableState, actor: ActorRef, seat: int, level: str = "normal"
) -> list[ev.DomainEvent]:
    """A player lets a bot play their seat; or the system (a competition's director) has
    a bot play the seat of a player who is absent (reason ``absent``), so the event says
    who decided instead of naming the absent player."""
    if level not in ev.BOT_LEVELS:
        raise IllegalMove("bad_level", f"A bot's level is easy, normal or hard, not {level!r}.")
    if actor.kind == SYSTEM:
        name = SEAT_NAMES[seat]
        if state.players[seat] is None or state.controller(seat) == BOT:
            raise TableRefusal(
                "not_a_human_seat",
                f"{name.capitalize()} has no player for a bot to stand in for.",
                409,
            )
        reason = "absent"
    else:
        _acts_for(state, actor, seat)
        reason = "player"
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_handed_to_bot(seat, level, reason))
    return out


def decide_take_back(state: TableState, actor: ActorRef, seat: int) -> list[ev.DomainEvent]:
    """A player plays their seat again after a bot stood in."""
    out: list[ev.DomainEvent] = []
    _emit(state, out, ev.seat_taken_back(seat, _user_only(actor)))
    return out
