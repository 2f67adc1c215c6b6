"""Fixtures for the leagues tests: real PostgreSQL, users, a competition with entrants."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection

from eventstore.models import Event
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

# The live-play fixtures (committing database, real worker/projector processes) for the
# end-to-end test.
from tests.integration.live.conftest import live_db, live_env, live_logs, processes  # noqa: F401


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def event_count() -> int:
    """Every stored event, all streams: the "nothing written" probe."""
    return Event.objects.count()


@contextmanager
def tampered_last_pairing(cid: str) -> Iterator[None]:
    """The last RoundPaired rewritten inside the block (see :func:`tamper_last_pairing`),
    and swapped back after it: the test database outlives a transactional test (events
    are append-only, so no flush removes them), and the backup drill
    (tests/integration/test_backup_restore.py) verifies every stream in it."""
    tamper_last_pairing(cid)
    try:
        yield
    finally:
        tamper_last_pairing(cid)


def tamper_last_pairing(cid: str) -> None:
    """Rewrite the last RoundPaired as the database owner, the append-only trigger off
    (North-South and East-West of its first match swapped): what verify_pairings catches.
    Swapping is its own inverse: a second call restores the event."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE eventstore_event DISABLE TRIGGER eventstore_event_append_only")
        try:
            cursor.execute(
                "SELECT position, data FROM eventstore_event WHERE stream_id = %s "
                "AND type = 'RoundPaired' ORDER BY version DESC LIMIT 1",
                [f"competition-{cid}"],
            )
            position, data = cursor.fetchone()
            data = json.loads(data) if isinstance(data, str) else data
            match = data["pairing"]["matches"][0]
            match["north_south"], match["east_west"] = match["east_west"], match["north_south"]
            cursor.execute(
                "UPDATE eventstore_event SET data = %s::jsonb WHERE position = %s",
                [json.dumps(data), position],
            )
        finally:
            cursor.execute(
                "ALTER TABLE eventstore_event ENABLE TRIGGER eventstore_event_append_only"
            )


@pytest.fixture
def room_for_bot_tables(settings: Any) -> None:
    """A competition played by bots opens one all-bot table per match, counted against its
    creator's all-bot table quota (2 by default: tests/integration/leagues/test_quotas.py):
    room for the rounds of up to 64 teams."""
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 32


@pytest.fixture
def organiser(db: Any) -> Any:
    return UserFactory(username="organiser")


@pytest.fixture
def players(db: Any) -> Callable[[int], list[Any]]:
    made: list[Any] = []

    def make(count: int) -> list[Any]:
        new = [UserFactory(username=f"player{len(made) + i}") for i in range(count)]
        made.extend(new)
        return new

    return make


def entrants_of(users: list[Any]) -> list[dict[str, Any]]:
    """Entrant requests pairing the users two by two (e1: users 0 and 1, ...)."""
    return [
        {
            "entrant_id": f"e{i // 2 + 1}",
            "players": [str(users[i].pk), str(users[i + 1].pk)],
            "name": f"Pair {i // 2 + 1}",
        }
        for i in range(0, len(users), 2)
    ]


@pytest.fixture
def swiss(organiser: Any, players: Callable[[int], list[Any]]) -> Callable[..., str]:
    """A Swiss competition of ``count`` entrants (registered), returning its id."""

    def make(count: int = 4, rounds: int = 3, **spec: Any) -> str:
        state = lg.create_competition(
            organiser,
            {
                "name": "Club Swiss",
                "stages": [{"kind": "swiss", "rounds": rounds}],
                "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
                "late_join_until_round": 2,
                **spec,
            },
        )
        for entrant in entrants_of(players(2 * count)):
            lg.enter(organiser, state.competition_id, **entrant)
        return state.competition_id

    return make
