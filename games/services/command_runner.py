"""Running one table command: load, decide, append, update the read model, retry lost races.

The runner knows no particular command: a use case (``games.services.table_commands``)
hands it a ``decide(state, seed)`` that turns the table's folded state into domain events.
The runner then

- loads the folded state (a committed cached state is trusted without a read; anything it
  gets wrong is re-checked on a fresh fold),
- appends the events with the version they were decided on and updates the
  :class:`games.models.Table` row, either in one statement (autocommit) or in a
  transaction (a caller's, or its own when the command writes more than events),
- answers a known ``command_id`` with the first result (``duplicate=True``),
- retries a lost race (no ``expected_version``) on the new state, the last try holding the
  stream's lock so it cannot lose again.

Refusals raise :class:`CommandRejected` and write nothing.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from django.db import connection, transaction

from eventstore.errors import WrongExpectedVersion
from eventstore.models import Event
from eventstore.recorder import append, lock_stream
from eventstore.records import AppendResult, NewEvent, StoredEvent
from games.domain import events as ev
from games.domain.errors import TableRefusal
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.engine.errors import IllegalMove
from games.models import TableSecret

from .actors import Actor, actor_metadata
from .errors import CommandRejected
from .read_model import running_turn_timer, update_row, update_statement
from .table_state import forget, fresh_state, parse_table_id, put_back, take_state

__all__ = ["RETRIES", "CommandResult", "Decide", "refusal", "run_command"]

# Commands without an expected version retry this often when another command got in first:
# the retry re-validates against the new state, so nothing stale is ever appended.
RETRIES = 3
SEAT_EVENTS = {
    ev.SEAT_TAKEN,
    ev.SEAT_LEFT,
    ev.SEAT_HANDED_TO_BOT,
    ev.SEAT_TAKEN_BACK,
    ev.TURN_TIMED_OUT,
    ev.SEAT_RESERVED,
    ev.SEAT_INVITATION_REVOKED,
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
NeedsSeed = Callable[[TableState], bool]
# Offers the state a command left (and its last event's hash) back to the state cache.
Keep = Callable[[uuid.UUID, TableState, str], None]


@dataclass(frozen=True)
class _Command:
    """One command as the runner's paths pass it on: everything but the expected version
    (a retry may drop it) and how the new state is kept (which depends on whose
    transaction it is)."""

    table_id: uuid.UUID
    actor: Actor
    decide: Decide
    command_id: str | None
    needs_seed: NeedsSeed | None
    after_append: Callable[[], None] | None


def refusal(error: IllegalMove) -> CommandRejected:
    """The domain's refusal as the services report it (its status, 400 for the engine's)."""
    status = error.status if isinstance(error, TableRefusal) else 400
    return CommandRejected(error.code, error.message, status)


def new_events(domain_events: Sequence[ev.DomainEvent], actor: Actor) -> list[NewEvent]:
    """The domain events as store events, the actor recorded in each one's metadata."""
    metadata = actor_metadata(actor)
    return [
        NewEvent(event.type, event.data, event.schema_version, {**metadata, **event.metadata})
        for event in domain_events
    ]


def command_result(table_id: uuid.UUID, result: AppendResult) -> CommandResult:
    """The store's answer as a command's result."""
    return CommandResult(table_id, result.events[-1].version, result.events, result.duplicate)


def check_command_id(command_id: object) -> str | None:
    """The command id as given (text of 1 to 200 characters), or None; 400 otherwise."""
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


def run_command(
    table_id: object,
    actor: Actor,
    decide: Decide,
    *,
    expected_version: object = None,
    command_id: object = None,
    needs_seed: NeedsSeed | None = None,
    after_append: Callable[[], None] | None = None,
) -> CommandResult:
    """Run ``decide`` on the table and append what it decided (see the module's text).

    ``after_append`` writes more rows in the same transaction as the events (so such a
    command never takes the one-statement path).
    """
    table_uuid = parse_table_id(table_id)
    expected = _check_expected(expected_version)
    cid = check_command_id(command_id)
    command = _Command(table_uuid, actor, decide, cid, needs_seed, after_append)
    if connection.in_atomic_block:
        return _once_in_callers_transaction(command, expected)
    return _with_retries(command, expected)


def _with_retries(command: _Command, expected: int | None) -> CommandResult:
    """No caller's transaction: optimistic tries, then one holding the stream."""
    table_id = command.table_id

    def in_transaction(expected_now: int | None, *, hold_stream: bool) -> CommandResult:
        with transaction.atomic():
            if hold_stream:
                lock_stream(table_stream_id(table_id))
                forget(table_id)
            return _append_in_transaction(command, expected_now, _keep_once_committed)

    for attempt in range(1, RETRIES + 1):
        try:
            if attempt == RETRIES and expected is None:
                # Optimistic tries lost to other writers (bots can move every few
                # milliseconds): the last try holds the stream, so it cannot lose again.
                return in_transaction(None, hold_stream=True)
            if command.after_append is None:
                return _append_in_one_statement(command, expected)
            return in_transaction(expected, hold_stream=False)
        except WrongExpectedVersion as conflict:
            # A stale expected version is the caller's to resolve; a lost race is retried
            # (the retry re-validates against the new state).
            final = attempt == RETRIES or (expected is not None and conflict.current != expected)
            answer = _answer_to_conflict(conflict, table_id, command.command_id, final)
            if answer is not None:
                return answer
    raise AssertionError("unreachable")  # pragma: no cover


