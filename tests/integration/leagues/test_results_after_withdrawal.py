"""A withdrawn entrant neither plays nor wins after it has withdrawn (issue 17, point 4,
the API's half): a played result, or a forfeit won by the withdrawn side, in a round
after its withdrawal is refused (409 ``played_after_withdrawal``) and nothing is written;
its own forfeit (and a double forfeit) stays possible. Real PostgreSQL, events counted.

Worked example (``forfeit_loss`` 1, a round robin of 5: each round one entrant has the
bye): e3 withdraws after round 1. Its later matches are recorded as its forfeits with
their pairings (e3: 1 match point each, its opponent: a win, 2). An organiser who then
"corrects" one of them into a played result, or into a forfeit charged to the opponent,
would hand e3 match points for a round it never played: both are refused, and e3's
forfeit stands.
"""

from __future__ import annotations

from typing import Any

import pytest

from leagues.core.errors import LeagueError
from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .conftest import event_count
from .test_formats import competition, play_open_boards
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def withdrawn_after_round_one(organiser: Any, players: Any) -> tuple[str, Any]:
    """A round robin of 5 (``forfeit_loss`` 1) whose e3 withdrew after round 1, paired to
    e3's first forfeited match; returns the competition and that forfeit."""
    cid = competition(
        organiser, players, 5, {"kind": "round_robin"}, match_points={"forfeit_loss": 1}
    )
    lg.pair_next_round(organiser, cid)
    play_open_boards(organiser, cid, 1)
    lg.withdraw_entrant(organiser, cid, "e3", reason="moved away")
    for _ in range(4):
        _, number, _ = lg.pair_next_round(organiser, cid)
        forfeits = [
            r for r in load(cid).results if r.round == number and r.forfeited_by is not None
        ]
        if forfeits:
            return cid, forfeits[0]
        play_open_boards(organiser, cid, number)
    raise AssertionError("e3 had no match after its withdrawal")


def test_a_played_result_or_a_won_forfeit_after_the_withdrawal_is_refused(
    organiser: Any, players: Any
) -> None:
    cid, forfeit = withdrawn_after_round_one(organiser, players)
    e3 = "north_south" if forfeit.north_south == "e3" else "east_west"
    other = "east_west" if e3 == "north_south" else "north_south"
    assert forfeit.forfeited_by == e3 and forfeit.round > 1
    standings = {r.entrant: r for r in load(cid).competition().standings().rows}
    before_points = standings["e3"].match_points

    url = f"/api/competitions/{cid}/results/{forfeit.id}/correct"
    api = client_for(organiser)
    for body in (
        # A played result e3 wins, and one it loses: both played after it withdrew.
        {"points": {e3: 250, other: 40}, "winner": e3, "reason": "typed the wrong board"},
        {"points": {e3: 40, other: 250}, "winner": other, "reason": "they played after all"},
        # A forfeit charged to the opponent: e3 would win it.
        {"forfeited_by": other, "winner": e3, "reason": "the other side never came"},
    ):
        before = event_count()
        response = api.post(url, body, format="json")
        assert response.status_code == 409, response.content
        assert response.json()["code"] == "played_after_withdrawal"
        assert "withdrew after round 1" in response.json()["message"]
        assert event_count() == before

    # Its own forfeit, and a double forfeit, remain what an organiser may record.
    response = api.post(url, {"forfeited_by": "both", "reason": "nobody came"}, format="json")
    assert response.status_code == 201, response.content
    standings = {r.entrant: r for r in load(cid).competition().standings().rows}
    assert standings["e3"].match_points == before_points  # forfeit_loss either way


def test_the_service_refuses_it_too_before_writing(organiser: Any, players: Any) -> None:
    cid, forfeit = withdrawn_after_round_one(organiser, players)
    e3 = "north_south" if forfeit.north_south == "e3" else "east_west"
    other = "east_west" if e3 == "north_south" else "north_south"
    before = event_count()
    with pytest.raises(LeagueError) as refusal:
        lg.correct_result(
            organiser,
            cid,
            forfeit.id,
            points={e3: 110, other: 40},
            winner=e3,
            reason="e3 turned up",
        )
    assert refusal.value.code == "played_after_withdrawal"
    assert event_count() == before
