"""The score ledger projection: built incrementally while games are stored, then rebuilt
from zero with ``manage.py rebuild_projections``; both must equal the engine's ledgers."""

from __future__ import annotations

import random
import time
import uuid
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from eventstore.recorder import append
from eventstore.records import NewEvent
from eventstore.subscriptions import catch_up
from games.engine.bidding import bid_label
from games.engine.seats import SEAT_NAMES
from scoring.models import LedgerHand
from scoring.projections import ledger_for_table, score_ledger
from tests.unit.domain.playing import play_random_game

pytestmark = pytest.mark.django_db(transaction=True)
GAMES = 12
RULES = [
    {"preset": "standard", "target_score": 150, "lose_score": -150, "blind_nil": True},
    {"preset": "bicycle", "target_score": 120, "lose_score": -100},
    {"preset": "easy", "target_score": 100, "lose_score": -100},
    {
        "preset": "standard",
        "target_score": 150,
        "lose_score": -150,
        "nil_tricks_count_for_partner": True,
        "bag_penalty": False,
    },
]


def rows_of(table_ids: list[uuid.UUID]) -> list[dict[str, Any]]:
    return list(
        LedgerHand.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "hand_number")
        .values(
            "table_id",
            "hand_number",
            "bids",
            "tricks",
            "teams",
            "total_north_south",
            "total_east_west",
            "bags_north_south",
            "bags_east_west",
            "winner",
            "event_version",
        )
    )


def caught_up_with(table_ids: list[uuid.UUID], hands: int) -> None:
    """Catch up until every hand of these tables is projected (other test processes'
    open transactions can hold the safe reading point back for a moment)."""
    deadline = time.monotonic() + 60
    while LedgerHand.objects.filter(table_id__in=table_ids).count() < hands:
        if catch_up(score_ledger) == 0:
            assert time.monotonic() < deadline, "the projection never caught up"
            time.sleep(0.05)


def test_rebuilt_ledgers_equal_incremental_ones_and_the_engines():
    rng = random.Random(2026)
    games = []
    for index in range(GAMES):
        state, events = play_random_game(
            random.Random(index), rules=RULES[index % len(RULES)], seed=f"{index:064x}"
        )
        games.append((uuid.uuid4(), state, events))
    table_ids = [table_id for table_id, _, _ in games]
    # Interleave the games' appends in random chunks, catching up now and then.
    cursors = {table_id: 0 for table_id in table_ids}
    while any(cursors[t] < len(e) for t, _, e in games):
        table_id, _, events = rng.choice([g for g in games if cursors[g[0]] < len(g[2])])
        start = cursors[table_id]
        chunk = events[start : start + rng.randint(1, 60)]
        with transaction.atomic():
            append(
                f"table-{table_id}",
                start,
                [NewEvent(e.type, e.data, e.schema_version) for e in chunk],
            )
        cursors[table_id] = start + len(chunk)
        if rng.random() < 0.3:
            catch_up(score_ledger, batch_size=rng.randint(1, 200))
        if rng.random() < 0.05:
            # A projector restart: the in-memory states are gone, streams are read back.
            score_ledger._states.clear()
    hands = sum(len(state.game.ledger.hands) for _, state, _ in games)
    caught_up_with(table_ids, hands)
    incremental = rows_of(table_ids)
    assert len(incremental) == hands

    # Every row is the engine's own ledger of that game.
    for table_id, state, _ in games:
        ledger = state.game.ledger
        projected = ledger_for_table(table_id)
        assert projected["totals"] == ledger.summary()["totals"]
        assert projected["winner"] == ledger.summary()["winner"]
        for row, result, hand in zip(
            projected["hands"], ledger.hands, state.game.hands, strict=True
        ):
            assert row["north_south"] == result.as_dict()["north_south"]
            assert row["east_west"] == result.as_dict()["east_west"]
            assert row["bids"] == {
                SEAT_NAMES[s]: bid_label(hand.bids[s], hand.blind[s]) for s in range(4)
            }

    out = StringIO()
    call_command("rebuild_projections", "--name", "score_ledger", stdout=out)
    assert "score_ledger:" in out.getvalue() and "events/s" in out.getvalue()
    caught_up_with(table_ids, hands)
    assert rows_of(table_ids) == incremental


def test_rebuild_refuses_an_unknown_projection():
    with pytest.raises(CommandError, match="no projection named 'nope'"):
        call_command("rebuild_projections", "--name", "nope")
