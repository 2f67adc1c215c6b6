"""The tournament pages: served with local assets, and the three helper reads the
organiser API lacks (usernames and correction reasons, username lookup, next matches)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.registration import token_for
from leagues.services import competitions as cmds
from tests.factories import UserFactory


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def competition(players: list[Any], organiser: Any) -> str:
    spec = {"name": "Helpers", "stages": [{"kind": "swiss", "rounds": 2}], "fixed_hands": 1}
    cid = cmds.create_competition(organiser, spec).competition_id
    for k in range(2):
        pair = [str(players[2 * k].pk), str(players[2 * k + 1].pk)]
        cmds.register_entrant(organiser, cid, entrant_id=f"t{k}", players=pair, name=f"T{k}")
    return cid


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("/competitions/new/", "new.js"),
        (f"/competitions/{uuid.uuid4()}/", "page.js"),
        (f"/competitions/{uuid.uuid4()}/organise/", "organise.js"),
    ],
)
def test_competition_pages_serve_local_assets_only(path: str, script: str) -> None:
    response = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f"/static/web/js/competitions/{script}" in html
    assert not re.search(r"(src|href)=\"https?://", html)


@pytest.mark.django_db
def test_the_list_shows_every_competition() -> None:
    organiser, *players = UserFactory.create_batch(5)
    cid = competition(players, organiser)

    html = Client().get("/competitions/").content.decode()

    assert f'data-competition="{cid}"' in html and "Helpers" in html


@pytest.mark.django_db
def test_people_gives_usernames_and_correction_reasons() -> None:
    organiser, *players = UserFactory.create_batch(5)
    cid = competition(players, organiser)
    cmds.pair_next_round(organiser, cid, round_number=1)
    cmds.record_result(
        organiser,
        cid,
        round_number=1,
        board=1,
        points={"north_south": 100, "east_west": 50},
        winner="north_south",
    )
    cmds.correct_result(
        organiser,
        cid,
        "r1-b1",
        points={"north_south": 50, "east_west": 100},
        winner="east_west",
        reason="swapped sides",
    )

    body = Client().get(f"/api/client/competitions/{cid}/people").json()

    assert body["players"] == {str(p.pk): p.username for p in players}
    corrections = [r for r in body["results"].values() if r["source"] == "correction"]
    assert corrections == [{"source": "correction", "reason": "swapped sides"}]


@pytest.mark.django_db
def test_people_of_no_competition_is_a_404() -> None:
    response = Client().get(f"/api/client/competitions/{uuid.uuid4()}/people")

    assert response.status_code == 404
    assert response.json()["code"] == "unknown_competition"


@pytest.mark.django_db
def test_player_lookup_needs_a_sign_in_and_names_an_unknown_player() -> None:
    user = UserFactory()

    assert APIClient().get("/api/client/players", {"username": user.username}).status_code == 401
    found = client_for(user).get("/api/client/players", {"username": user.username})
    assert found.json() == {"id": str(user.pk), "username": user.username}
    missing = client_for(user).get("/api/client/players", {"username": "nobody-here"})
    assert missing.status_code == 404
    assert missing.json()["message"] == "There is no player called 'nobody-here'."


@pytest.mark.django_db
def test_next_matches_lists_the_players_competitions_only() -> None:
    organiser, *players = UserFactory.create_batch(5)
    cid = competition(players, organiser)
    cmds.pair_next_round(organiser, cid, round_number=1)
    outsider = UserFactory()

    mine = client_for(players[0]).get("/api/client/next-matches").json()["matches"]
    theirs = client_for(outsider).get("/api/client/next-matches").json()["matches"]

    assert [(m["competition_id"], m["entrant"], m["match"]["round"]) for m in mine] == [
        (cid, "t0", 1)
    ]
    assert mine[0]["names"] == {"t0": "T0", "t1": "T1"}
    assert all(m["competition_id"] != cid for m in theirs)
    assert APIClient().get("/api/client/next-matches").status_code == 401
