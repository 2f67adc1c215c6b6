"""The reads clients poll answer ETag: W/"<version>" and 304 to If-None-Match: the table
view (the version the viewer is shown: a delayed spectator's is not the live one) and a
competition's overview, rounds and standings (the public stream version)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import TableFactory, UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import QUICK_RULES, play_moves

from .conftest import token_client

pytestmark = pytest.mark.django_db

SEATS = ("north", "east", "south", "west")


def get(client: APIClient, path: str, etag: str | None = None) -> Any:
    headers = {} if etag is None else {"HTTP_IF_NONE_MATCH": etag}
    return client.get(path, **headers)


def test_a_table_view_is_tagged_with_its_version_and_unchanged_polls_get_304() -> None:
    users = [UserFactory() for _ in range(4)]
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={SEATS[s]: users[s] for s in range(4)},
        started=True,
    )
    path = f"/api/tables/{table.id}"
    player = token_client(users[0])

    first = get(player, path)
    assert first.status_code == 200
    version = first.json()["version"]
    assert first["ETag"] == f'W/"{version}"'
    assert "private" in first["Cache-Control"] and "Authorization" in first["Vary"]
    for held in (f'W/"{version}"', f'"{version}"', f'W/"1", W/"{version}"', "*"):
        again = get(player, path, held)
        assert again.status_code == 304, held
        assert again.content == b""
        assert again["ETag"] == f'W/"{version}"'
    assert get(player, path, 'W/"0"').status_code == 200

    play_moves(table.id, dict(enumerate(users)), random.Random(5), limit=1)

    moved = get(player, path, f'W/"{version}"')
    assert moved.status_code == 200
    assert moved.json()["version"] == version + 1
    assert moved["ETag"] == f'W/"{version + 1}"'


def test_a_delayed_spectator_is_tagged_with_the_version_it_is_shown_not_the_live_one() -> None:
    users = [UserFactory() for _ in range(4)]
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={SEATS[s]: users[s] for s in range(4)},
        started=True,
        spectator_delay_tricks=1,
    )
    path = f"/api/tables/{table.id}"
    spectator = APIClient()
    before = get(spectator, path)
    shown = before.json()["version"]
    assert before["ETag"] == f'W/"{shown}"'

    # Bids and the first cards: the live version moves, the delayed view does not (no
    # trick is complete yet), so the tag says nothing of the moves the spectator may not see.
    play_moves(table.id, dict(enumerate(users)), random.Random(5), limit=6)
    live = get(token_client(users[0]), path).json()["version"]
    assert live > shown
    held = get(spectator, path, f'W/"{shown}"')
    assert held.status_code == 304
    assert held["ETag"] == f'W/"{shown}"'


def test_competition_reads_are_tagged_with_the_stream_version() -> None:
    organiser = UserFactory()
    players = [UserFactory() for _ in range(4)]
    cid = lg.create_competition(
        organiser, {"name": "Tagged", "stages": [{"kind": "swiss", "rounds": 1}]}
    ).competition_id
    lg.enter(organiser, cid, entrant_id="a", players=[str(players[0].pk), str(players[1].pk)])
    visitor = APIClient()
    paths = [f"/api/competitions/{cid}{tail}" for tail in ("", "/rounds", "/standings")]
    tags = []
    for path in paths:
        answer = get(visitor, path)
        assert answer.status_code == 200, answer.content
        tags.append(answer["ETag"])
    version = visitor.get(paths[0]).json()["version"]
    assert tags == [f'W/"{version}"'] * 3
    for path in paths:
        assert get(visitor, path, tags[0]).status_code == 304

    lg.enter(organiser, cid, entrant_id="b", players=[str(players[2].pk), str(players[3].pk)])

    for path in paths:
        answer = get(visitor, path, tags[0])
        assert answer.status_code == 200
        assert answer["ETag"] != tags[0]
    unknown = get(visitor, "/api/competitions/00000000-0000-0000-0000-000000000000", 'W/"0"')
    assert unknown.status_code == 404
