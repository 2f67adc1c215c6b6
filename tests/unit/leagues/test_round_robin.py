"""Round robin: every pair meets once (twice when double), one match per entrant per round."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from leagues.core import round_robin
from leagues.core.commitment import derive


def ids(count: int) -> list[str]:
    return [f"e{n}" for n in range(count)]


@given(count=st.integers(2, 24), double=st.booleans(), seed=st.text("abc", min_size=1))
def test_every_pair_meets_once_or_twice_and_nobody_plays_twice_a_round(
    count: int, double: bool, seed: str
) -> None:
    rounds = round_robin.schedule(ids(count), seed, double)
    assert len(rounds) == round_robin.rounds_needed(count, double)
    meetings: Counter[frozenset[str]] = Counter()
    orientations: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    for paired in rounds:
        entrants = paired.entrants()
        assert len(entrants) == len(set(entrants)) == count
        assert len(paired.byes) == count % 2
        byes.update(paired.byes)
        for match in paired.matches:
            meetings[frozenset((match.north_south, match.east_west))] += 1
            orientations[(match.north_south, match.east_west)] += 1
    assert set(meetings) == {frozenset(pair) for pair in combinations(ids(count), 2)}
    assert set(meetings.values()) == {2 if double else 1}
    if double:
        # Once each way round: the second cycle swaps every orientation.
        assert set(orientations.values()) == {1}
    if count % 2:
        assert byes == Counter({entrant: 2 if double else 1 for entrant in ids(count)})


@given(count=st.integers(2, 24), seed=st.text("xyz", min_size=1))
def test_north_south_and_east_west_are_balanced_and_alternate(count: int, seed: str) -> None:
    rounds = round_robin.schedule(ids(count), seed)
    sides: dict[str, str] = {entrant: "" for entrant in ids(count)}
    for paired in rounds:
        for match in paired.matches:
            sides[match.north_south] += "N"
            sides[match.east_west] += "E"
    for history in sides.values():
        assert abs(history.count("N") - history.count("E")) <= 1
        # Alternating round to round, but for at most one repeat (around the fixed slot).
        repeats = sum(1 for a, b in zip(history, history[1:], strict=False) if a == b)
        assert repeats <= 1


def test_the_draw_of_lots_sets_positions_and_as_listed_keeps_them() -> None:
    # Circle method, 4 slots [a, b, c, d]: d is fixed, a b c rotate (m = 3).
    # Round 0: x + y = 0 (mod 3): b(1) v c(2); a (2·0 = 0) meets d; even round: d North-South.
    #          (1 - 2) mod 3 = 2 is even, so c sits North-South against b.
    first = round_robin.schedule(["a", "b", "c", "d"], "s", order="as_listed")[0]
    assert [(m.north_south, m.east_west) for m in first.matches] == [("d", "a"), ("c", "b")]
    assert round_robin.schedule(ids(6), "one") != round_robin.schedule(ids(6), "two")


def test_a_round_derives_from_its_canonical_input() -> None:
    document = round_robin.canonical_input(3, ids(5), double=True)
    assert derive("seed", document) == round_robin.schedule(ids(5), "seed", True)[2]
    later = round_robin.canonical_input(8, ids(4), first_round=6)
    assert derive("seed", later).number == 8
    assert derive("seed", later).matches == round_robin.schedule(ids(4), "seed")[2].matches
