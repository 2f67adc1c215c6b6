"""Many threads sending conflicting commands to one table: one wins per version."""

from __future__ import annotations

import random
import threading
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections

from eventstore.reading import read_stream
from games.models import Table
from games.services import command_runner, table_state
from games.services.errors import CommandRejected
from games.services.table_commands import CommandResult, PlaceBid, TakeSeat, create_table, execute
from games.services.table_state import forget, reading_state
from tests.factories import TableFactory, UserFactory
from tests.integration.tables.helpers import actor_for, send
from tests.unit.domain.playing import random_move

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("north", "east", "south", "west")
THREADS = 6


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at once, each on its own thread and connection; results or errors."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def body(index: int) -> None:
        try:
            barrier.wait()
            outcomes[index] = calls[index]()
        except Exception as error:  # noqa: BLE001 - the outcome is what is checked
            outcomes[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


def started_table(users: dict[int, Any]) -> Table:
    return TableFactory(
        creator=users[0],
        rules={"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0},
        players={NAMES[s]: users[s] for s in range(4)},
        started=True,
        first_dealer="north",
    )


def test_one_command_wins_each_version_and_nothing_is_lost(users):
    table = started_table(users)
    rng = random.Random(8)
    for _ in range(25):
        forget()  # each thread folds for itself, as separate processes would
        with reading_state(table.id) as state:
            version = state.version
            move = random_move(state, rng)
            actor = actor_for(state, move.seat, users)
        calls = [
            partial(
                send, table.id, move, actor, expected_version=version, command_id=f"{version}-{i}"
            )
            for i in range(THREADS)
        ]
        outcomes = race(calls)
        wins = [o for o in outcomes if isinstance(o, CommandResult)]
        losses = [o for o in outcomes if isinstance(o, CommandRejected)]
        assert len(wins) == 1, outcomes
        assert len(losses) == THREADS - 1
        assert all(o.status == 409 and o.current_version == wins[0].version for o in losses)
    events = read_stream(f"table-{table.id}")
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert Table.objects.get(id=table.id).version == len(events)


def test_without_expected_version_the_losers_are_revalidated(users):
    table = started_table(users)
    before = len(read_stream(f"table-{table.id}"))
    calls = [(lambda: execute(PlaceBid(table.id, "east", 3), users[1])) for _ in range(THREADS)]
    outcomes = race(calls)
    wins = [o for o in outcomes if isinstance(o, CommandResult)]
    assert len(wins) == 1, outcomes
    for outcome in outcomes:
        if isinstance(outcome, CommandRejected):
            # Re-validated against the new state: it is no longer east's turn.
            assert (outcome.status, outcome.code) in {
                (400, "not_your_turn"),
                (409, "version_conflict"),
            }
    assert len(read_stream(f"table-{table.id}")) == before + 1


def test_the_same_command_id_from_many_threads_appends_once(users):
    table = started_table(users)
    before = len(read_stream(f"table-{table.id}"))
    calls = [
        (lambda: execute(PlaceBid(table.id, "east", 3), users[1], command_id="same"))
        for _ in range(THREADS)
    ]
    outcomes = race(calls)
    results = [o for o in outcomes if isinstance(o, CommandResult)]
    # Every sender gets the one result (late ones as duplicates); at most version races
    # may surface as 409s, never as a second append.
    assert sum(1 for r in results if not r.duplicate) == 1
    assert {r.version for r in results} == {before + 1}
    assert len(read_stream(f"table-{table.id}")) == before + 1


def test_a_stale_cached_state_never_decides_wrongly(users):
    """Another process appended: this process's trusted cache entry is behind the stream."""
    table = started_table(users)
    key = str(table.id)

    def snapshot() -> tuple[Any, str]:
        return table_state.fresh_state(table.id)

    stale = snapshot()  # east to bid
    execute(PlaceBid(table.id, "east", 2), users[1])
    table_state._cache[key] = (stale[0], stale[1], True)
    # Legal now, refused by the stale state: re-checked on a fresh fold, it goes through.
    execute(PlaceBid(table.id, "south", 2), users[2])
    stale = snapshot()  # west to bid
    execute(PlaceBid(table.id, "west", 2), users[3])
    # Legal on the stale state, but the stream moved on: the append fails and the retry
    # on a fresh fold gives the true answer.
    table_state._cache[key] = (stale[0], stale[1], True)
    before = len(read_stream(f"table-{table.id}"))
    with pytest.raises(CommandRejected) as refused:
        execute(PlaceBid(table.id, "west", 2), users[3])
    assert (refused.value.status, refused.value.code) == (400, "not_your_turn")
    assert len(read_stream(f"table-{table.id}")) == before
    # A client's expected version ahead of the stale cache: caught up, not refused.
    table_state._cache[key] = (stale[0], stale[1], True)
    result = execute(PlaceBid(table.id, "north", 2), users[0], expected_version=before)
    assert result.version == before + 1
    assert Table.objects.get(id=table.id).version == before + 1


def test_a_command_that_keeps_losing_races_holds_the_stream_on_its_last_try(
    users: dict[int, Any], monkeypatch: Any
) -> None:

    table_id = create_table(actor=users[0], rules="standard").table_id
    rivals = iter([(UserFactory(), "east"), (UserFactory(), "south"), (UserFactory(), "west")])
    real_append = command_runner.append
    tries: list[bool] = []
    mine = threading.get_ident()

    def append_after_a_rival(*args: Any, **kwargs: Any) -> Any:
        # Before each optimistic try (autocommit), another player sits down and commits
        # first, so the try finds the stream moved; the last try runs in a transaction.
        if threading.get_ident() != mine:  # the rival's own command
            return real_append(*args, **kwargs)
        tries.append(connection.in_atomic_block)
        if not connection.in_atomic_block:
            user, seat = next(rivals)
            race([partial(execute, TakeSeat(table_id, seat), user)])
        return real_append(*args, **kwargs)

    monkeypatch.setattr(command_runner, "append", append_after_a_rival)
    taken = execute(TakeSeat(table_id, "north"), users[1])

    assert tries == [False] * (command_runner.RETRIES - 1) + [True]
    forget(table_id)
    with reading_state(table_id) as state:
        assert state.players[0] == users[1].pk
        assert state.version == taken.version
    types = [event.type for event in read_stream(f"table-{table_id}")]
    assert types.count("SeatTaken") == command_runner.RETRIES
