"""Ratings come only from consented play (issue 17, point 2), against real PostgreSQL.

Registering someone else is an invitation each named player accepts or declines; an
entrant is paired only once both its players have accepted; a player can leave a
competition they never joined. A typed-in result is rated only when a player of each
side has confirmed it; a table's result, played by the entrants' own players, is rated
as it is. Ratings are kept per pool (the site's and each league's), and the public
``/api/ratings`` is the site pool. Every refusal writes nothing (events counted).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.erasable_store import text_of
from eventstore.subscriptions import catch_up
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import ReasonRequest
from leagues.models import PlayerRating, RatedResult
from leagues.projections import drain_pending, match_results, player_ratings
from leagues.services import registration
from leagues.services.presence import arrive
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves

from .conftest import event_count
from .test_services import play_round
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)

SWISS = {"name": "Consent Swiss", "stages": [{"kind": "swiss", "rounds": 2}]}
LOSS = {"points": {"north_south": -200, "east_west": 250}, "winner": "east_west"}


def refused(call: Any, code: str) -> LeagueError:
    before = event_count()
    with pytest.raises(LeagueError) as refusal:
        call()
    assert refusal.value.code == code, refusal.value.message
    assert event_count() == before
    return refusal.value


def pair_of(users: list[Any]) -> list[str]:
    return [str(u.pk) for u in users]


def site_ratings(*users: Any) -> dict[str, tuple[float, float, int]]:
    """The public ratings (``/api/ratings``, the site pool) of ``users``."""
    catch_up(player_ratings)
    ids = ",".join(str(u.pk) for u in users)
    answer = APIClient().get(f"/api/ratings?players={ids}")
    assert answer.status_code == 200, answer.content
    assert answer.json()["pool"] == "site"
    return {r["player"]: (r["mu"], r["sigma"], r["matches"]) for r in answer.json()["ratings"]}


# ---------------------------------------------------------------- invitations


def test_an_invitation_is_entered_only_when_both_players_accept(
    organiser: Any, players: Any
) -> None:
    ann, bob, cy, dee = players(4)
    cid = lg.create_competition(organiser, SWISS).competition_id
    lg.register(organiser, cid, entrant_id="ab", players=pair_of([ann, bob]))
    lg.register(organiser, cid, entrant_id="cd", players=pair_of([cy, dee]))
    state = load(cid)
    assert not state.entrants and set(state.invitations) == {"ab", "cd"}
    assert state.awaiting("ab") == pair_of([ann, bob])
    # Nobody is paired on the organiser's word.
    error = refused(lambda: lg.pair_next_round(organiser, cid), "too_few_entrants")
    assert "2 invited" in error.message

    refused(lambda: registration.accept_invitation(cy, cid, "ab"), "not_invited")
    # The invited player's next matches say their answer is awaited.
    mine = client_for(ann).get("/api/players/me/next-matches").json()["matches"]
    assert [(m["entrant"], m["match"], m["invited"]) for m in mine] == [("ab", None, True)]
    registration.accept_invitation(ann, cid, "ab")
    refused(lambda: registration.accept_invitation(ann, cid, "ab"), "already_accepted")
    assert "ab" in load(cid).invitations and load(cid).awaiting("ab") == [str(bob.pk)]
    registration.accept_invitation(bob, cid, "ab")
    state = load(cid)
    assert set(state.entrants) == {"ab"} and state.entrants["ab"].joined_round == 1
    refused(lambda: lg.pair_next_round(organiser, cid), "too_few_entrants")

    # A player of an invitation declines: it is gone, its players free again.
    before = event_count()
    response = client_for(dee).post(
        f"/api/competitions/{cid}/entrants/cd/decline", {"reason": "busy"}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert event_count() == before + 1
    assert "cd" not in load(cid).invitations and load(cid).entrant_of_player(str(cy.pk)) is None
    stored = lg.events_of(cid)[-1]
    # The reason is kept by reference (erasable by the players it is about).
    assert (stored.type, stored.data["player"], text_of(stored.data["reason"])) == (
        ev.INVITATION_DECLINED,
        str(dee.pk),
        "busy",
    )
    assert "busy" not in str(stored.data)
    # The entrant's players accept over HTTP and the round pairs the two entered ones.
    lg.register(organiser, cid, entrant_id="cd2", players=pair_of([cy, dee]))
    for user in (cy, dee):
        answer = client_for(user).post(f"/api/competitions/{cid}/entrants/cd2/accept")
        assert answer.status_code == 200, answer.json()
    _, number, _ = lg.pair_next_round(organiser, cid)
    assert sorted(load(cid).paired_round(number).pairing.entrants()) == ["ab", "cd2"]  # type: ignore[union-attr]


def test_the_organiser_playing_is_entered_at_once_and_a_stranger_cannot_answer(
    organiser: Any, players: Any
) -> None:
    partner, stranger = players(2)
    cid = lg.create_competition(organiser, SWISS).competition_id
    lg.register(organiser, cid, entrant_id="mine", players=pair_of([organiser, partner]))
    state = load(cid)
    assert state.invitations["mine"].awaiting == {str(partner.pk)}
    refused(lambda: registration.accept_invitation(stranger, cid, "mine"), "not_invited")
    answer = client_for(stranger).post(
        f"/api/competitions/{cid}/entrants/mine/decline", {}, format="json"
    )
    assert answer.status_code == 403 and answer.json()["code"] == "not_invited"
    answer = APIClient().post(f"/api/competitions/{cid}/entrants/mine/accept")
    assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"
    registration.accept_invitation(partner, cid, "mine")
    assert "mine" in load(cid).entrants


def test_a_player_leaves_a_competition_they_never_joined_and_one_they_did(
    organiser: Any, players: Any
) -> None:
    ann, bob, cy, dee, eve, fay = players(6)
    cid = lg.create_competition(organiser, SWISS).competition_id
    lg.register(organiser, cid, entrant_id="ab", players=pair_of([ann, bob]))
    registration.accept_invitation(ann, cid, "ab")
    # Bob never accepted: leaving is declining, and the invitation ends (Ann's accepted
    # answer does not keep it).
    answer = client_for(bob).post(f"/api/competitions/{cid}/leave", {}, format="json")
    assert answer.status_code == 200, answer.json()
    assert lg.events_of(cid)[-1].type == ev.INVITATION_DECLINED
    assert "ab" not in load(cid).invitations and "ab" not in load(cid).entrants
    answer = client_for(bob).post(f"/api/competitions/{cid}/leave", {}, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_in_competition"

    lg.enter(organiser, cid, entrant_id="cd", players=pair_of([cy, dee]))
    lg.enter(organiser, cid, entrant_id="ef", players=pair_of([eve, fay]))
    lg.pair_next_round(organiser, cid)
    # Dee played: leaving withdraws the entrant after the round paired, naming her.
    answer = client_for(dee).post(
        f"/api/competitions/{cid}/leave", {"reason": "moving away"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    stored = lg.events_of(cid)[-1]
    assert stored.type == ev.ENTRANT_WITHDRAWN and stored.schema_version == 3
    assert text_of(stored.data["reason"]) == "moving away"
    assert (stored.data["after_round"], stored.data["player"]) == (1, str(dee.pk))
    assert load(cid).entrants["cd"].withdrawn_after_round == 1
    refused(
        lambda: registration.leave_competition(cy, cid, ReasonRequest()),
        "already_withdrawn",
    )
    # An entered player cannot "decline": they leave.
    refused(lambda: registration.decline_invitation(eve, cid, "ef", ReasonRequest()), "entered")


def test_a_late_invitation_enters_from_the_round_after_its_last_acceptance(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(4, rounds=3, late_join_until_round=3)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    late = players(2)
    lg.late_register(organiser, cid, entrant_id="late", players=pair_of(late))
    registration.accept_invitation(late[0], cid, "late")
    lg.pair_next_round(organiser, cid)  # round 2: "late" is still invited, not paired
    assert "late" not in load(cid).paired_round(2).pairing.entrants()  # type: ignore[union-attr]
    play_round(organiser, cid, 2)
    registration.accept_invitation(late[1], cid, "late")
    state = load(cid)
    assert state.entrants["late"].joined_round == 3
    assert sorted(a.round for a in state.awards if a.entrant == "late") == [1, 2]
    lg.pair_next_round(organiser, cid)
    assert "late" in load(cid).paired_round(3).pairing.entrants()  # type: ignore[union-attr]


def test_accepting_after_registration_closed_is_a_late_join_or_refused(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(2, rounds=2, late_join_until_round=0)
    slow = players(2)
    lg.register(organiser, cid, entrant_id="slow", players=pair_of(slow))
    lg.pair_next_round(organiser, cid)
    registration.accept_invitation(slow[0], cid, "slow")
    refused(lambda: registration.accept_invitation(slow[1], cid, "slow"), "late_join_closed")


# ---------------------------------------------------------------- result confirmation


def test_a_typed_in_result_is_rated_once_a_player_of_each_side_confirms_it(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(2, rounds=1)
    lg.pair_next_round(organiser, cid)
    lg.record_result(organiser, cid, round_number=1, board=1, **LOSS)
    state = load(cid)
    [result] = state.results
    assert not result.rated
    ns, ew = (state.players_in(result.entrant(s), 1) for s in ("north_south", "east_west"))
    everyone = [lg.user(p) for p in (*ns, *ew)]
    assert site_ratings(*everyone) == {}

    refused(lambda: lg.confirm_result(players(1)[0], cid, result.id), "not_in_match")
    url = f"/api/competitions/{cid}/results/{result.id}/confirm"
    answer = client_for(lg.user(ns[0])).post(url)
    assert answer.status_code == 200, answer.json()
    assert answer.json() == {
        "result_id": result.id,
        "confirmed_by": {"north_south": ns[0]},
        "rated": False,
    }
    # The partner's word is the same side's: refused, and still not rated.
    answer = client_for(lg.user(ns[1])).post(url)
    assert answer.status_code == 409 and answer.json()["code"] == "already_confirmed"
    assert site_ratings(*everyone) == {}
    answer = client_for(lg.user(ew[1])).post(url)
    assert answer.status_code == 200 and answer.json()["rated"] is True
    ratings = site_ratings(*everyone)
    assert set(ratings) == {*ns, *ew}
    assert all(ratings[p][0] < 25.0 for p in ns) and all(ratings[p][0] > 25.0 for p in ew)
    rounds = APIClient().get(f"/api/competitions/{cid}/rounds").json()["rounds"]
    shown = rounds[0]["matches"][0]["result"]
    assert shown["rated"] is True and set(shown["confirmed_by"]) == {"north_south", "east_west"}

    # A correction is typed in too: the result it replaces leaves the ratings, and the
    # correction counts only once confirmed.
    lg.correct_result(
        organiser,
        cid,
        result.id,
        points={"north_south": 250, "east_west": -200},
        winner="north_south",
        reason="sides swapped",
    )
    refused(lambda: lg.confirm_result(lg.user(ns[0]), cid, result.id), "unknown_result")
    assert site_ratings(*everyone) == {}
    [correction] = [r for r in load(cid).results if r.corrects]
    lg.confirm_by_both_sides(cid, correction.id)
    ratings = site_ratings(*everyone)
    assert all(ratings[p][0] > 25.0 for p in ns) and all(ratings[p][0] < 25.0 for p in ew)


def test_forfeits_and_bot_played_results_have_nothing_to_confirm(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(2, rounds=2)
    lg.pair_next_round(organiser, cid)
    lg.record_forfeit(organiser, cid, round_number=1, board=1, forfeited_by="east_west")
    state = load(cid)
    [result] = state.results
    player = lg.user(state.players_in(result.north_south, 1)[0])
    refused(lambda: lg.confirm_result(player, cid, result.id), "nothing_to_confirm")
    refused(lambda: lg.confirm_result(player, cid, "r9-b9"), "unknown_result")


def test_a_table_played_by_the_entrants_own_players_is_rated_as_it_is(
    organiser: Any, swiss: Any
) -> None:
    """A consented, played result moves the public ratings: four people sat at the
    competition's table and played it to its end."""
    cid = swiss(2, rounds=1, rules={"preset": "standard", "target_score": 100, "lose_score": -100})
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)
    state = load(cid)
    seats = state.seating(1, 1)
    users = {index: lg.user(seats[seat]) for index, seat in enumerate(ev.SEATS)}
    before = site_ratings(*users.values())
    assert before == {}
    for user in users.values():
        arrive(user, cid, 1)
    play_moves(state.tables[1][1], users, random.Random(3), limit=5000)
    catch_up(match_results)
    drain_pending()
    [result] = load(cid).results
    assert load(cid).result_info[result.id].source == "table" and result.rated
    after = site_ratings(*users.values())
    assert set(after) == {str(u.pk) for u in users.values()}
    assert all(matches == 1 for _, _, matches in after.values())
    refused(lambda: lg.confirm_result(users[0], cid, result.id), "nothing_to_confirm")


