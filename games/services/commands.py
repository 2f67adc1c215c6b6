"""Table commands: one function per command, each one transaction.

Every command loads the table's folded state, checks the actor may act, lets the engine
validate the move (through the same fold that replays the stream later), appends the
resulting events with the expected version, and updates the :class:`games.models.Table`
read model in the same transaction.  Refusals raise :class:`CommandRejected` and write
nothing.  A ``command_id`` makes a command idempotent: sent again, it returns the first
result with ``duplicate=True``.

Hands are dealt by the table itself: the card that ends a hand is appended together with
the next ``HandDealt`` (or, when the game is over, ``DealSeedRevealed``).  Deals derive
from a secret seed committed to (``DealCommitted``) before the first deal.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction

from eventstore.errors import WrongExpectedVersion
from eventstore.models import Event
from eventstore.recorder import append, lock_stream
from eventstore.records import AppendResult, NewEvent, StoredEvent
from games.domain import decisions
from games.domain import events as ev
from games.domain.decisions import parse_seat_arg
from games.domain.errors import TableRefusal
from games.domain.streams import table_stream_id
from games.domain.table import TableState, seed_commitment
from games.engine.errors import IllegalMove
from games.engine.rules import RulesError
from games.models import TableSecret
from scoring.services.presets import resolve

from .actors import Actor, actor_metadata, actor_ref
from .errors import CommandRejected
from .read_model import create_row, update_row, update_statement
from .table_state import forget, fresh_state, parse_table_id, put_back, take_state

__all__ = [
    "CommandRejected",
    "CommandResult",
    "create_table",
    "hand_seat_to_bot",
    "leave_seat",
    "look_at_cards",
    "pass_cards",
    "place_bid",
    "play_card",
    "start_game",
    "take_seat",
    "take_seat_back",
    "turn_timed_out",
]

# Commands without an expected version retry this often when another command got in first:
# the retry re-validates against the new state, so nothing stale is ever appended.
RETRIES = 3
CREATE_NAMESPACE = uuid.UUID("5f1b3a4e-7c2d-4e8a-9b61-2d3c4e5f6a7b")
SEAT_EVENTS = {
    ev.SEAT_TAKEN,
    ev.SEAT_LEFT,
    ev.SEAT_HANDED_TO_BOT,
    ev.SEAT_TAKEN_BACK,
    ev.TURN_TIMED_OUT,
}


@dataclass(frozen=True)
class CommandResult:
    """What a command appended: the table, its version after the command, the events.

    ``events`` are the raw stored events (deck orders included): never send them to a
    client; render ``games.selectors.visibility`` for the viewer instead.
    """

    table_id: uuid.UUID
    version: int
    events: list[StoredEvent]
    duplicate: bool


# decide(state, seed): seed is the table's secret when ``needs_seed(state)`` said so.
Decide = Callable[[TableState, str | None], list[ev.DomainEvent]]


def _refusal(error: IllegalMove) -> CommandRejected:
    status = error.status if isinstance(error, TableRefusal) else 400
    return CommandRejected(error.code, error.message, status)


def _new_events(domain_events: Sequence[ev.DomainEvent], actor: Actor) -> list[NewEvent]:
    metadata = actor_metadata(actor)
    return [
        NewEvent(event.type, event.data, event.schema_version, {**metadata, **event.metadata})
        for event in domain_events
    ]


def _duplicate(table_id: uuid.UUID, command_id: str) -> CommandResult | None:
    stream_id = table_stream_id(table_id)
    if not Event.objects.filter(stream_id=stream_id, command_id=command_id).exists():
        return None
    # The store answers a known command id with the first result and appends nothing.
    result = append(stream_id, 0, [NewEvent("CommandReplayed", {})], command_id=command_id)
    return _result(table_id, result)


def _result(table_id: uuid.UUID, result: AppendResult) -> CommandResult:
    return CommandResult(table_id, result.events[-1].version, result.events, result.duplicate)


def _check_command_id(command_id: object) -> str | None:
    if command_id is None:
        return None
    if not isinstance(command_id, str) or not 1 <= len(command_id) <= 200 or "\x00" in command_id:
        raise CommandRejected("bad_command_id", "command_id must be text of 1 to 200 characters.")
    return command_id


def _check_expected(expected_version: object) -> int | None:
    if expected_version is None:
        return None
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise CommandRejected(
            "bad_expected_version", "expected_version must be a whole number, or left out."
        )
    return expected_version


def _run(
    table_id: object,
    actor: Actor,
    decide: Decide,
    *,
    expected_version: object = None,
    command_id: object = None,
    needs_seed: Callable[[TableState], bool] | None = None,
    after_append: Callable[[], None] | None = None,
) -> CommandResult:
    """Load, decide, append, update the read model; retry lost races when allowed."""
    table_uuid = parse_table_id(table_id)
    expected = _check_expected(expected_version)
    cid = _check_command_id(command_id)
    outermost = not connection.in_atomic_block
    # Inside a caller's transaction a failed attempt cannot be repeated (it rolled back to
    # the savepoint, but the caller's snapshot of other tables may be stale): no retry.
    attempts = RETRIES if outermost else 1
    # Without a caller's transaction and other writes, the append and the read model's
    # UPDATE are one statement in autocommit: one round trip that is the whole transaction.
    single_statement = outermost and after_append is None
    for attempt in range(1, attempts + 1):
        try:
            if attempts > 1 and attempt == attempts and expected is None:
                # Optimistic tries lost to other writers (bots can move every few
                # milliseconds): the last try holds the stream, so it cannot lose again.
                with transaction.atomic():
                    lock_stream(table_stream_id(table_uuid))
                    forget(table_uuid)
                    return _attempt(
                        table_uuid, actor, decide, None, cid, needs_seed, after_append, True
                    )
            if single_statement:
                return _attempt(
                    table_uuid, actor, decide, expected, cid, needs_seed, None, True, True
                )
            with transaction.atomic():
                return _attempt(
                    table_uuid, actor, decide, expected, cid, needs_seed, after_append, outermost
                )
        except WrongExpectedVersion as conflict:
            # Includes StaleTransaction. A retried command id may be why: answer with it.
            duplicate = _duplicate_now(table_uuid, cid)
            if duplicate is not None:
                return duplicate
            # A stale expected version is the caller's to resolve; a lost race is retried
            # (the retry re-validates against the new state).
            if attempt == attempts or (expected is not None and conflict.current != expected):
                raise _conflict(conflict) from None
    raise AssertionError("unreachable")  # pragma: no cover


def _duplicate_now(table_id: uuid.UUID, command_id: str | None) -> CommandResult | None:
    if command_id is None:
        return None
    with transaction.atomic():
        return _duplicate(table_id, command_id)


def _conflict(conflict: WrongExpectedVersion) -> CommandRejected:
    return CommandRejected(
        "version_conflict",
        f"The table has moved on to version {conflict.current}; "
        f"your command was for version {conflict.expected}. Reload and try again.",
        409,
        current_version=conflict.current,
    )


def _attempt(
    table_id: uuid.UUID,
    actor: Actor,
    decide: Decide,
    expected: int | None,
    command_id: str | None,
    needs_seed: Callable[[TableState], bool] | None,
    after_append: Callable[[], None] | None,
    outermost: bool,
    single_statement: bool = False,
) -> CommandResult:
    # A committed cached state is used without reading the stream; anything it gets wrong
    # (the stream moved on) is caught below and re-checked on a fresh fold.
    state, head_hash, verified = take_state(table_id, trust_committed=True)
    while True:
        if expected is not None and expected != state.version:
            if not verified:
                state, head_hash = fresh_state(table_id)
                verified = True
                continue
            put_back(table_id, state, head_hash, committed=False)
            raise WrongExpectedVersion(table_stream_id(table_id), expected, state.version)
        base_version = state.version
        seed = _seed(table_id) if needs_seed is not None and needs_seed(state) else None
        try:
            domain_events = decide(state, seed)
            break
        except IllegalMove as error:
            # The state may be half-changed: it is dropped.
            if not verified:
                state, head_hash = fresh_state(table_id)
                verified = True
                continue
            duplicate = (
                _duplicate_now(table_id, command_id)
                if single_statement
                else _duplicate(table_id, command_id)
                if command_id is not None
                else None
            )
            if duplicate is not None:
                return duplicate
            raise _refusal(error) from None
    seats_changed = any(event.type in SEAT_EVENTS for event in domain_events)
    if single_statement:
        # Committed when append returns (autocommit); a refused append changed nothing.
        result = append(
            table_stream_id(table_id),
            base_version,
            _new_events(domain_events, actor),
            command_id=command_id,
            read_model=update_statement(table_id, state, seats_changed),
            expected_hash=head_hash,
            context={"table_id": str(table_id), "bot_to_act": state.bot_to_act()},
        )
        if not result.duplicate:
            put_back(table_id, state, result.events[-1].hash, committed=True)
        return _result(table_id, result)
    result = append(
        table_stream_id(table_id),
        base_version,
        _new_events(domain_events, actor),
        command_id=command_id,
        expected_hash=head_hash,
        context={"table_id": str(table_id), "bot_to_act": state.bot_to_act()},
    )
    if result.duplicate:
        return _result(table_id, result)
    if after_append is not None:
        after_append()
    update_row(table_id, state, result.events[-1].recorded_at, seats_changed)
    last_hash = result.events[-1].hash
    if outermost:
        # Only committed history is trusted without a read.
        transaction.on_commit(lambda: put_back(table_id, state, last_hash, committed=True))
    else:
        put_back(table_id, state, last_hash, committed=False)
    return _result(table_id, result)


# Deal secrets never change once committed (the table's secret row is insert-only), so a
# process keeps the ones it read outside a transaction (so committed): a hand's last card
# would otherwise query it.
_SEEDS_KEPT = 2000
_seeds: OrderedDict[uuid.UUID, str] = OrderedDict()
_seeds_lock = threading.Lock()


def _seed(table_id: uuid.UUID) -> str:
    with _seeds_lock:
        kept = _seeds.get(table_id)
    if kept is not None:
        return kept
    row = TableSecret.objects.filter(table_id=table_id).values_list("seed", flat=True).first()
    if row is None:  # pragma: no cover - a started game always has its secret
        raise CommandRejected("no_deal_secret", "This table's deal secret is missing.", 500)
    if not connection.in_atomic_block:
        with _seeds_lock:
            _seeds[table_id] = row
            while len(_seeds) > _SEEDS_KEPT:
                _seeds.popitem(last=False)
    return row


# ---------------------------------------------------------------- lobby


def create_table(
    *,
    actor: Actor,
    rules: str | dict[str, Any] | None = None,
    preset: str | None = None,
    seats: dict[Any, Any] | None = None,
    turn_timer_seconds: int | None = None,
    command_id: str | None = None,
    preset_version: int | None = None,
) -> CommandResult:
    """A new table in the lobby. ``rules``: a preset name or ``{"preset": NAME, **overrides}``
    (``preset`` is the same as ``rules=NAME``); the preset version and the full rules
    snapshot are pinned in ``TableCreated``.  ``seats``: ``{seat: {"kind": "human"|"bot",
    "level": "easy"|"normal"|"hard"}}``, missing seats are human.
    """
    who = actor_ref(actor)
    if who.kind == "anonymous":
        raise CommandRejected("players_only", "Sign in to create a table.", 403)
    cid = _check_command_id(command_id)
    if rules is not None and preset is not None:
        raise CommandRejected("rules_and_preset", "Give either rules or preset, not both.")
    spec = rules if rules is not None else preset
    try:
        resolved = resolve(spec, preset_version)
    except RulesError as error:
        raise CommandRejected("bad_rules", str(error)) from None
    # With a command id the table's id derives from it, so a retry lands on the same stream
    # and the store's per-stream idempotency answers it.
    table_id = uuid.uuid4() if cid is None else uuid.uuid5(CREATE_NAMESPACE, f"{who.user_id}:{cid}")
    state = TableState()
    try:
        domain_events = decisions.decide_create(
            state,
            rules=resolved.rules,
            preset_name=resolved.preset_name,
            preset_version=resolved.preset_version,
            seats=seats,
            turn_timer_seconds=turn_timer_seconds,
            created_by=who.user_id,
        )
    except IllegalMove as error:
        raise _refusal(error) from None
    with transaction.atomic():
        try:
            result = append(
                table_stream_id(table_id), 0, _new_events(domain_events, actor), command_id=cid
            )
        except WrongExpectedVersion:  # pragma: no cover - only a uuid5 collision gets here
            raise CommandRejected("table_exists", "That table exists already.", 409) from None
        if result.duplicate:
            return _result(table_id, result)
        create_row(table_id, state, result.events[-1].recorded_at)
        put_back(table_id, state, result.events[-1].hash, committed=False)
    return _result(table_id, result)


def take_seat(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """The actor (a signed-in user) sits at ``seat`` before the game starts."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_take_seat(state, who, seat_index),
        expected_version=expected_version,
        command_id=command_id,
    )


