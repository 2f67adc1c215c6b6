"""Round robin and knockout competitions played through the services on real PostgreSQL:
every pair meets once, tied ratings keep one bracket, late joins and withdrawals follow
docs/leagues.md, and every round still verifies from the stored events."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from leagues.core.errors import LeagueError
from leagues.models import CompetitionTable
from leagues.selectors.verification import verify_competition
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg

from .conftest import entrants_of, event_count

pytestmark = pytest.mark.django_db(transaction=True)

RULES = {"preset": "standard", "target_score": 100, "lose_score": -100}


def competition(
    organiser: Any, players: Any, count: int, stage: dict[str, Any], **spec: Any
) -> str:
    state = lg.create_competition(
        organiser, {"name": "Club", "stages": [stage], "rules": RULES, **spec}
    )
    for entrant in entrants_of(players(2 * count)):
        # Every new partnership is seeded the same rating: ties are the normal case.
        lg.enter(organiser, state.competition_id, **entrant, rating=1000)
    return state.competition_id


def play_open_boards(organiser: Any, cid: str, number: int, north_wins: bool = True) -> None:
    state = load(cid)
    paired = state.paired_round(number)
    assert paired is not None
    for pairing in paired.pairing.matches:
        if pairing.board in state.reported_boards(number):
            continue
        lg.record_result(
            organiser,
            cid,
            round_number=number,
            board=pairing.board,
            points={"north_south": 110, "east_west": 40}
            if north_wins
            else {"north_south": 40, "east_west": 110},
            winner="north_south" if north_wins else "east_west",
        )


def play_to_the_end(organiser: Any, cid: str, north_wins: bool = True) -> None:
    for _ in range(64):
        if load(cid).finished:
            return
        _, number, _ = lg.pair_next_round(organiser, cid)
        play_open_boards(organiser, cid, number, north_wins)
    raise AssertionError("the competition never finished")


def meetings_and_byes(cid: str) -> tuple[Counter[frozenset[str]], Counter[str]]:
    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for paired in load(cid).rounds:
        meetings.update(frozenset((m.north_south, m.east_west)) for m in paired.pairing.matches)
        byes.update(paired.pairing.byes)
    return meetings, byes


@pytest.mark.parametrize(("count", "double"), [(6, False), (7, False), (4, True)])
def test_a_round_robin_meets_every_pair_exactly_once(
    organiser: Any, players: Any, count: int, double: bool
) -> None:
    cid = competition(organiser, players, count, {"kind": "round_robin", "double": double})
    play_to_the_end(organiser, cid)
    state = load(cid)
    slots = count + count % 2
    assert len(state.rounds) == (slots - 1) * (2 if double else 1)
    meetings, byes = meetings_and_byes(cid)
    ids = list(state.entrants)
    assert set(meetings) == {frozenset(pair) for pair in combinations(ids, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    assert byes == (Counter(dict.fromkeys(ids, 2 if double else 1)) if count % 2 else Counter())
    checks = verify_competition(cid)
    assert len(checks) == len(state.rounds)
    assert all(check["ok"] and check["revealed"] for check in checks), checks


@pytest.mark.parametrize(
    "stage",
    [
        {"kind": "knockout"},
        {"kind": "knockout", "double": True},
        {"kind": "knockout", "double": True, "reset": True},
    ],
)
@pytest.mark.parametrize("north_wins", [True, False])
def test_a_knockout_of_equal_ratings_plays_to_its_champion(
    organiser: Any, players: Any, stage: dict[str, Any], north_wins: bool
) -> None:
    # East-West (the lower slot) winning every match sends the losers' champion through
    # the grand final: with reset, the second final is played.
    cid = competition(organiser, players, 6, stage)
    play_to_the_end(organiser, cid, north_wins)
    state = load(cid)
    matches = [m.match for paired in state.rounds for m in paired.pairing.matches]
    if stage.get("double"):
        assert "GF" in matches
        assert ("GF2" in matches) == (bool(stage.get("reset")) and not north_wins)
    assert state.finished
    assert all(check["ok"] for check in verify_competition(cid))


@pytest.mark.parametrize("kind", ["round_robin", "knockout"])
def test_a_late_join_into_a_schedule_drawn_once_is_refused(
    organiser: Any, players: Any, kind: str
) -> None:
    cid = competition(organiser, players, 4, {"kind": kind}, late_join_until_round=3)
    lg.pair_next_round(organiser, cid)
    late = players(2)
    before = event_count()
    with pytest.raises(LeagueError) as refused:
        lg.late_join(organiser, cid, entrant_id="late", players=[str(late[0].pk), str(late[1].pk)])
    assert refused.value.code == "late_join_closed"
    assert "Swiss" in refused.value.message
    assert event_count() == before


def test_a_withdrawn_entrants_remaining_round_robin_matches_are_forfeits(
    organiser: Any, players: Any
) -> None:
    cid = competition(organiser, players, 5, {"kind": "round_robin"})
    lg.pair_next_round(organiser, cid)
    play_open_boards(organiser, cid, 1)
    lg.withdraw_entrant(organiser, cid, "e3", reason="moved away")
    play_to_the_end(organiser, cid)
    state = load(cid)
    # The schedule is unchanged: every pair still meets once, e3 included.
    meetings, _ = meetings_and_byes(cid)
    assert set(meetings.values()) == {1} and len(meetings) == 10
    forfeits = [r for r in state.results if r.forfeited_by is not None]
    e3_later = [
        m
        for paired in state.rounds[1:]
        for m in paired.pairing.matches
        if "e3" in (m.north_south, m.east_west)
    ]
    assert len(forfeits) == len(e3_later) >= 3
    for result in forfeits:
        side = "north_south" if result.north_south == "e3" else "east_west"
        assert result.forfeited_by == side
        assert result.winner != side and not result.rated
        assert state.result_info[result.id].reason == "withdrawn"
    standings = {row.entrant: row for row in state.competition().standings().rows}
    assert standings["e3"].withdrawn
    # Its score stopped growing: round 1 only (forfeits give forfeit_loss, 0, and a bye
    # in its kept slot gives nothing).
    first = state.rounds[0].pairing
    round_one = next(
        (
            2 * (m.north_south == "e3")
            for m in first.matches
            if "e3" in (m.north_south, m.east_west)
        ),
        2,
    )
    assert standings["e3"].match_points == round_one
    assert standings["e3"].wins + standings["e3"].losses == 4
    assert all(check["ok"] for check in verify_competition(cid))


def test_an_entrant_withdrawn_before_round_one_is_in_no_round(organiser: Any, players: Any) -> None:
    # Five entrants, e2 withdrawn before round 1: the schedule is a round robin of four
    # (three rounds, no bye), with no forfeit of e2's for anyone (issue 17).
    cid = competition(organiser, players, 5, {"kind": "round_robin"})
    lg.withdraw_entrant(organiser, cid, "e2", reason="ill")
    play_to_the_end(organiser, cid)
    state = load(cid)
    assert len(state.rounds) == 3
    assert all("e2" not in paired.pairing.entrants() for paired in state.rounds)
    assert not any(result.forfeited_by for result in state.results)
    assert all(check["ok"] for check in verify_competition(cid))


def test_starting_a_round_seats_the_users_and_skips_the_withdrawal_forfeits(
    organiser: Any, players: Any
) -> None:
    cid = competition(organiser, players, 5, {"kind": "round_robin"})
    # Withdrawn after round 1: its slot stays in the schedule drawn once, and its later
    # matches are its forfeits (one withdrawn before round 1 would be in no round at all).
    lg.pair_next_round(organiser, cid)
    play_open_boards(organiser, cid, 1)
    lg.withdraw_entrant(organiser, cid, "e2", reason="ill")
    lg.pair_next_round(organiser, cid)
    state = load(cid)
    paired = state.paired_round(2)
    assert paired is not None
    forfeited = state.reported_boards(2)
    to_play = [p.board for p in paired.pairing.matches if p.board not in forfeited]
    assert len(forfeited) == (0 if "e2" in paired.pairing.byes else 1)
    started = start_round(organiser, cid, 2)
    assert sorted(started.tables[2]) == to_play
    rows = CompetitionTable.objects.filter(competition_id=cid, round=2)
    assert sorted(row.board for row in rows) == to_play
    for row in rows:
        pairing = next(p for p in paired.pairing.matches if p.board == row.board)
        assert row.seated["north_south"] == list(state.players_in(pairing.north_south, 2))
        assert row.seated["east_west"] == list(state.players_in(pairing.east_west, 2))
