"""Importing entrants from an organiser's CSV (issue 19, point 5): every line checked
first, each refused line reported with its number and reason, nothing written unless all
are good; the players are invited and accept as for any registration."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.integration.leagues import builders as lg

from .conftest import event_count
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(organiser: Any, players: Any) -> tuple[str, list[Any]]:
    state = lg.create_competition(
        organiser,
        {
            "name": "Club night",
            "stages": [{"kind": "swiss", "rounds": 3}],
            "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
        },
    )
    return state.competition_id, players(6)


def upload(client: APIClient, cid: str, text: str | bytes) -> Any:
    body = text.encode() if isinstance(text, str) else text
    return client.post(f"/api/competitions/{cid}/entrants/import", body, content_type="text/csv")


def test_a_good_file_registers_every_entrant_as_invitations(
    organiser: Any, club: tuple[str, list[Any]]
) -> None:
    cid, people = club
    names = [p.username for p in people]
    text = (
        "\ufeffplayer1,player2,name,reserve\r\n"
        f"{names[0]},{names[1]},The Aces,{names[4]}\r\n"
        "\r\n"
        f'{names[2].upper()},{names[3]},"Spades, Inc.",\r\n'
    )

    answer = upload(client_for(organiser), cid, text)

    assert answer.status_code == 201, answer.content
    assert answer.json()["imported"] == 2
    entrants = answer.json()["competition"]["entrants"]
    assert {e["name"] for e in entrants} == {"The Aces", "Spades, Inc."}
    assert {e["status"] for e in entrants} == {"invited"}
    # The players accept through the ordinary path.
    aces = next(e for e in entrants if e["name"] == "The Aces")
    for person in people[:2]:
        accepted = client_for(person).post(
            f"/api/competitions/{cid}/entrants/{aces['id']}/accept", format="json"
        )
        assert accepted.status_code == 200, accepted.content
    again = client_for(organiser).get(f"/api/competitions/{cid}").json()["entrants"]
    assert next(e for e in again if e["id"] == aces["id"])["status"] == "entered"


def test_a_file_with_bad_lines_writes_nothing_and_names_each_line(
    organiser: Any, club: tuple[str, list[Any]]
) -> None:
    cid, people = club
    names = [p.username for p in people]
    client = client_for(organiser)
    # names[5] is entered already: its line is refused by the competition.
    assert upload(client, cid, f"player1,player2\n{names[5]},{names[4]}\n").status_code == 201
    before = event_count()
    text = (
        "player1,player2,name\n"
        f"{names[0]},{names[1]},Good\n"  # 2: fine
        f"{names[2]},nobody-here,X\n"  # 3: unknown username
        f"{names[0]},{names[3]},Y\n"  # 4: names[0] is in line 2 already
        f"{names[2]},{names[2]},Z\n"  # 5: the same player twice
        f"{names[2]},{names[3]}\n"  # 6: two cells where the header has three
        f"{names[3]},{names[5]},W\n"  # 7: names[5] is entered already
        f'{names[2]},{names[3]},=HYPERLINK("x")\n'  # 8: a formula
    )

    answer = upload(client, cid, text)

    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid_lines"
    lines = {row["line"]: row["reason"] for row in body["lines"]}
    assert sorted(lines) == [3, 4, 5, 6, 7, 8]
    assert "nobody-here" in lines[3]
    assert "line 2" in lines[4]
    assert "cells" in lines[6]
    assert "already in entrant" in lines[7]
    assert "may not start with" in lines[8]
    assert event_count() == before


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (b"", "empty"),
        (b"player1,player2\n", "no entrant"),
        (b"first,second\nann,bob\n", "header"),
        (b"player1,player2\n\x00a,b\n", "NUL"),
        (b"player1,player2\n\xff\xfe,b\n", None),
        (b"player1,player2\n" + b"a" * 70_000 + b",b\n", None),
        (b'player1,player2\n"unclosed,b\n', None),
        (b"player1,player2\n" + b"x" * 151 + b",b\n", "usernames"),
        (
            b"player1,player2\n" + b"".join(b"u%d,v%d\n" % (n, n) for n in range(300)),
            "at most 256",
        ),
    ],
)
def test_hostile_files_are_refused_with_nothing_written(
    organiser: Any, club: tuple[str, list[Any]], text: bytes, reason: str | None
) -> None:
    cid, _ = club
    before = event_count()

    answer = upload(client_for(organiser), cid, text)

    assert answer.status_code == 400, answer.content
    if reason is not None:
        assert reason in str(answer.json()), answer.json()
    assert event_count() == before


def test_only_organisers_import_and_json_works_too(
    organiser: Any, club: tuple[str, list[Any]]
) -> None:
    cid, people = club
    names = [p.username for p in people]
    text = f"player1,player2\n{names[0]},{names[1]}\n"

    assert upload(client_for(people[0]), cid, text).status_code == 403
    assert upload(APIClient(), cid, text).status_code in (401, 403)
    assert (
        client_for(organiser)
        .post(f"/api/competitions/{cid}/entrants/import", {"csv": 5}, format="json")
        .status_code
        == 400
    )
    answer = client_for(organiser).post(
        f"/api/competitions/{cid}/entrants/import", {"csv": text}, format="json"
    )
    assert answer.status_code == 201 and answer.json()["imported"] == 1