def leave_seat(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """The actor stands up from ``seat`` before the game starts."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_leave_seat(state, who, seat_index),
        expected_version=expected_version,
        command_id=command_id,
    )


def start_game(
    table_id: object,
    *,
    actor: Actor,
    expected_version: int | None = None,
    command_id: str | None = None,
    first_dealer: object = None,
) -> CommandResult:
    """Start play: commits to a fresh secret seed and deals hand 1 from it.

    The creator, a seated player, staff or the system may start; every human seat must be
    taken.  ``first_dealer`` defaults to a random seat.
    """
    dealer = secrets.randbelow(4) if first_dealer is None else _seat(first_dealer)
    who = actor_ref(actor)
    table_uuid = parse_table_id(table_id)
    seed = secrets.token_hex(32)

    def decide(state: TableState, _: str | None) -> list[ev.DomainEvent]:
        return decisions.decide_start(state, who, first_dealer=dealer, seed=seed)

    def keep_secret() -> None:
        # Written with the events, in the same transaction, and never updated.
        TableSecret.objects.create(table_id=table_uuid, seed=seed, commitment=seed_commitment(seed))

    return _run(
        table_uuid,
        actor,
        decide,
        expected_version=expected_version,
        command_id=command_id,
        after_append=keep_secret,
    )


# ---------------------------------------------------------------- play


def look_at_cards(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """A seat that may bid blind nil looks at its cards (and so gives blind nil up)."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_look(state, who, seat_index),
        expected_version=expected_version,
        command_id=command_id,
    )


