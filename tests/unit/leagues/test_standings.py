"""Standings and tie-break chains: worked examples computed by hand in the comments."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.core.entrants import Entrant
from leagues.core.errors import LeagueError
from leagues.core.lots import lot
from leagues.core.results import (
    Award,
    MatchFormat,
    MatchPoints,
    MatchResult,
    Side,
    check_result,
)
from leagues.core.standings import compute_standings, stale_pairings
from leagues.core.tiebreaks import TIEBREAK_NAMES
from leagues.core.whatif import compare


def entrants(names: str) -> list[Entrant]:
    return [Entrant(name, (f"{name}1", f"{name}2")) for name in names]


def won(
    rid: str, rnd: int, board: int, north: str, east: str, ns: int, ew: int, seq: int = 0
) -> MatchResult:
    return MatchResult(
        rid, rnd, board, north, east, ns, ew, "north_south" if ns > ew else "east_west", seq
    )


# A four-entrant round robin, win 2 / loss 0 (games to the target: no draws).
#   R1: A 500-300 B, C 520-480 D     R2: A 510-490 C, B 500-200 D     R3: D 505-495 A, B 500-450 C
# Match points: A 2+2+0 = 4, B 0+2+2 = 4, C 2+0+0 = 2, D 0+0+2 = 2.
# Game points for/against: A 1505/1295 (+210), B 1300/1150 (+150), C 1460/1490 (-30),
#   D 1185/1515 (-330).
# Buchholz (opponents' match points): A: B4+C2+D2 = 8, B: A4+D2+C2 = 8, C: D2+A4+B4 = 10,
#   D: C2+B4+A4 = 10.
# Sonneborn-Berger (match points earned x opponent's match points): A: 2x4 (B) + 2x2 (C) + 0 = 12;
#   B: 0 + 2x2 (D) + 2x2 (C) = 8; C: 2x2 (D) + 0 + 0 = 4; D: 0 + 0 + 2x4 (A) = 8.
ROUND_ROBIN = [
    won("r1", 1, 1, "A", "B", 500, 300, 1),
    won("r2", 1, 2, "C", "D", 520, 480, 2),
    won("r3", 2, 1, "A", "C", 510, 490, 3),
    won("r4", 2, 2, "B", "D", 500, 200, 4),
    won("r5", 3, 1, "D", "A", 505, 495, 5),
    won("r6", 3, 2, "B", "C", 500, 450, 6),
]


def test_head_to_head_orders_the_tied_pairs() -> None:
    # A and B tie on 4: A beat B. C and D tie on 2: C beat D. So A, B, C, D.
    table = compute_standings(entrants("ABCD"), ROUND_ROBIN, tiebreaks=["head_to_head"])
    assert table.order() == ["A", "B", "C", "D"]
    a, b, c, d = table.rows
    assert (a.match_points, a.game_points, a.game_points_against, a.point_differential) == (
        4,
        1505,
        1295,
        210,
    )
    assert (b.point_differential, c.point_differential, d.point_differential) == (150, -30, -330)
    assert (a.tiebreaks["head_to_head"], b.tiebreaks["head_to_head"]) == (2, 0)
    assert (c.tiebreaks["head_to_head"], d.tiebreaks["head_to_head"]) == (2, 0)


def test_buchholz_then_sonneborn_berger_puts_d_above_c() -> None:
    # A, B: Buchholz 8 each, then SB 12 > 8: A first. C, D: Buchholz 10 each, SB 4 < 8: D above C.
    table = compute_standings(
        entrants("ABCD"), ROUND_ROBIN, tiebreaks=["buchholz", "sonneborn_berger"]
    )
    assert table.order() == ["A", "B", "D", "C"]
    assert [row.tiebreaks["buchholz"] for row in table.rows] == [8, 8, 10, 10]
    assert [row.tiebreaks["sonneborn_berger"] for row in table.rows] == [12, 8, 8, 4]
    # What-if: the same results under head-to-head first swap C and D.
    other = compute_standings(entrants("ABCD"), ROUND_ROBIN, tiebreaks=["head_to_head"])
    moves = compare(table, other).as_dict()
    assert moves == {
        "moves": [
            {"entrant": "C", "before": 4, "after": 3, "change": 1},
            {"entrant": "D", "before": 3, "after": 4, "change": -1},
        ],
        "unchanged": 2,
    }


def test_byes_count_as_a_virtual_opponent_with_the_entrants_own_score() -> None:
    # Three entrants, one bye each round (bye = 2).
    #   R1: A 500-400 B (bye C)   R2: C 500-450 A (bye B)   R3: B 500-300 C (bye A)
    # Everyone: one win, one loss, one bye = 4 match points. Head-to-head among all three:
    #   2 each (a cycle). Buchholz: A = B4 + C4 + virtual 4 (own score) = 12, the same for all.
    #   SB: A = 2x4 (beat B) + 0 + 2x4 (bye, virtual opponent on 4) = 16, the same for all.
    # Point differential: A +100-50 = +50, B -100+200 = +100, C +50-200 = -150: B, A, C.
    results = [
        won("a", 1, 1, "A", "B", 500, 400),
        won("b", 2, 1, "C", "A", 500, 450),
        won("c", 3, 1, "B", "C", 500, 300),
    ]
    byes = [Award("x", 1, "C"), Award("y", 2, "B"), Award("z", 3, "A")]
    table = compute_standings(entrants("ABC"), results, byes)
    assert table.order() == ["B", "A", "C"]
    for row in table.rows:
        assert (row.match_points, row.byes, row.wins, row.losses) == (4, 1, 1, 1)
        assert row.tiebreaks["head_to_head"] == 2
        assert row.tiebreaks["buchholz"] == 12
        assert row.tiebreaks["sonneborn_berger"] == 16
    assert [row.point_differential for row in table.rows] == [100, 50, -150]


def test_forfeits_score_a_win_without_game_points_and_count_as_unplayed() -> None:
    # R1: A beats C 500-400; B v D: D did not turn up (no-show), B wins by forfeit.
    # A: 2 MP, +100, Buchholz = C's 0 = 0. B: 2 MP, game points 0 (the forfeit scores none),
    #   Buchholz = virtual opponent with B's own 2 = 2, so B is above A on Buchholz.
    results = [
        won("a", 1, 1, "A", "C", 500, 400),
        check_result(
            MatchResult(
                "b", 1, 2, "B", "D", 0, 0, "north_south", forfeited_by="east_west", no_show=True
            ),
            MatchFormat(),
        ),
    ]
    table = compute_standings(entrants("ABCD"), results, tiebreaks=["buchholz"])
    assert table.order()[:2] == ["B", "A"]
    b = table.rows[0]
    assert (b.match_points, b.game_points, b.played, b.wins) == (2, 0, 0, 1)
    assert b.tiebreaks["buchholz"] == 2


def forfeit(rid: str, rnd: int, board: int, north: str, east: str, by: Side) -> MatchResult:
    winner: Side = "east_west" if by == "north_south" else "north_south"
    return MatchResult(rid, rnd, board, north, east, 0, 0, winner, forfeited_by=by)


def test_a_withdrawn_opponent_counts_with_the_match_points_it_had_when_it_left() -> None:
    # A round robin of four, win 2 / loss 0 / forfeit_loss 1. D withdraws after round 1;
    # its kept slots in rounds 2 and 3 are its forfeits, worth forfeit_loss = 1 to it.
    #   R1: A 500-300 D, B 500-400 C     R2: A 510-490 C, B v D: D forfeits
    #   R3: B 500-450 A, C v D: D forfeits
    # Match points: A 2+2+0 = 4, B 2+2+2 = 6, C 0+0+2 = 2, D 0+1+1 = 2, of which D had 0
    # when it left.
    # Buchholz (each round's opponent score; a forfeit either way is a virtual opponent
    # on one's own score):
    #   A: D 0 (as it left; not its final 2) + C 2 + B 6 = 8 (it was 10 before issue 17)
    #   B: C 2 + virtual 6 + A 4 = 12      C: B 6 + A 4 + virtual 2 = 12
    #   D: A 4 + virtual 2 + virtual 2 = 8 (its own rounds after leaving are forfeit losses)
    # Sonneborn-Berger (match points earned x that opponent score):
    #   A: 2x0 (D) + 2x2 (C) + 0x6 (B) = 4 (it was 8)
    #   B: 2x2 + 2x6 + 2x4 = 24      C: 0x6 + 0x4 + 2x2 = 4      D: 0x4 + 1x2 + 1x2 = 4
    people = entrants("ABCD")
    people[3] = Entrant("D", ("D1", "D2"), withdrawn_after_round=1)
    results = [
        won("r1", 1, 1, "A", "D", 500, 300, 1),
        won("r2", 1, 2, "B", "C", 500, 400, 2),
        won("r3", 2, 1, "A", "C", 510, 490, 3),
        forfeit("r4", 2, 2, "B", "D", "east_west"),
        won("r5", 3, 1, "B", "A", 500, 450, 5),
        forfeit("r6", 3, 2, "C", "D", "east_west"),
    ]
    table = compute_standings(
        people,
        results,
        points=MatchPoints(forfeit_loss=1),
        tiebreaks=["buchholz", "sonneborn_berger"],
    )
    rows = {row.entrant: row for row in table.rows}
    assert {e: r.match_points for e, r in rows.items()} == {"A": 4, "B": 6, "C": 2, "D": 2}
    assert {e: r.tiebreaks["buchholz"] for e, r in rows.items()} == {
        "A": 8,
        "B": 12,
        "C": 12,
        "D": 8,
    }
    assert {e: r.tiebreaks["sonneborn_berger"] for e, r in rows.items()} == {
        "A": 4,
        "B": 24,
        "C": 4,
        "D": 4,
    }
    assert table.order() == ["B", "A", "C", "D"] and rows["D"].withdrawn
    # Before it left, D counted with what it had then too: through round 1 nothing differs.
    early = compute_standings(people, results, points=MatchPoints(forfeit_loss=1), through_round=1)
    assert {row.entrant: row.tiebreaks["buchholz"] for row in early.rows}["A"] == 0


def test_the_draw_of_lots_orders_entrants_nothing_else_separates() -> None:
    # A and B each beat a different opponent 500-400 and never met: equal on everything.
    results = [won("a", 1, 1, "A", "C", 500, 400), won("b", 1, 2, "B", "D", 500, 400)]
    for seed in ("one", "two", "three", "four"):
        expected = sorted("AB", key=lambda e: lot(seed, "lots", e))
        for ordering in (results, results[::-1]):
            table = compute_standings(entrants("ABCD"), ordering, lots_seed=seed)
            assert table.order()[:2] == expected


def test_a_correction_replaces_the_result_and_reports_the_stale_pairings() -> None:
    # r1 said A beat B; the organiser corrects it (sequence 4): B won. Round 2 was paired from
    # version 2 (after r1, r2) so it used the old r1; round 3 from version 4 saw the correction.
    corrected = MatchResult("r1c", 1, 1, "A", "B", 300, 500, "east_west", 4, corrects="r1")
    results = [*ROUND_ROBIN[:2], corrected]
    table = compute_standings(entrants("ABCD"), results, tiebreaks=["head_to_head"])
    assert table.rows[0].entrant in ("B", "C")
    assert {row.entrant: row.match_points for row in table.rows} == {"A": 0, "B": 2, "C": 2, "D": 0}
    assert [s.as_dict() for s in stale_pairings(results, [(2, 2), (3, 4)])] == [
        {"round": 2, "result": "r1", "corrected_by": "r1c"}
    ]
    assert table.results_version == 4


def test_draws_only_in_fixed_hands_matches() -> None:
    draw = MatchResult("d", 1, 1, "A", "B", 300, 300, None)
    with pytest.raises(LeagueError) as refused:
        check_result(draw, MatchFormat())
    assert refused.value.code == "draw_not_possible"
    check_result(draw, MatchFormat(fixed_hands=8))
    table = compute_standings(entrants("AB"), [draw])
    assert [row.match_points for row in table.rows] == [1, 1]


def test_a_bad_tiebreak_name_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(LeagueError) as refused:
        compute_standings(entrants("AB"), [], tiebreaks=["buchholtz"])
    assert refused.value.code == "unknown_tiebreak"
    assert all(name in refused.value.message for name in TIEBREAK_NAMES)
    with pytest.raises(LeagueError) as refused:
        compute_standings(entrants("AB"), [], tiebreaks=["lots", "wins"])
    assert refused.value.code == "lots_not_last"


@given(count=st.integers(2, 9), seed=st.integers(0, 10**6))
def test_standings_are_deterministic_and_do_not_depend_on_the_result_order(
    count: int, seed: int
) -> None:
    rng = random.Random(seed)
    names = "ABCDEFGHI"[:count]
    results = []
    for n, (north, east) in enumerate(
        (a, b) for i, a in enumerate(names) for b in names[i + 1 :] if rng.random() < 0.7
    ):
        ns, ew = rng.choice([(500, 300), (300, 500), (510, 490), (490, 510)])
        results.append(won(f"r{n}", 1 + n % 5, 1 + n, north, east, ns, ew, n + 1))
    shuffled = list(results)
    rng.shuffle(shuffled)
    people = entrants(names)
    first = compute_standings(people, results, lots_seed="s")
    assert first == compute_standings(people[::-1], shuffled, lots_seed="s")
    assert sorted(first.order()) == sorted(names)
    assert [row.rank for row in first.rows] == list(range(1, count + 1))
