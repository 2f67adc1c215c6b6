"""Deal commitments under verify_events, and export -> replay equality."""

from __future__ import annotations

import json
import random
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from eventstore.hashing import canonical_json, event_hash
from eventstore.reading import read_stream
from games.domain import events as ev
from games.services.export import export_table
from games.services.table_state import forget, reading_state
from tests.factories import TableFactory
from tests.integration.tables.helpers import QUICK_RULES, play_moves

pytestmark = pytest.mark.django_db
NAMES = ("north", "east", "south", "west")


def finished_table(users: dict[int, Any], seed: int) -> Any:
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={NAMES[s]: users[s] for s in range(4)},
        started=True,
    )
    play_moves(table.id, users, random.Random(seed))
    table.refresh_from_db()
    assert table.status == "finished"
    return table


def verify(*args: str) -> str:
    out = StringIO()
    call_command("verify_events", *args, stdout=out, stderr=out)
    return out.getvalue()


def rewrite_consistently(stream_id: str, version: int, data: dict[str, Any]) -> None:
    """What a database administrator could do: change one event and re-hash the chain
    after it (and the head row), so that only the deal check can notice."""
    events = read_stream(stream_id)
    prev = events[version - 2].hash if version > 1 else "0" * 64
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only")
        for event in events[version - 1 :]:
            new_data = data if event.version == version else event.data
            new_hash = event_hash(
                stream_id=stream_id,
                version=event.version,
                type=event.type,
                schema_version=event.schema_version,
                data=new_data,
                metadata=event.metadata,
                prev_hash=prev,
            )
            cursor.execute(
                "UPDATE eventstore_event SET data = %s::jsonb, hash = %s, prev_hash = %s "
                "WHERE stream_id = %s AND version = %s",
                [canonical_json(new_data), new_hash, prev, stream_id, event.version],
            )
            prev = new_hash
        cursor.execute(
            "UPDATE eventstore_stream SET head_hash = %s WHERE stream_id = %s", [prev, stream_id]
        )
        cursor.execute("ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_append_only")
    forget()


def test_verify_events_checks_every_deal_against_the_revealed_seed(users):
    table = finished_table(users, seed=11)
    assert "every check holds" in verify("--table", str(table.id))
    stream_id = f"table-{table.id}"
    events = read_stream(stream_id)
    second_deal = [e for e in events if e.type == ev.HAND_DEALT][1]
    deck = list(second_deal.data["deck"])
    # Cards 1 and 5 of the deck go to the same seat: the hands, and so every later event,
    # stay legal. Only the deal check can tell this deck was not dealt from the seed.
    deck[0], deck[4] = deck[4], deck[0]
    rewrite_consistently(stream_id, second_deal.version, {**second_deal.data, "deck": deck})
    with pytest.raises(CommandError) as failed:
        verify("--table", str(table.id))
    message = str(failed.value)
    assert "[deal commitment]" in message
    assert f"version {second_deal.version}," in message


def test_a_deal_that_changes_the_hands_breaks_the_fold(users):
    table = finished_table(users, seed=14)
    stream_id = f"table-{table.id}"
    first_deal = next(e for e in read_stream(stream_id) if e.type == ev.HAND_DEALT)
    deck = list(first_deal.data["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    rewrite_consistently(stream_id, first_deal.version, {**first_deal.data, "deck": deck})
    with pytest.raises(CommandError, match=r"\[table fold\]"):
        verify("--table", str(table.id))


def test_a_swapped_seed_is_caught(users):
    table = finished_table(users, seed=12)
    stream_id = f"table-{table.id}"
    reveal = read_stream(stream_id)[-1]
    assert reveal.type == ev.DEAL_SEED_REVEALED
    rewrite_consistently(stream_id, reveal.version, {"seed": "f" * 64})
    with pytest.raises(CommandError, match="does not match the deal commitment"):
        verify("--table", str(table.id))


def test_export_replays_to_the_platforms_own_ledger(users, tmp_path):
    table = finished_table(users, seed=13)
    exported = export_table(table.id)
    assert list(exported)[-1] == "head_hash"
    assert exported["head_hash"] == read_stream(f"table-{table.id}")[-1].hash
    assert exported["table"]["deal_seed"] is not None
    path = tmp_path / "game.json"
    path.write_text(json.dumps(exported))
    out = StringIO()
    call_command("replay", str(path), "--format", "json", stdout=out)
    replayed = json.loads(out.getvalue())
    with reading_state(table.id) as state:
        assert state.game is not None
        platform = state.game.ledger.summary()
    assert [
        {team: hand[team] for team in ("north_south", "east_west")} for hand in replayed["hands"]
    ] == platform["hands"]
    assert replayed["totals"] == platform["totals"]
    assert replayed["winner"] == platform["winner"] is not None
    assert replayed["finished_after_hand"] == platform["finished_after_hand"]
    table.refresh_from_db()
    assert table.totals == platform["totals"] and table.winner == platform["winner"]


def test_export_of_a_game_in_play_holds_complete_hands_only(users):
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={NAMES[s]: users[s] for s in range(4)},
        started=True,
    )
    play_moves(table.id, users, random.Random(4), limit=30)
    exported = export_table(table.id)
    assert exported["hands"] == []
    assert exported["table"]["deal_seed"] is None