def place_bid(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    bid: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """A bid for ``seat``: 0-13, ``"nil"`` or ``"blind_nil"`` (before looking)."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_bid(state, who, seat_index, bid),
        expected_version=expected_version,
        command_id=command_id,
    )


def pass_cards(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    cards: Sequence[object],
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """Two cards from ``seat`` to its partner after a blind nil bid."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_pass(state, who, seat_index, cards),
        expected_version=expected_version,
        command_id=command_id,
    )


def play_card(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    card: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """A card for ``seat``; the hand's last card also appends the next deal or the reveal."""
    seat_index = _seat(seat)
    who = actor_ref(actor)

    def decide(state: TableState, seed: str | None) -> list[ev.DomainEvent]:
        return decisions.decide_play(state, who, seat_index, card, seed)

    return _run(
        table_id,
        actor,
        decide,
        expected_version=expected_version,
        command_id=command_id,
        needs_seed=decisions.play_needs_seed,
    )


# ---------------------------------------------------------------- seats during play


def turn_timed_out(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    expected_version: int | None = None,
    command_id: str | None = None,
    level: str = "normal",
) -> CommandResult:
    """The turn timer ran out on ``seat`` (``actor`` is ``SystemActor("timer")``): the
    timeout is recorded and a bot of ``level`` plays the seat until its player takes it
    back.  Pass the ``expected_version`` the deadline was computed for, so a move that
    arrived meanwhile wins."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_timeout(state, who, seat_index, level),
        expected_version=expected_version,
        command_id=command_id,
    )


def hand_seat_to_bot(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    level: str = "normal",
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """The seat's player lets a bot of ``level`` play for them."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_hand_to_bot(state, who, seat_index, level),
        expected_version=expected_version,
        command_id=command_id,
    )


def take_seat_back(
    table_id: object,
    *,
    actor: Actor,
    seat: object,
    expected_version: int | None = None,
    command_id: str | None = None,
) -> CommandResult:
    """The seat's player plays it again after a bot stood in."""
    seat_index = _seat(seat)
    who = actor_ref(actor)
    return _run(
        table_id,
        actor,
        lambda state, _secret: decisions.decide_take_back(state, who, seat_index),
        expected_version=expected_version,
        command_id=command_id,
    )


def _seat(seat: object) -> int:
    try:
        return parse_seat_arg(seat)
    except IllegalMove as error:
        raise _refusal(error) from None
