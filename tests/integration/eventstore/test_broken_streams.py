"""A projection that cannot apply one stream's events sets that stream aside, says why,
and goes on with every other stream (the score ledger of one table must never stall the
ledgers of all tables)."""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import pytest
from django.db import connection, transaction

from eventstore import subscriptions
from eventstore.models import BrokenStream
from eventstore.recorder import append
from eventstore.records import NewEvent
from eventstore.subscriptions import broken_streams, catch_up, rebuild
from scoring.models import LedgerHand
from scoring.projections import score_ledger
from tests.unit.domain.playing import play_random_game

pytestmark = pytest.mark.django_db(transaction=True)

RULES = {"preset": "standard", "target_score": 150, "lose_score": -150}


def a_game(index: int) -> tuple[int, list[NewEvent]]:
    """A whole game's events and how many hands it scored."""
    state, events = play_random_game(random.Random(index), rules=RULES, seed=f"{index:064x}")
    assert state.game is not None
    return len(state.game.ledger.hands), [
        NewEvent(e.type, e.data, e.schema_version) for e in events
    ]


def append_interleaved(streams: dict[str, list[NewEvent]]) -> None:
    """Append the streams' events in small interleaved chunks, so one batch of the
    projection holds events of every stream."""
    cursors = dict.fromkeys(streams, 0)
    while any(cursors[s] < len(events) for s, events in streams.items()):
        for stream_id, events in streams.items():
            start = cursors[stream_id]
            if start < len(events):
                with transaction.atomic():
                    append(stream_id, start, events[start : start + 7])
                cursors[stream_id] = min(start + 7, len(events))


def a_first_hand_row(table_id: uuid.UUID) -> None:
    """A ledger row already there for the table's first hand: the projection's insert then
    violates the (table, hand) unique constraint, a database error mid-batch."""
    LedgerHand.objects.create(
        table_id=table_id,
        hand_number=1,
        bids={},
        tricks={},
        teams={},
        total_north_south=0,
        total_east_west=0,
        bags_north_south=0,
        bags_east_west=0,
        event_version=1,
    )


def ledger_rows(table_id: uuid.UUID) -> int:
    return LedgerHand.objects.filter(table_id=table_id).count()


def caught_up(done: Any, timeout: float = 120) -> None:
    """Catch up until ``done()`` (other test processes' transactions may hold the safe
    reading point back for a moment)."""
    deadline = time.monotonic() + timeout
    while not done():
        if catch_up(score_ledger) == 0:
            assert time.monotonic() < deadline, "the projection never caught up"
            time.sleep(0.05)


def test_one_table_the_ledger_cannot_write_is_set_aside_and_the_others_go_on() -> None:
    hands, events = a_game(7)
    healthy, conflicting = uuid.uuid4(), uuid.uuid4()
    # A table stream whose id names no table: every event folds, the row cannot be built.
    nameless = f"table-not-a-table-{uuid.uuid4().hex[:8]}"
    a_first_hand_row(conflicting)
    append_interleaved(
        {
            f"table-{conflicting}": events,
            nameless: events,
            f"table-{healthy}": events,
        }
    )

    caught_up(lambda: ledger_rows(healthy) == hands)

    broken = {
        stream: (version, reason) for stream, version, reason in broken_streams("score_ledger")
    }
    assert f"table-{healthy}" not in broken
    version, reason = broken[f"table-{conflicting}"]
    assert "IntegrityError" in reason and "ledgerhand_unique" in reason
    # set aside at the event that ended hand 1 (where the healthy copy wrote its row)
    first_hand = LedgerHand.objects.get(table_id=healthy, hand_number=1)
    assert version == first_hand.event_version
    assert ledger_rows(conflicting) == 1  # only the row that was there before
    version, reason = broken[nameless]
    assert reason.startswith("ValueError") and version == first_hand.event_version

    # Stored (so a restarted projector still skips them), for an admin to read.
    stored = BrokenStream.objects.get(projection="score_ledger", stream_id=f"table-{conflicting}")
    assert stored.event_version == first_hand.event_version
    assert "ledgerhand_unique" in stored.reason


def test_the_admin_lists_broken_streams_read_only(admin_client: Any) -> None:
    stream_id = f"table-broken-{uuid.uuid4().hex[:8]}"
    with transaction.atomic():
        subscriptions.mark_broken(
            "score_ledger", stream_id, 3, 42, "DataError: integer out of range"
        )
    listing = admin_client.get("/admin/eventstore/brokenstream/", {"q": stream_id})
    assert listing.status_code == 200
    assert stream_id in listing.content.decode()
    assert "DataError: integer out of range" in listing.content.decode()
    assert admin_client.get("/admin/eventstore/brokenstream/add/").status_code == 403


def test_rebuild_clears_what_it_set_aside_and_applies_it_again() -> None:
    hands, events = a_game(11)
    table_id = uuid.uuid4()
    a_first_hand_row(table_id)
    with transaction.atomic():
        append(f"table-{table_id}", 0, events)
    caught_up(lambda: any(s == f"table-{table_id}" for s, _, _ in broken_streams("score_ledger")))

    # The cause is gone (rebuild drops every ledger row), so the stream applies again.
    rebuild(score_ledger)
    caught_up(lambda: ledger_rows(table_id) == hands)
    assert all(s != f"table-{table_id}" for s, _, _ in broken_streams("score_ledger"))


def test_a_ledger_total_beyond_32_bits_is_stored() -> None:
    """Totals are 64-bit: a rule value above 2**31 (now bounded in the rules) never made a
    row that the database refuses."""
    row = LedgerHand.objects.create(
        table_id=uuid.uuid4(),
        hand_number=1,
        bids={},
        tricks={},
        teams={},
        total_north_south=3_000_000_000,
        total_east_west=-3_000_000_000,
        bags_north_south=2**40,
        bags_east_west=0,
        event_version=1,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT total_north_south, total_east_west FROM scoring_ledgerhand WHERE id = %s",
            [row.pk],
        )
        assert cursor.fetchone() == (3_000_000_000, -3_000_000_000)
