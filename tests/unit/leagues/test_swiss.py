"""Swiss: no rematch while a rematch-free pairing exists (brute force), byes, orientation."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.core import swiss
from leagues.core.commitment import derive
from leagues.core.pairings import Pairing, RoundPairing, histories
from leagues.core.swiss import SwissEntrant, swiss_entrants


def rematch_free_pairing_exists(field: list[SwissEntrant]) -> bool:
    """Brute force: any choice of bye (among those with the fewest) and any pairing."""
    met = {e.id: set(e.opponents) for e in field}
    fewest = min(e.byes for e in field)
    choices: list[str | None] = (
        [e.id for e in field if e.byes == fewest] if len(field) % 2 else [None]
    )

    @cache
    def free(people: tuple[str, ...]) -> bool:
        if not people:
            return True
        first, rest = people[0], people[1:]
        return any(
            partner not in met[first] and free(rest[:i] + rest[i + 1 :])
            for i, partner in enumerate(rest)
        )

    return any(free(tuple(e.id for e in field if e.id != bye)) for bye in choices)


def play(paired: RoundPairing, scores: dict[str, int], rng: random.Random) -> None:
    for match in paired.matches:
        scores[rng.choice((match.north_south, match.east_west))] += 2
    for bye in paired.byes:
        scores[bye] += 2


def swiss_event(
    entrants: list[str],
    ratings: dict[str, int],
    rounds: int,
    seed: str,
    rng: random.Random,
    check: Callable[[list[SwissEntrant], RoundPairing], None] | None = None,
) -> list[RoundPairing]:
    """Pair and play ``rounds`` rounds (random winners), ``check`` called on each round."""
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, rounds + 1):
        field = swiss_entrants(scores, ratings, histories(done))
        paired = swiss.pair(number, field, seed)
        if check is not None:
            check(field, paired)
        done.append(paired)
        play(paired, scores, rng)
    return done


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 10), rounds=st.integers(1, 9), seed=st.integers(0, 10**6))
def test_rounds_never_rematch_while_a_rematch_free_pairing_exists(
    count: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = [f"e{n}" for n in range(count)]
    ratings = {e: rng.randint(0, 30) for e in entrants}
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, rounds + 1):
        field = swiss_entrants(scores, ratings, histories(done))
        paired = swiss.pair(number, field, str(seed))
        # Every entrant in exactly one match or the bye.
        assert sorted(paired.entrants()) == sorted(entrants)
        assert len(paired.byes) == count % 2
        # No second bye while another entrant has none (the fewest byes get it).
        fewest = min(e.byes for e in field)
        for bye in paired.byes:
            assert next(e for e in field if e.id == bye).byes == fewest
        rematches = [
            m
            for m in paired.matches
            if m.east_west in next(e for e in field if e.id == m.north_south).opponents
        ]
        if rematch_free_pairing_exists(field):
            assert rematches == [], (number, field)
        done.append(paired)
        play(paired, scores, rng)


@settings(max_examples=25, deadline=None)
@given(count=st.integers(3, 12), seed=st.integers(0, 10**6))
def test_the_bye_goes_to_the_lowest_ranked_entrant_without_one(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [f"e{n}" for n in range(count | 1)]
    ratings = {e: rng.randint(0, 30) for e in entrants}
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    byes_so_far: set[str] = set()
    for number in range(1, 4):
        field = swiss_entrants(scores, ratings, histories(done))
        paired = swiss.pair(number, field, "s")
        ranked = swiss.ranking(field, "s")
        candidates = [e.id for e in ranked if e.id not in byes_so_far]
        # Lowest ranked first choice unless only a rematch elsewhere would allow it.
        assert paired.byes[0] in candidates
        if number == 1:
            assert paired.byes[0] == candidates[-1]
        byes_so_far.update(paired.byes)
        done.append(paired)
        play(paired, scores, rng)


def test_orientation_balances_over_the_rounds() -> None:
    rng = random.Random(3)
    entrants = [f"e{n:02d}" for n in range(16)]
    ratings = {e: n for n, e in enumerate(entrants)}
    done = swiss_event(entrants, ratings, 6, "seed", rng)
    for history in histories(done).values():
        assert abs(history.balance) <= 2, history.orientations


def test_round_one_is_the_seeded_fold_top_half_against_bottom_half() -> None:
    entrants = {f"e{n}": 10 - n for n in range(6)}  # e0 the highest rated
    field = swiss_entrants(dict.fromkeys(entrants, 0), entrants, {})
    paired = swiss.pair(1, field, "seed")
    pairs = [{m.north_south, m.east_west} for m in paired.matches]
    assert pairs == [{"e0", "e3"}, {"e1", "e4"}, {"e2", "e5"}]


def test_score_groups_pair_within_themselves_top_against_next() -> None:
    # After round 1 of eight: a b c d won (2), e f g h lost (0), nobody has met twice.
    ratings = {name: 8 - n for n, name in enumerate("abcdefgh")}
    scores = {"a": 2, "b": 2, "c": 2, "d": 2, "e": 0, "f": 0, "g": 0, "h": 0}
    first = RoundPairing(
        1,
        tuple(
            Pairing(board, north, east)
            for board, (north, east) in enumerate(
                [("a", "e"), ("f", "b"), ("c", "g"), ("h", "d")], 1
            )
        ),
    )
    paired = swiss.pair(2, swiss_entrants(scores, ratings, histories([first])), "seed")
    pairs = [{m.north_south, m.east_west} for m in paired.matches]
    assert pairs == [{"a", "b"}, {"c", "d"}, {"e", "f"}, {"g", "h"}]
    # a sat North-South and b East-West in round 1, so b gets North-South now.
    assert (paired.matches[0].north_south, paired.matches[0].east_west) == ("b", "a")


def test_pairing_is_deterministic_and_ignores_the_input_order() -> None:
    rng = random.Random(9)
    entrants = [f"e{n}" for n in range(21)]
    ratings = {e: rng.randint(0, 5) for e in entrants}
    scores = {e: 2 * rng.randint(0, 3) for e in entrants}
    field = swiss_entrants(scores, ratings, {})
    document = swiss.canonical_input(2, field)
    shuffled = list(field)
    rng.shuffle(shuffled)
    assert swiss.pair(2, field, "k") == swiss.pair(2, shuffled, "k")
    assert derive("k", document) == swiss.pair(2, field, "k")


def test_a_large_field_uses_the_window_and_still_avoids_rematches() -> None:
    rng = random.Random(4)
    entrants = [f"e{n:03d}" for n in range(101)]
    ratings = {e: rng.randint(0, 40_000) for e in entrants}
    met = histories(swiss_event(entrants, ratings, 7, "w", rng))
    assert all(max(h.opponents.values()) == 1 for h in met.values())
    assert sorted(h.byes for h in met.values()).count(1) == 7


def test_a_field_paired_in_blocks_keeps_the_rules() -> None:
    # 301 entrants: the ranking is cut into blocks of 64 or more, each paired on its own.
    rng = random.Random(8)
    entrants = [f"e{n:03d}" for n in range(301)]
    ratings = {e: rng.randint(0, 40_000) for e in entrants}
    assert (
        len(
            swiss._blocks(
                swiss.ranking(swiss_entrants(dict.fromkeys(entrants, 0), ratings, {}), "b")
            )
        )
        == 4
    )

    def check(field: list[SwissEntrant], paired: RoundPairing) -> None:
        assert sorted(paired.entrants()) == sorted(entrants)
        fewest = min(e.byes for e in field)
        assert all(next(e for e in field if e.id == b).byes == fewest for b in paired.byes)

    done = swiss_event(entrants, ratings, 6, "b", rng, check)
    met = histories(done)
    assert all(max(h.opponents.values()) == 1 for h in met.values())
    assert sorted(h.byes for h in met.values()).count(1) == 6
