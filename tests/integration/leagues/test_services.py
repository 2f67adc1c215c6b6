"""Competition use cases against real PostgreSQL: events appended, refusals write nothing."""

from __future__ import annotations

from typing import Any

import pytest

from eventstore.subscriptions import catch_up, rebuild
from leagues.core.errors import LeagueError
from leagues.models import (
    OfficialStandings,
    PlayerRating,
    RatedResult,
    RatingChange,
    SkillChange,
    SkillRating,
)
from leagues.projections import duplicate_skill, match_results, official_standings, player_ratings
from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .conftest import event_count

pytestmark = pytest.mark.django_db(transaction=True)


def play_round(organiser: Any, cid: str, number: int, *, confirmed: bool = False) -> None:
    """Every match of the round: North-South wins 110 to 40 (recorded by the organiser;
    ``confirmed``: a player of each side confirms each result, so it is rated)."""
    state = load(cid)
    for pairing in state.paired_round(number).pairing.matches:  # type: ignore[union-attr]
        lg.record_result(
            organiser,
            cid,
            round_number=number,
            board=pairing.board,
            points={"north_south": 110, "east_west": 40},
            winner="north_south",
        )
        if confirmed:
            lg.confirm_by_both_sides(cid, f"r{number}-b{pairing.board}")


def test_a_swiss_runs_to_its_final_standings(organiser: Any, swiss: Any) -> None:
    cid = swiss(4, rounds=2)
    for number in (1, 2):
        _, paired, duplicate = lg.pair_next_round(organiser, cid)
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
    lg.pair_next_round(organiser, cid, round_number=1)
    before = event_count()
    _, number, duplicate = lg.pair_next_round(organiser, cid, round_number=1)
    assert (number, duplicate) == (1, True)
    with pytest.raises(LeagueError) as refused:
        lg.pair_next_round(organiser, cid)
    assert refused.value.code == "round_not_closed"
    assert event_count() == before


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda o, c: lg.withdraw_entrant(o, c, "nobody"), "unknown_entrant"),
        (
            lambda o, c: lg.record_result(
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
            lambda o, c: lg.register(
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


PROJECTIONS = (match_results, official_standings, player_ratings, duplicate_skill)


def follow() -> None:
    """The projections as a running platform keeps them: caught up after each use case."""
    for projection in PROJECTIONS:
        catch_up(projection)


def projected() -> tuple[list[Any], ...]:
    return (
        list(
            OfficialStandings.objects.order_by("competition_id").values(
                "competition_id", "version", "document"
            )
        ),
        # Without the row ids, which a rebuild hands out anew.
        list(
            PlayerRating.objects.order_by("pool", "player").values(
                "pool", "player", "mu", "sigma", "matches"
            )
        ),
        list(
            RatedResult.objects.order_by("pool", "result_key").values(
                "pool", "result_key", "position", "north_south", "east_west", "winner", "superseded"
            )
        ),
        # The rating history: each rated match's change per player.
        list(
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
        ),
        # The duplicate skill (rows only from duplicate competitions:
        # test_duplicate_skill rebuilds one that has them).
        list(SkillRating.objects.order_by("player").values("player", "mu", "sigma", "boards")),
        list(
            SkillChange.objects.order_by("player", "board_key").values(
                "player", "board_key", "position", "board", "mu_after", "sigma_after"
            )
        ),
    )


def test_withdrawal_late_join_and_correction(organiser: Any, swiss: Any, players: Any) -> None:
    follow()
    cid = swiss(4, rounds=3)
    follow()
    lg.pair_next_round(organiser, cid)
    follow()
    play_round(organiser, cid, 1, confirmed=True)
    follow()
    lg.withdraw_entrant(organiser, cid, "e4", reason="travel")
    follow()
    late = players(2)
    lg.late_join(organiser, cid, entrant_id="late", players=[str(late[0].pk), str(late[1].pk)])
    follow()
    first = load(cid).results[0]
    lg.correct_result(
        organiser,
        cid,
        first.id,
        points={"north_south": 40, "east_west": 110},
        winner="east_west",
        reason="scores were swapped on the sheet",
    )
    follow()
    _, number, _ = lg.pair_next_round(organiser, cid)
    follow()
    state = load(cid)
    paired = state.paired_round(number)
    assert paired is not None
    assert "e4" not in paired.pairing.entrants()
    assert "late" in paired.pairing.entrants()
    assert state.entrants["late"].joined_round == 2
    play_round(organiser, cid, number, confirmed=True)
    follow()
    incremental = projected()
    standings = OfficialStandings.objects.get(competition_id=cid).document
    assert standings["version"] == load(cid).version
    # The ratings saw the confirmed results, and the correction (not confirmed) took the
    # result it replaced out of the site pool.
    mine = RatedResult.objects.filter(result_key__startswith=cid, pool="site")
    assert mine.filter(superseded=False).count() == 3
    assert list(mine.filter(superseded=True).values_list("result_key", flat=True)) == [
        f"{cid}:{first.id}"
    ]
    for projection in PROJECTIONS:
        rebuild(projection)
    assert projected() == incremental
