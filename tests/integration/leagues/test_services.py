"""Competition use cases against real PostgreSQL: events appended, refusals write nothing."""

from __future__ import annotations

from typing import Any

import pytest

from eventstore.subscriptions import catch_up, rebuild
from leagues.core.errors import LeagueError
from leagues.models import OfficialStandings, PlayerRating, RatedResult
from leagues.projections import match_results, official_standings, player_ratings
from leagues.services import competitions
from leagues.services.streams import load

from .conftest import event_count

pytestmark = pytest.mark.django_db(transaction=True)


def play_round(organiser: Any, cid: str, number: int) -> None:
    """Every match of the round: North-South wins 110 to 40 (recorded by the organiser)."""
    state = load(cid)
    for pairing in state.paired_round(number).pairing.matches:  # type: ignore[union-attr]
        competitions.record_result(
            organiser,
            cid,
            round_number=number,
            board=pairing.board,
            points={"north_south": 110, "east_west": 40},
            winner="north_south",
        )


def test_a_swiss_runs_to_its_final_standings(organiser: Any, swiss: Any) -> None:
    cid = swiss(4, rounds=2)
    for number in (1, 2):
        _, paired, duplicate = competitions.pair_next_round(organiser, cid)
        assert (paired, duplicate) == (number, False)
        play_round(organiser, cid, number)
    state = load(cid)
    assert state.closed == {1, 2}
    assert state.finished
    assert all(r.seed for r in state.rounds)  # revealed when each round closed
    catch_up(official_standings)
    document = OfficialStandings.objects.get(competition_id=cid).document
    assert document["finished"] is True
    assert len(document["standings"]["rows"]) == 4


def test_pairing_again_is_idempotent_and_the_next_waits_for_the_round(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(4)
    competitions.pair_next_round(organiser, cid, round_number=1)
    before = event_count()
    _, number, duplicate = competitions.pair_next_round(organiser, cid, round_number=1)
    assert (number, duplicate) == (1, True)
    with pytest.raises(LeagueError) as refused:
        competitions.pair_next_round(organiser, cid)
    assert refused.value.code == "round_not_closed"
    assert event_count() == before


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda o, c: competitions.withdraw_entrant(o, c, "nobody"), "unknown_entrant"),
        (
            lambda o, c: competitions.record_result(
                o,
                c,
                round_number=3,
                board=1,
                points={"north_south": 1, "east_west": 0},
                winner="north_south",
            ),
            "match_not_in_play",
        ),
        (
            lambda o, c: competitions.register_entrant(
                o, c, entrant_id="e9", players=[load(c).entrants["e1"].players[0], str(o.pk)]
            ),
            "player_in_two_entrants",
        ),
    ],
)
def test_refusals_write_nothing(organiser: Any, swiss: Any, call: Any, code: str) -> None:
    cid = swiss(4)
    before = event_count()
    with pytest.raises(LeagueError) as refused:
        call(organiser, cid)
    assert refused.value.code == code
    assert event_count() == before


PROJECTIONS = (match_results, official_standings, player_ratings)


def follow() -> None:
    """The projections as a running platform keeps them: caught up after each use case."""
    for projection in PROJECTIONS:
        catch_up(projection)


def projected() -> tuple[list[Any], list[Any], list[Any]]:
    return (
        list(
            OfficialStandings.objects.order_by("competition_id").values(
                "competition_id", "version", "document"
            )
        ),
        list(PlayerRating.objects.order_by("player").values()),
        list(RatedResult.objects.order_by("result_key").values()),
    )


def test_withdrawal_late_join_and_correction(organiser: Any, swiss: Any, players: Any) -> None:
    follow()
    cid = swiss(4, rounds=3)
    follow()
    competitions.pair_next_round(organiser, cid)
    follow()
    play_round(organiser, cid, 1)
    follow()
    competitions.withdraw_entrant(organiser, cid, "e4", reason="travel")
    follow()
    late = players(2)
    competitions.late_join(
        organiser, cid, entrant_id="late", players=[str(late[0].pk), str(late[1].pk)]
    )
    follow()
    first = load(cid).results[0]
    competitions.correct_result(
        organiser,
        cid,
        first.id,
        points={"north_south": 40, "east_west": 110},
        winner="east_west",
        reason="scores were swapped on the sheet",
    )
    follow()
    _, number, _ = competitions.pair_next_round(organiser, cid)
    follow()
    state = load(cid)
    paired = state.paired_round(number)
    assert paired is not None
    assert "e4" not in paired.pairing.entrants()
    assert "late" in paired.pairing.entrants()
    assert state.entrants["late"].joined_round == 2
    play_round(organiser, cid, number)
    follow()
    incremental = projected()
    standings = OfficialStandings.objects.get(competition_id=cid).document
    assert standings["version"] == load(cid).version
    assert incremental[1] and incremental[2]  # the ratings saw the rated results
    for projection in PROJECTIONS:
        rebuild(projection)
    assert projected() == incremental
