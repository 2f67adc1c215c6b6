"""Bot moves on a real Celery worker process, real Redis and the real PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

import redis
from django.conf import settings

from bots.turns import turn_seed
from eventstore.reading import read_stream
from games.live.announcer import flush_announcements
from games.services.table_commands import HandSeatToBot, TakeSeatBack, execute
from services.celery import bots_queue
from tests.integration.live.conftest import (
    Processes,
    assert_history_sound,
    create_table,
    human_move,
    new_user,
    table_row,
    wait_for_status,
    wait_until,
)

BOT_EVENTS = {"CardsLooked", "BidPlaced", "CardsPassed", "CardPlayed"}


def bot_moves(events: list[Any]) -> list[Any]:
    """The first event of every command a bot made."""
    return [
        event
        for event in events
        if event.metadata.get("actor", {}).get("kind") == "bot" and event.type in BOT_EVENTS
    ]


def waiting_for_north(table_id: str) -> Any:
    """The read model row if the game is over or waits for the human north, else None."""
    row = table_row(table_id)
    if row.status != "playing":
        return row
    if row.seat_to_act == 0 and row.seat_to_act_kind == "human":
        return row
    return None


def test_four_bots_play_a_whole_game_with_no_human(live_db: Any, processes: Processes) -> None:
    processes.worker()
    table_id = create_table(new_user())

    wait_for_status(table_id, "finished", 120, processes)

    events = assert_history_sound(table_id)
    types = [event.type for event in events]
    assert types.count("HandDealt") >= 1 and types[-1] == "DealSeedRevealed"
    assert table_row(table_id).winner in {"north_south", "east_west"}
    moves = bot_moves(events)
    assert len(moves) >= 52
    for event in moves:
        actor = event.metadata["actor"]
        assert actor["level"] == "easy"
        assert actor["strategy_version"].startswith("easy")
        # The seed is derived from the table and the version the move was computed for.
        seat = ("north", "east", "south", "west").index(event.data["seat"])
        assert str(actor["seed"]) == str(turn_seed(table_id, event.version - 1, seat))
        assert event.metadata["command_id"] == f"bot:{table_id}:{event.version - 1}:{seat}"


def test_one_human_and_three_bots_advance_after_each_human_move(
    live_db: Any, processes: Processes
) -> None:
    processes.worker()
    human = new_user()
    table_id = create_table(human, humans={"north": human})

    human_moves = 0
    while human_moves < 20:
        row = wait_until(lambda: waiting_for_north(table_id), 30, "the human's turn")
        if row.status != "playing":
            break
        result = human_move(table_id, human, 0)
        human_moves += 1
        assert result.version == row.version + len(result.events)
        # The bots answer on their own: past the human's event, or the human acts again.
        wait_until(
            lambda v=result.version: table_row(table_id).version > v or waiting_for_north(table_id),
            30,
            "the bots to answer the human",
        )
    # The short test game (target 100) can end after its first hand: 1 bid + 13 cards.
    finished = table_row(table_id).status == "finished"
    assert human_moves == 20 or (finished and human_moves >= 14), (human_moves, finished)

    events = assert_history_sound(table_id)
    humans = [e for e in events if e.metadata.get("actor", {}).get("kind") == "user"]
    assert all(e.data.get("seat") in (None, "north") for e in humans if "seat" in e.data)
    assert all(e.data["seat"] != "north" for e in bot_moves(events))


def test_hand_a_seat_to_a_bot_and_take_it_back(live_db: Any, processes: Processes) -> None:

    processes.worker()
    human = new_user()
    table_id = create_table(human, humans={"north": human})
    wait_until(lambda: waiting_for_north(table_id), 30, "the human's turn")

    handed = execute(HandSeatToBot(table_id, "north", level="easy"), human)
    # The bot now plays north too: the table runs past the handover on its own.
    wait_until(lambda: table_row(table_id).version > handed.version + 8, 30, "bots to play on")
    taken = execute(TakeSeatBack(table_id, "north"), human)
    row = wait_until(lambda: waiting_for_north(table_id), 30, "the human's turn again")
    time.sleep(0.5)
    assert table_row(table_id).version == row.version  # nobody moves for the human now
    events = read_stream(f"table-{table_id}", after_version=taken.version)
    assert all(e.data.get("seat") != "north" for e in bot_moves(events))


def test_a_killed_worker_is_replaced_and_the_game_finishes_without_lost_or_doubled_moves(
    live_db: Any, processes: Processes
) -> None:
    processes.scheduler()  # the watchdog re-sends what the dead worker took
    first = processes.worker(name="doomed")
    table_id = create_table(new_user())
    wait_until(lambda: table_row(table_id).version > 40, 60, "the game to get going")
    first.kill()  # SIGKILL to its process group: mid-task, no warm shutdown, no ack
    stalled_at = table_row(table_id).version
    time.sleep(1.0)
    assert table_row(table_id).version <= stalled_at + 1  # nobody else plays meanwhile
    processes.worker(name="replacement")

    wait_for_status(table_id, "finished", 120, processes)

    events = assert_history_sound(table_id)
    moves = bot_moves(events)
    # One move per command id: nothing doubled, and the versions are contiguous (nothing lost).
    command_ids = [event.metadata["command_id"] for event in moves]
    assert len(command_ids) == len(set(command_ids))


def test_a_human_whose_turn_timer_runs_out_is_played_by_a_normal_bot(
    live_db: Any, processes: Processes
) -> None:
    processes.worker()
    processes.scheduler()
    human = new_user()
    table_id = create_table(
        human, humans={"north": human}, turn_timer_seconds=5
    )  # the shortest allowed

    def north_timed_out_and_moved() -> bool:
        events = read_stream(f"table-{table_id}")
        types = [e.type for e in events]
        if "TurnTimedOut" not in types:
            return False
        after = events[types.index("TurnTimedOut") + 1 :]
        return any(e.data.get("seat") == "north" for e in bot_moves(after))

    wait_until(north_timed_out_and_moved, 30, "the timer to hand north to a bot")

    events = assert_history_sound(table_id)
    timed_out = next(e for e in events if e.type == "TurnTimedOut")
    assert timed_out.data["seat"] == "north"
    assert timed_out.metadata["actor"] == {"kind": "system", "name": "timer"}
    handed = events[timed_out.version]  # the next event, in the same command
    assert handed.type == "SeatHandedToBot"
    assert handed.data["level"] == "normal" and handed.data["reason"] == "timeout"
    first_north_move = next(
        e for e in bot_moves(events[timed_out.version :]) if e.data["seat"] == "north"
    )
    assert first_north_move.metadata["actor"]["level"] == "normal"
    # Nothing of north's was played by anyone before the timeout.
    assert all(e.data.get("seat") != "north" for e in bot_moves(events[: timed_out.version]))


def test_the_watchdog_resends_a_bot_turn_whose_message_was_lost(
    live_db: Any, processes: Processes
) -> None:

    table_id = create_table(new_user())  # its commit queues the first bot turn...

    flush_announcements()
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    assert broker.llen(bots_queue()) >= 1
    broker.delete(bots_queue())  # ...and the message is lost before any worker takes it
    started_at = table_row(table_id).version

    processes.worker()
    time.sleep(2.0)
    assert table_row(table_id).version == started_at  # nothing left to wake the bots
    processes.scheduler()

    wait_until(lambda: table_row(table_id).version > started_at + 4, 30, "the watchdog")
    assert_history_sound(table_id)
