"""What the leagues and ratings pages read, against real PostgreSQL: the leagues list (a
page at a time, newest first), the ratings list by username, and a player's rating
history (each rated match's before and after, chained to the rating stored; rewritten by
a correction; the same after a rebuild)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.subscriptions import catch_up, rebuild
from leagues.models import PlayerRating, RatingChange
from leagues.projections import player_ratings
from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .test_organiser_flows import problem
from .test_services import play_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_leagues_list_is_newest_first_a_page_at_a_time(organiser: Any) -> None:
    ids = [lg.create_league(organiser, {"name": f"League {k}"})["id"] for k in range(3)]
    client = APIClient()

    first = client.get("/api/leagues", {"limit": 2}).json()
    second = client.get("/api/leagues", {"limit": 2, "offset": 2}).json()

    assert [row["id"] for row in first["leagues"] + second["leagues"]] == ids[::-1]
    assert (first["next_offset"], second["next_offset"]) == (2, None)
    row = second["leagues"][0]
    assert row["name"] == "League 0"
    assert row["pool"] == f"league:{ids[0]}"
    assert row["organisers"] == [organiser.pk]


@pytest.mark.parametrize(
    "query", [{"limit": "0"}, {"limit": "101"}, {"offset": "100001"}, {"limit": "x"}]
)
def test_a_bad_leagues_query_is_a_problem(query: dict[str, str]) -> None:
    problem(APIClient().get("/api/leagues", query), "invalid")


def league_season(organiser: Any, players: Any) -> tuple[str, str, list[Any]]:
    """A league with one season of four partnerships, round 1 played (North-South won)."""
    league = lg.create_league(organiser, {"name": "Ladder"})
    season = lg.add_season(
        organiser,
        league["id"],
        {"season": "2030", "competition": {"stages": [{"kind": "swiss", "rounds": 2}]}},
    )
    cid = season["seasons"][0]["divisions"]["main"]
    users = players(8)
    for k in range(4):
        pair = [str(users[2 * k].pk), str(users[2 * k + 1].pk)]
        lg.enter(organiser, cid, entrant_id=f"e{k + 1}", players=pair)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    return league["id"], cid, users


def history(player: Any, pool: str, **query: Any) -> dict[str, Any]:
    answer = APIClient().get(f"/api/ratings/{player.pk}/history", {"pool": pool, **query})
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_rating_history_chains_each_match_to_the_rating_and_names_everyone(
    organiser: Any, players: Any
) -> None:
    league_id, cid, users = league_season(organiser, players)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 2)
    catch_up(player_ratings)
    pool = f"league:{league_id}"
    me = users[0]

    answer = history(me, pool)

    assert answer["username"] == me.username
    assert len(answer["matches"]) == 2 and answer["earlier"] is None
    first, last = answer["matches"]
    assert first["before"]["mu"] == 25.0  # a first rated match starts from the defaults
    assert last["before"] == first["after"]
    stored = PlayerRating.objects.get(pool=pool, player=str(me.pk))
    assert (last["after"]["mu"], last["after"]["sigma"]) == (stored.mu, stored.sigma)
    assert answer["rating"]["matches"] == 2
    assert first["competition_id"] == cid and first["season"] == "2030"
    assert first["competition"] == "Ladder 2030: main"
    assert first["partner"] == str(users[1].pk)
    named = {first["partner"], *first["opponents"], *last["opponents"]}
    assert {answer["names"][p] for p in named} <= {u.username for u in users}
    assert first["outcome"] in ("won", "lost")
    assert (first["change"] > 0) == (first["outcome"] == "won")
    # A page of one, then the page before it.
    newest = history(me, pool, limit=1)
    assert [m["result_id"] for m in newest["matches"]] == [last["result_id"]]
    older = history(me, pool, limit=1, before=newest["earlier"])
    assert [m["result_id"] for m in older["matches"]] == [first["result_id"]]
    assert older["earlier"] is None
    # The ratings list names players by username.
    board = APIClient().get("/api/ratings", {"pool": pool}).json()["ratings"]
    assert {r["username"] for r in board} == {u.username for u in users}


def test_a_correction_rewrites_the_history_and_a_rebuild_gives_the_same_rows(
    organiser: Any, players: Any
) -> None:
    league_id, cid, users = league_season(organiser, players)
    catch_up(player_ratings)
    pool = f"league:{league_id}"
    first = load(cid).results[0]
    # A North-South player of the corrected match (entrant eK: users 2K-2 and 2K-1).
    k = int(first.north_south[1:])
    player = users[2 * k - 2]
    assert [m["outcome"] for m in history(player, pool)["matches"]] == ["won"]
    lg.correct_result(
        organiser,
        cid,
        first.id,
        points={"north_south": 40, "east_west": 110},
        winner="east_west",
        reason="scores were swapped on the sheet",
    )
    catch_up(player_ratings)

    # The corrected result took the one it replaced out of the history.
    corrected = history(player, pool)["matches"]
    assert [m["outcome"] for m in corrected] == ["lost"]
    assert corrected[0]["result_id"] != first.id
    assert corrected[0]["before"]["mu"] == 25.0

    def rows() -> list[dict[str, Any]]:
        return list(
            RatingChange.objects.order_by("pool", "player", "position").values(
                "pool",
                "player",
                "result_key",
                "position",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            )
        )

    incremental = rows()
    rebuild(player_ratings)
    assert rows() == incremental


@pytest.mark.parametrize(
    ("player", "query"),
    [
        ("abc", {}),
        ("1" * 21, {}),
        ("7", {"pool": "league:nope"}),
        ("7", {"limit": "0"}),
        ("7", {"limit": "201"}),
        ("7", {"before": "-1"}),
    ],
)
def test_a_bad_history_query_is_a_problem(player: str, query: dict[str, str]) -> None:
    problem(APIClient().get(f"/api/ratings/{player}/history", query), "invalid")


def test_a_player_never_rated_has_an_empty_history() -> None:
    answer = APIClient().get("/api/ratings/7/history").json()
    assert (answer["matches"], answer["rating"], answer["earlier"]) == ([], None, None)