# ---------------------------------------------------------------- the manipulation


def test_an_organiser_cannot_move_unaware_players_ratings(organiser: Any, players: Any) -> None:
    """The issue's manipulation: an organiser registers two unaware users as an entrant,
    pairs rounds against two accomplices and types in 8 losses for them. Nothing moves
    anyone's public rating: the victims are never paired while they have not accepted,
    and once they have (they meant to play), a typed-in result counts only with their
    side's confirmation, which they never give; the accomplices confirm theirs."""
    victims, accomplices = players(2), players(2)
    everyone = [*victims, *accomplices]

    # Unaware: an invitation they never answer. No round can pair them.
    cid = lg.create_competition(
        organiser, {"name": "Rigged", "stages": [{"kind": "swiss", "rounds": 8}]}
    ).competition_id
    lg.register(organiser, cid, entrant_id="victims", players=pair_of(victims))
    lg.enter(organiser, cid, entrant_id="accomplices", players=pair_of(accomplices))
    refused(lambda: lg.pair_next_round(organiser, cid), "too_few_entrants")

    # Aware (they accepted to play): four double round robins, 8 typed-in losses, each
    # confirmed by an accomplice.
    typed, rigged = [], []
    for k in range(4):
        cid = lg.create_competition(
            organiser,
            {"name": f"Rigged {k}", "stages": [{"kind": "round_robin", "double": True}]},
        ).competition_id
        rigged.append(cid)
        for entrant_id, pair in (("victims", victims), ("accomplices", accomplices)):
            lg.enter(organiser, cid, entrant_id=entrant_id, players=pair_of(pair))
        for number in (1, 2):
            lg.pair_next_round(organiser, cid)
            [match] = load(cid).paired_round(number).pairing.matches  # type: ignore[union-attr]
            lost = "north_south" if match.north_south == "victims" else "east_west"
            won = "east_west" if lost == "north_south" else "north_south"
            lg.record_result(
                organiser,
                cid,
                round_number=number,
                board=1,
                points={lost: -200, won: 250},
                winner=won,
            )
            state = lg.confirm_result(accomplices[0], cid, f"r{number}-b1")
            typed.append(state.result_of(f"r{number}-b1"))
        assert load(cid).finished
    assert len(typed) == 8 and not any(result.rated for result in typed)
    assert site_ratings(*everyone) == {}
    keys = [f"{c}:r{n}-b1" for c in rigged for n in (1, 2)]
    assert not RatedResult.objects.filter(pool="site", result_key__in=keys).exists()


