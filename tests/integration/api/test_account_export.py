"""GET /api/auth/me/export: the caller's own account, ratings, competitions and games, as
one JSON document written out piece by piece, at most SPADES_EXPORT_MAX_TABLES games a
download."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from rest_framework.test import APIClient

from leagues.models import PlayerRating, SkillRating
from leagues.services import rounds
from tests.factories import TableFactory, UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import QUICK_RULES, play_moves

from .conftest import PASSWORD, token_client

pytestmark = pytest.mark.django_db

SEATS = ("north", "east", "south", "west")


def exported(client: APIClient, query: str = "") -> dict[str, Any]:
    response = client.get(f"/api/auth/me/export{query}")
    assert response.status_code == 200, response
    assert response.streaming
    assert response["Content-Disposition"].startswith("attachment; filename=")
    # Asynchronous pieces, as daphne takes them (each read in the request's thread).
    document: dict[str, Any] = json.loads(async_to_sync(joined)(response.streaming_content))
    return document


async def joined(pieces: Any) -> bytes:
    return b"".join([piece async for piece in pieces])


def test_the_export_holds_the_account_its_games_competitions_and_rating(settings: Any) -> None:
    users = [UserFactory(password=PASSWORD) for _ in range(4)]
    me, stranger = users[0], UserFactory()
    finished = TableFactory(
        creator=me, rules=QUICK_RULES, players={SEATS[s]: users[s] for s in range(4)}, started=True
    )
    play_moves(finished.id, dict(enumerate(users)), random.Random(3))
    lobby = TableFactory(creator=me, rules=QUICK_RULES, seats={"east": "bot"})
    TableFactory(creator=stranger)  # not mine

    organiser = UserFactory()
    cid = lg.create_competition(
        organiser, {"name": "Export cup", "stages": [{"kind": "swiss", "rounds": 1}]}
    ).competition_id
    others = [UserFactory() for _ in range(4)]
    lg.enter(organiser, cid, entrant_id="mine", players=[str(me.pk), str(users[1].pk)], name="Owls")
    lg.enter(organiser, cid, entrant_id="theirs", players=[str(others[0].pk), str(others[1].pk)])
    rounds.pair_next_round(organiser, cid)
    lg.record_result(
        organiser,
        cid,
        round_number=1,
        board=1,
        points={"north_south": 120, "east_west": 60},
        winner="north_south",
    )
    PlayerRating.objects.create(pool="site", player=str(me.pk), mu=27.5, sigma=7.0, matches=1)
    PlayerRating.objects.create(pool="league:x", player=str(me.pk), mu=26.0, sigma=7.5, matches=2)
    PlayerRating.objects.create(pool="site", player=str(stranger.pk), mu=30.0, sigma=7.0)
    SkillRating.objects.create(player=str(me.pk), mu=0.5, sigma=1.0, boards=12)
    SkillRating.objects.create(player=str(stranger.pk), mu=1.5, sigma=1.0, boards=3)

    document = exported(token_client(me))

    assert (document["format"], document["version"]) == ("spades-account-export", 1)
    assert document["account"]["username"] == me.username
    assert document["account"]["email"] == me.email
    assert [(r["pool"], r["player"]) for r in document["ratings"]] == [
        ("league:x", str(me.pk)),
        ("site", str(me.pk)),
        ("skill", str(me.pk)),  # the duplicate skill rating
    ]
    assert document["ratings"][-1]["matches"] == 12
    (competition,) = document["competitions"]
    assert (competition["competition_id"], competition["name"]) == (cid, "Export cup")
    assert competition["entrant"] == {
        "id": "mine",
        "name": "Owls",
        "players": [str(me.pk), str(users[1].pk)],
        "reserve": None,
    }
    (match,) = competition["matches"]
    assert match["result"]["points"] == {"north_south": 120, "east_west": 60}
    tables = document["tables"]
    assert (tables["total"], tables["offset"], tables["next_offset"]) == (2, 0, None)
    by_id = {item["id"]: item for item in tables["items"]}
    assert set(by_id) == {str(finished.id), str(lobby.id)}
    record = by_id[str(finished.id)]["record"]
    assert by_id[str(finished.id)]["seats"] == ["north"]
    assert record["table"]["status"] == "finished" and record["hands"]
    assert record["head_hash"]


def test_a_large_export_comes_in_downloads_of_a_bounded_size(settings: Any) -> None:
    settings.SPADES_EXPORT_MAX_TABLES = 1
    me = UserFactory(password=PASSWORD)
    first = TableFactory(creator=me, seats={"east": "bot"})
    second = TableFactory(creator=me, seats={"east": "bot"})
    client = token_client(me)

    page = exported(client)["tables"]
    assert (page["total"], page["next_offset"]) == (2, 1)
    assert [item["id"] for item in page["items"]] == [str(second.id)]  # newest first
    rest = exported(client, f"?tables_offset={page['next_offset']}")["tables"]
    assert [item["id"] for item in rest["items"]] == [str(first.id)]
    assert rest["next_offset"] is None

    bad = client.get("/api/auth/me/export?tables_offset=-1")
    assert bad.status_code == 400
    assert APIClient().get("/api/auth/me/export").status_code == 401