def _once_in_callers_transaction(command: _Command, expected: int | None) -> CommandResult:
    """Inside a caller's transaction a failed attempt cannot be repeated (it rolled back to
    the savepoint, but the caller's snapshot of other tables may be stale): one try."""
    try:
        with transaction.atomic():
            return _append_in_transaction(command, expected, _keep_uncommitted)
    except WrongExpectedVersion as conflict:
        answer = _answer_to_conflict(conflict, command.table_id, command.command_id, final=True)
        assert answer is not None  # a final conflict answers or raises
        return answer


def _answer_to_conflict(
    conflict: WrongExpectedVersion, table_id: uuid.UUID, command_id: str | None, final: bool
) -> CommandResult | None:
    """What a lost append answers (includes StaleTransaction): the first result when the
    command id was already appended (a retried command may be why), the 409 refusal when
    no retry is left, else None (try again)."""
    duplicate = _duplicate_now(table_id, command_id)
    if duplicate is not None:
        return duplicate
    if final:
        raise _conflict(conflict) from None
    return None


def _decided(
    table_id: uuid.UUID, decide: Decide, expected: int | None, needs_seed: NeedsSeed | None
) -> tuple[TableState, str, int, list[ev.DomainEvent]]:
    """``(state after, head hash before, version before, events)``.

    Raises :class:`WrongExpectedVersion` for a stale ``expected`` and :class:`IllegalMove`
    for a refusal, both checked on a verified state.
    """
    # A committed cached state is used without reading the stream; anything it gets wrong
    # (the stream moved on) is caught here and re-checked on a fresh fold.
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
            return state, head_hash, base_version, decide(state, seed)
        except IllegalMove:
            # The state may be half-changed: it is dropped.
            if not verified:
                state, head_hash = fresh_state(table_id)
                verified = True
                continue
            raise


def commit_context(table_id: uuid.UUID, state: TableState) -> dict[str, Any]:
    """What the commit's receivers are told (``events_committed``'s context): the table,
    whether a bot is to act (the bots' dispatch) and the turn timer now running (the turn
    timers' due time, ``games.live.due``), so none of them reads the read model back."""
    return {
        "table_id": str(table_id),
        "bot_to_act": state.bot_to_act(),
        "turn_timer_seconds": running_turn_timer(state),
    }


def _append_in_one_statement(command: _Command, expected: int | None) -> CommandResult:
    """Autocommit: the append and the read model's UPDATE are one statement, one round trip
    that is the whole transaction (committed when ``append`` returns; a refused append
    changed nothing)."""
    table_id, command_id = command.table_id, command.command_id
    try:
        state, head_hash, base_version, domain_events = _decided(
            table_id, command.decide, expected, command.needs_seed
        )
    except IllegalMove as error:
        duplicate = _duplicate_now(table_id, command_id)
        if duplicate is not None:
            return duplicate
        raise refusal(error) from None
    seats_changed = any(event.type in SEAT_EVENTS for event in domain_events)
    result = append(
        table_stream_id(table_id),
        base_version,
        new_events(domain_events, command.actor),
        command_id=command_id,
        read_model=update_statement(table_id, state, seats_changed),
        expected_hash=head_hash,
        context=commit_context(table_id, state),
    )
    if not result.duplicate:
        put_back(table_id, state, result.events[-1].hash, committed=True)
    return command_result(table_id, result)


def _append_in_transaction(command: _Command, expected: int | None, keep: Keep) -> CommandResult:
    """Inside a transaction (the caller's or the runner's): append, ``after_append``, then
    the read model's UPDATE; ``keep`` offers the new state to the cache."""
    table_id, command_id = command.table_id, command.command_id
    try:
        state, head_hash, base_version, domain_events = _decided(
            table_id, command.decide, expected, command.needs_seed
        )
    except IllegalMove as error:
        duplicate = None if command_id is None else _duplicate(table_id, command_id)
        if duplicate is not None:
            return duplicate
        raise refusal(error) from None
    result = append(
        table_stream_id(table_id),
        base_version,
        new_events(domain_events, command.actor),
        command_id=command_id,
        expected_hash=head_hash,
        context=commit_context(table_id, state),
    )
    if result.duplicate:
        return command_result(table_id, result)
    if command.after_append is not None:
        command.after_append()
    seats_changed = any(event.type in SEAT_EVENTS for event in domain_events)
    update_row(table_id, state, result.events[-1].recorded_at, seats_changed)
    keep(table_id, state, result.events[-1].hash)
    return command_result(table_id, result)


def _keep_once_committed(table_id: uuid.UUID, state: TableState, last_hash: str) -> None:
    # The runner's own transaction: only committed history is trusted without a read.
    transaction.on_commit(lambda: put_back(table_id, state, last_hash, committed=True))


def _keep_uncommitted(table_id: uuid.UUID, state: TableState, last_hash: str) -> None:
    # A caller's transaction may still roll back: the entry is verified before use.
    put_back(table_id, state, last_hash, committed=False)


def _duplicate(table_id: uuid.UUID, command_id: str) -> CommandResult | None:
    stream_id = table_stream_id(table_id)
    if not Event.objects.filter(stream_id=stream_id, command_id=command_id).exists():
        return None
    # The store answers a known command id with the first result and appends nothing.
    result = append(stream_id, 0, [NewEvent("CommandReplayed", {})], command_id=command_id)
    return command_result(table_id, result)


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


# Deal secrets never change once committed (the table's secret row is insert-only), so a
# process keeps the ones it read outside a transaction (so committed): a hand's last card
# would otherwise query it.
_SEEDS_KEPT = 2000
_seeds: LRUCache[uuid.UUID, str] = LRUCache(maxsize=_SEEDS_KEPT)
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
    return row
