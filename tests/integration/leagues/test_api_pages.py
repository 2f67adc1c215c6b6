"""What the tournament pages read from the leagues API, against real PostgreSQL: the
competitions list (newest first, by status, a page at a time), usernames and results'
source and reason beside entrants and rounds, entrants registered by username, and the
signed-in player's next matches; every bad input a 4xx {code, message} writing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from leagues.models import Competition, League, PlayerRating
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.leagues.builders import create_league

from .conftest import event_count
from .test_organiser_flows import problem
from .test_services import play_round
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def created(organiser: Any, name: str) -> str:
    spec = {"name": name, "stages": [{"kind": "swiss", "rounds": 2}]}
    return lg.create_competition(organiser, spec).competition_id


# ---------------------------------------------------------------- GET /api/competitions


def test_the_list_is_newest_first_a_page_at_a_time(organiser: Any) -> None:
    ids = [created(organiser, f"Club {k}") for k in range(5)]
    client = APIClient()

    first = client.get("/api/competitions", {"limit": 2}).json()
    second = client.get("/api/competitions", {"limit": 2, "offset": first["next_offset"]}).json()
    last = client.get("/api/competitions", {"limit": 2, "offset": 4}).json()

    listed = [c["id"] for page in (first, second, last) for c in page["competitions"]]
    assert listed == ids[::-1]
    assert (first["next_offset"], second["next_offset"], last["next_offset"]) == (2, 4, None)
    row = last["competitions"][0]
    assert (row["name"], row["kind"], row["status"]) == ("Club 0", "tournament", "registration")


def test_the_list_filters_by_status(organiser: Any, swiss: Any) -> None:
    waiting = created(organiser, "Waiting")
    running = swiss(4)
    lg.pair_next_round(organiser, running)

    def listed(status: str) -> list[str]:
        answer = APIClient().get("/api/competitions", {"status": status})
        assert answer.status_code == 200
        return [c["id"] for c in answer.json()["competitions"]]

    assert listed("running") == [running]
    assert listed("registration") == [waiting]
    assert listed("finished") == []


@pytest.mark.parametrize(
    "query",
    [
        {"status": "open"},
        {"limit": "0"},
        {"limit": "101"},
        {"limit": "ten"},
        {"offset": "-1"},
        {"offset": "100001"},
        {"limit": "9" * 40},
        {"limit": "²"},
    ],
)
def test_a_bad_list_query_is_a_problem(organiser: Any, query: dict[str, str]) -> None:
    created(organiser, "Any")

    problem(APIClient().get("/api/competitions", query), "invalid")


@pytest.mark.parametrize("players", ["\x00", "12,\x00", "abc", "1" * 21, ",".join(["1"] * 101)])
def test_a_bad_ratings_query_is_a_problem(players: str) -> None:
    # schemathesis found a NUL byte reaching PostgreSQL as a 500.
    problem(APIClient().get("/api/ratings", {"players": players}), "invalid")


def test_the_ratings_list_is_the_top_of_every_rated_player() -> None:
    """The list ranks every rated player, however many: the best one rated last is
    first (the list once ranked whichever 10,000 rows the database returned first)."""
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(pool="site", player=str(10**6 + n), mu=20.0, sigma=5.0, matches=1)
            for n in range(10_001)
        ]
    )
    PlayerRating.objects.create(pool="site", player="7", mu=40.0, sigma=1.0, matches=9)
    response = APIClient().get("/api/ratings")
    assert response.status_code == 200
    ratings = response.json()["ratings"]
    assert len(ratings) == 100 and ratings[0]["player"] == "7"
    assert [r["ordinal"] for r in ratings] == sorted((r["ordinal"] for r in ratings), reverse=True)


# ---------------------------------------------------------------- names and reasons


def test_entrants_and_rounds_carry_usernames_sources_and_reasons(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(4, rounds=2)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    lg.correct_result(
        organiser,
        cid,
        "r1-b1",
        points={"north_south": 40, "east_west": 110},
        winner="east_west",
        reason="swapped sides",
    )
    client = APIClient()

    overview = client.get(f"/api/competitions/{cid}").json()
    rounds = client.get(f"/api/competitions/{cid}/rounds").json()["rounds"]

    users = {str(u.pk): u.username for u in get_user_model().objects.all()}
    players = [p for e in overview["entrants"] for p in e["players"]]
    assert overview["players"] == {p: users[p] for p in players}
    assert sorted(overview["players"].values()) == [f"player{k}" for k in range(8)]
    results = {m["board"]: m["result"] for m in rounds[0]["matches"]}
    assert (results[1]["source"], results[1]["reason"]) == ("correction", "swapped sides")
    assert (results[2]["source"], results[2]["reason"]) == ("organiser", "")


# ---------------------------------------------------------------- entrants by username


def test_an_organiser_registers_an_entrant_by_usernames(organiser: Any, players: Any) -> None:
    cid = created(organiser, "By name")
    ann, bob = players(2)

    response = client_for(organiser).post(
        f"/api/competitions/{cid}/entrants",
        {"entrant_id": "kings", "name": "Kings", "usernames": [ann.username, bob.username]},
        format="json",
    )

    assert response.status_code == 201, response.json()
    # Registered by the organiser: an invitation both players answer (not entered yet).
    assert load(cid).invitations["kings"].entrant.players == (str(ann.pk), str(bob.pk))
    [kings] = response.json()["entrants"]
    assert kings["status"] == "invited" and kings["awaiting"] == [str(ann.pk), str(bob.pk)]
    assert response.json()["players"] == {str(ann.pk): ann.username, str(bob.pk): bob.username}


def test_a_late_entrant_is_registered_by_usernames(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    ann, bob = players(2)

    response = client_for(organiser).post(
        f"/api/competitions/{cid}/late-entrants",
        {"entrant_id": "late", "usernames": [ann.username, bob.username]},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert load(cid).invitations["late"].entrant.players == (str(ann.pk), str(bob.pk))


def test_a_substitute_comes_in_by_username_and_is_named(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(4)
    state = load(cid)
    entrant = next(iter(state.entrants.values()))
    [sub] = players(1)
    api = client_for(organiser)
    url = f"/api/competitions/{cid}/entrants/{entrant.id}/substitute"
    before = event_count()

    for body in (
        {"player_out": entrant.players[0], "username_in": "nobody-here"},
        {"player_out": entrant.players[0], "username_in": sub.username, "player_in": "1"},
    ):
        assert api.post(url, body, format="json").status_code in (400, 404)
    assert event_count() == before

    body = {"player_out": entrant.players[0], "username_in": sub.username}
    response = api.post(url, body, format="json")

    assert response.status_code == 200, response.json()
    assert load(cid).players_in(entrant.id, 1)[0] == str(sub.pk)
    assert response.json()["players"][str(sub.pk)] == sub.username


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"usernames": ["player0", "nobody-here"]}, "unknown_player"),
        ({"usernames": ["player0"]}, "invalid"),
        ({"usernames": "player0,player1"}, "invalid"),
        ({"usernames": ["player0", ""]}, "invalid"),
        ({"usernames": ["player0", "x" * 151]}, "invalid"),
        ({"usernames": ["player0", "player1"], "players": ["1", "2"]}, "invalid"),
    ],
)
def test_a_bad_username_entrant_is_refused_and_writes_nothing(
    organiser: Any, players: Callable[[int], list[Any]], body: dict[str, Any], code: str
) -> None:
    cid = created(organiser, "Refusals")
    players(2)
    before = event_count()

    response = client_for(organiser).post(
        f"/api/competitions/{cid}/entrants", {"entrant_id": "x", **body}, format="json"
    )

    problem(response, code)
    assert response.status_code == (404 if code == "unknown_player" else 400)
    if code == "unknown_player":
        assert response.json()["message"] == "There is no player called 'nobody-here'."
    assert event_count() == before


def test_only_an_organiser_registers_by_usernames(organiser: Any, players: Any) -> None:
    cid = created(organiser, "Private")
    ann, bob = players(2)
    before = event_count()

    response = client_for(ann).post(
        f"/api/competitions/{cid}/entrants",
        {"entrant_id": "x", "usernames": [ann.username, bob.username]},
        format="json",
    )

    problem(response, "not_organiser")
    assert response.status_code == 403
    assert event_count() == before


# ---------------------------------------------------------------- my next matches


def test_my_next_matches_list_my_competitions_only(organiser: Any, swiss: Any) -> None:
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    created(organiser, "Not mine")
    me = get_user_model().objects.get(pk=int(load(cid).entrants["e1"].players[0]))
    outsider = UserFactory(username="outsider")

    mine = client_for(me).get("/api/players/me/next-matches").json()["matches"]
    theirs = client_for(outsider).get("/api/players/me/next-matches").json()["matches"]

    assert [(m["competition_id"], m["name"], m["entrant"]) for m in mine] == [
        (cid, "Club Swiss", "e1")
    ]
    assert mine[0]["match"]["round"] == 1
    assert "e1" in (mine[0]["match"]["north_south"], mine[0]["match"]["east_west"])
    assert mine[0]["names"] == {f"e{k}": f"Pair {k}" for k in range(1, 5)}
    assert theirs == []


def test_the_next_match_of_someone_who_plays_no_entrant_here_is_none(
    organiser: Any, swiss: Any
) -> None:
    # The competition page asks on every refresh, its organiser's too: not a 404.
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)

    response = client_for(organiser).get(
        f"/api/competitions/{cid}/players/{organiser.pk}/next-match"
    )

    assert response.status_code == 200
    assert response.json() == {"entrant": None, "match": None}


def test_my_next_matches_need_a_sign_in() -> None:
    response = APIClient().get("/api/players/me/next-matches")

    problem(response, "not_signed_in")
    assert response.status_code == 401


# ---------------------------------------------------------------- the schema


def test_the_pages_reads_are_in_the_schema_with_their_operation_ids() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()

    operations = {
        (path, method): op["operationId"]
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if "leagues" in op.get("tags", ())
    }
    assert operations[("/api/competitions", "get")] == "competitions_list"
    assert operations[("/api/competitions", "post")] == "competitions_create"
    assert operations[("/api/players/me/next-matches", "get")] == "players_me_next_matches"
    assert operations[("/api/competitions/{competition_id}", "get")] == "competition_retrieve"
    assert len(set(operations.values())) == len(operations)


def written_rows() -> tuple[int, int, int]:
    return event_count(), Competition.objects.count(), League.objects.count()


@pytest.mark.parametrize("name", ["", "   ", "\t\n", "x" * 201, f" {'y' * 201} ", None, 7])
def test_a_competition_league_or_season_needs_a_name_of_1_to_200_characters(
    organiser: Any, name: object
) -> None:
    client = client_for(organiser)
    league = create_league(organiser, {"name": "Thursday Club"})["id"]
    before = written_rows()
    body = {"stages": [{"kind": "swiss", "rounds": 2}]} | ({} if name is None else {"name": name})
    problem(client.post("/api/competitions", body, format="json"), "invalid")
    problem(client.post("/api/leagues", {"name": name}, format="json"), "invalid")
    season = " " * 3 if name is None or name == "x" * 201 else name
    season_body = {"season": season, "competition": {"name": "Division"}}
    problem(client.post(f"/api/leagues/{league}/seasons", season_body, format="json"), "invalid")
    assert written_rows() == before


def test_names_are_kept_without_their_surrounding_spaces(organiser: Any) -> None:
    client = client_for(organiser)
    longest = "n" * 200
    made = client.post(
        "/api/competitions",
        {"name": f"  {longest}\n", "stages": [{"kind": "swiss", "rounds": 2}]},
        format="json",
    )
    assert made.status_code == 201, made.content
    settings = load(made.json()["id"]).settings
    assert settings is not None and settings.name == longest
    league = client.post("/api/leagues", {"name": " Thursday Club "}, format="json")
    assert league.status_code == 201, league.content
    assert league.json()["name"] == "Thursday Club"
    # A division's competition without a name of its own is named for the league.
    season = client.post(
        f"/api/leagues/{league.json()['id']}/seasons",
        {"season": " 2027 ", "competition": {"stages": [{"kind": "round_robin"}]}},
        format="json",
    )
    assert season.status_code == 201, season.content
    [division] = season.json()["seasons"]
    assert division["season"] == "2027"
    competition = load(division["divisions"]["main"])
    assert competition.settings is not None
    assert competition.settings.name == "Thursday Club 2027: main"


def test_a_body_missing_a_field_is_a_400_naming_it(organiser: Any, swiss: Any) -> None:
    """``{}`` posted to a leagues write is refused with the field it lacks (it used to be
    a 500 for the entrants), and nothing is written."""
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    league = create_league(organiser, {"name": "Thursday Club"})["id"]
    api = client_for(organiser)
    base = f"/api/competitions/{cid}"
    before = written_rows()
    for url, named in (
        (f"{base}/entrants", "Entrant id is required"),
        (f"{base}/late-entrants", "Entrant id is required"),
        (
            f"{base}/entrants/e1/substitute",
            "Incoming player (a user id) or incoming player's username is required",
        ),
        (f"{base}/partnerships", "Partner is required"),
        (f"{base}/rounds/1/results", "Board is required"),
        (f"{base}/results/r1-b1/correct", "Reason is required"),
        ("/api/competitions", "Name is a name"),
        ("/api/leagues", "Name is a name"),
        (f"/api/leagues/{league}/seasons", "Season is a name"),
    ):
        response = api.post(url, {}, format="json")
        assert response.status_code == 400, (url, response.content)
        assert named in response.json()["message"], (url, response.json())
    response = api.post(f"{base}/entrants", {"entrant_id": "x"}, format="json")
    assert response.status_code == 400
    assert "Players (two user ids) or usernames" in response.json()["message"]
    assert written_rows() == before