def test_a_league_pool_takes_its_organisers_results_and_the_site_pool_does_not(
    organiser: Any, players: Any
) -> None:
    """A league's own pool counts the results its organisers type in (their league, their
    word); the public site pool still waits for both sides' confirmation."""
    league = lg.create_league(organiser, {"name": "Thursday Club"})
    season = lg.add_season(
        organiser,
        league["id"],
        {"season": "2030", "competition": {"stages": [{"kind": "swiss", "rounds": 1}]}},
    )
    cid = season["seasons"][0]["divisions"]["main"]
    first, second = players(2), players(2)
    lg.enter(organiser, cid, entrant_id="a", players=pair_of(first))
    lg.enter(organiser, cid, entrant_id="b", players=pair_of(second))
    lg.pair_next_round(organiser, cid)
    lg.record_result(organiser, cid, round_number=1, board=1, **LOSS)
    assert site_ratings(*first, *second) == {}
    pool = f"league:{league['id']}"
    answer = APIClient().get("/api/ratings", {"pool": pool})
    assert answer.status_code == 200, answer.content
    assert answer.json()["pool"] == pool
    assert {r["player"] for r in answer.json()["ratings"]} == set(pair_of([*first, *second]))
    assert PlayerRating.objects.filter(pool=pool).count() == 4
    for bad in ("league:nope", "everyone", "league:"):
        answer = APIClient().get("/api/ratings", {"pool": bad})
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    # A competition of the league is seeded from the league's pool.
    next_season = lg.add_season(
        organiser,
        league["id"],
        {"season": "2031", "competition": {"stages": [{"kind": "swiss", "rounds": 1}]}},
    )
    later = next_season["seasons"][1]["divisions"]["main"]
    lg.register(organiser, later, entrant_id="a", players=pair_of(first))
    lg.register(organiser, later, entrant_id="fresh", players=pair_of(players(2)))
    seeded = load(later).invitations
    assert seeded["a"].entrant.rating != seeded["fresh"].entrant.rating


# ---------------------------------------------------------------- a league's consent


def test_a_competition_joins_a_league_only_through_its_organisers(
    organiser: Any, players: Any
) -> None:
    league = lg.create_league(organiser, {"name": "Thursday Club"})
    outsider = players(1)[0]
    before = event_count()
    for body in (
        {"name": "Squatter", "league_id": league["id"]},
        {"name": "Squatter", "league_id": league["id"], "kind": "season", "season": "2030"},
    ):
        answer = client_for(outsider).post("/api/competitions", body, format="json")
        assert answer.status_code == 403, answer.content
        assert answer.json()["code"] == "not_league_organiser"
    answer = client_for(outsider).post(
        "/api/competitions", {"name": "Lost", "league_id": "not-a-league"}, format="json"
    )
    assert answer.status_code == 404 and answer.json()["code"] == "unknown_league"
    assert event_count() == before
    # The league's organiser may (it is theirs to add to).
    answer = client_for(organiser).post(
        "/api/competitions", {"name": "Friendly", "league_id": league["id"]}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["settings"]["league_id"] == league["id"]
