"""Swiss: no rematch while a rematch-free pairing exists (brute force), byes, orientation."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.core import swiss
from leagues.core.commitment import commitment, derive, verify_round
from leagues.core.pairings import Pairing, RoundPairing, histories
from leagues.core.swiss import SwissEntrant, swiss_entrants


def play(
    paired: RoundPairing, scores: dict[str, int], rng: random.Random, draws: float = 0.0
) -> None:
    """Random results (a draw, 1 point each, with probability ``draws``); a bye wins."""
    for match in paired.matches:
        if rng.random() < draws:
            scores[match.north_south] += 1
            scores[match.east_west] += 1
        else:
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
    draws: float = 0.0,
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
        play(paired, scores, rng, draws)
    return done


Key = tuple[int, int, int]


def best_key(ranked: list[SwissEntrant]) -> Key:
    """Brute force over every pairing and every allowed bye: the best (minus the times
    the paired entrants met before, the bye's place in the ranking, the pairs inside a
    score group), compared in that order as the criteria are."""
    ids = tuple(e.id for e in ranked)
    met = {e.id: Counter(e.opponents) for e in ranked}
    score = {e.id: e.score for e in ranked}

    @cache
    def best(people: tuple[str, ...]) -> tuple[int, int]:
        if not people:
            return 0, 0
        first, rest = people[0], people[1:]
        options = []
        for index, partner in enumerate(rest):
            times, same = best(rest[:index] + rest[index + 1 :])
            options.append((times - met[first][partner], same + (score[first] == score[partner])))
        return max(options)

    if len(ids) % 2 == 0:
        times, same = best(ids)
        return times, 0, same
    fewest = min(e.byes for e in ranked)
    options = []
    for place, entrant in enumerate(ranked):
        if entrant.byes == fewest:
            times, same = best(tuple(i for i in ids if i != entrant.id))
            options.append((times, place, same))
    return max(options)


def key_of(ranked: list[SwissEntrant], pairs: list[tuple[str, str]], bye: str | None) -> Key:
    met = {e.id: Counter(e.opponents) for e in ranked}
    score = {e.id: e.score for e in ranked}
    place = {e.id: index for index, e in enumerate(ranked)}
    return (
        -sum(met[a][b] for a, b in pairs),
        0 if bye is None else place[bye],
        sum(1 for a, b in pairs if score[a] == score[b]),
    )


def pairs_of(paired: RoundPairing) -> list[tuple[str, str]]:
    return [(m.north_south, m.east_west) for m in paired.matches]


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 12),
    rounds=st.integers(2, 11),
    seed=st.integers(0, 10**6),
    draws=st.booleans(),
)
def test_every_round_is_as_good_as_brute_force_on_rematches_the_bye_and_score_groups(
    count: int, rounds: int, seed: int, draws: bool
) -> None:
    """No avoidable rematch (the fewest times met), the bye to the lowest-ranked entrant
    with the fewest byes whose bye leaves the best pairing of the rest, and the fewest
    cross-group pairs: compared with every pairing there is.  The same for the windowed
    pairing (forced here on fields that small: no whole graph, a window of 2, blocks
    of 4), which must certify itself against the whole-field bound or widen."""
    rng = random.Random(seed)
    entrants = [f"e{n}" for n in range(count)]
    ratings = {e: rng.randint(0, 30) for e in entrants}
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, rounds + 1):
        field = swiss_entrants(scores, ratings, histories(done))
        paired = swiss.pair(number, field, str(seed))
        assert sorted(paired.entrants()) == sorted(entrants)
        if number > 1:
            ranked = swiss.ranking(field, str(seed))
            best = best_key(ranked)
            got = key_of(ranked, pairs_of(paired), next(iter(paired.byes), None))
            assert got[0] == best[0], f"round {number}: an avoidable rematch"
            assert got[1] == best[1], f"round {number}: the bye rule"
            assert got[2] == best[2], f"round {number}: a cross-group pair too many"
            windowed = swiss.match_field(ranked, whole_field=0, window=2, block=4)
            assert key_of(ranked, *windowed) == best, f"round {number}: the window"
            if best[0] == 0:
                # The bound is a bound: no rematch-free pairing with that bye beats it.
                bye = ranked[best[1]].id if count % 2 else None
                assert swiss.same_group_bound(ranked, bye) >= best[2]
        done.append(paired)
        play(paired, scores, rng, draws=0.2 if draws else 0.0)


def test_the_bye_no_longer_goes_to_the_leader_issue_17() -> None:
    """11 entrants, round 7 (issue 17): version 1 gave the bye (a win) to the leader, e10,
    while four lower-ranked entrants without a bye (e02, e08, e06, e07) could each take
    it with a rematch-free pairing of the rest.  It goes to the lowest of them now; the
    round committed under version 1 still re-derives as it was published."""
    rows = [
        ("e10", 10, 1100, 0, "e00 e01 e02 e05 e06 e08", "NEENEN"),
        ("e00", 10, 1000, 1, "e02 e05 e06 e09 e10", "NENEE"),
        ("e02", 8, 1020, 0, "e00 e06 e07 e08 e09 e10", "NENENN"),
        ("e01", 8, 1010, 1, "e04 e06 e07 e08 e10", "ENENE"),
        ("e08", 6, 1080, 0, "e01 e02 e03 e05 e06 e10", "ENENEN"),
        ("e06", 6, 1060, 0, "e00 e01 e02 e04 e08 e10", "NENENE"),
        ("e05", 6, 1050, 1, "e00 e03 e07 e08 e10", "ENNEN"),
        ("e04", 6, 1040, 1, "e01 e03 e06 e07 e09", "ENENE"),
        ("e09", 4, 1090, 1, "e00 e02 e03 e04 e07", "NENEN"),
        ("e07", 4, 1070, 0, "e01 e02 e03 e04 e05 e09", "ENENEN"),
        ("e03", 4, 1030, 1, "e04 e05 e07 e08 e09", "NEENE"),
    ]
    field = [
        SwissEntrant(id, score, rating, byes, tuple(met.split()), sides)
        for id, score, rating, byes, met, sides in rows
    ]
    ranked = swiss.ranking(field, "lots")
    assert [e.id for e in ranked] == [row[0] for row in rows]  # e10 leads

    paired = swiss.pair(7, field, "lots")
    assert paired.byes == ("e07",)
    assert key_of(ranked, pairs_of(paired), "e07") == best_key(ranked)

    old = swiss.canonical_input(7, field) | {"engine_version": 1}
    assert derive("lots", old).byes == ("e10",)
    committed = commitment("lots", old)
    assert verify_round(old, "lots", committed, derive("lots", old).as_dict()).ok
    assert derive("lots", swiss.canonical_input(7, field)).byes == ("e07",)


def test_the_fewest_cross_group_pairs_come_before_short_floats() -> None:
    """The fewest cross-group pairs come before the smallest score differences: two odd
    groups far apart meet through their floaters, not through a chain of floats."""
    # Groups 4 (3 entrants), 2 (2) and 0 (3), nobody has met: 4 floats to 0 directly
    # (one cross-group pair) rather than 4 -> 2 and 2 -> 0 (two).
    field = [
        SwissEntrant(f"e{n}", score, 0, 0, (f"x{n}",), "N")
        for n, score in enumerate([4, 4, 4, 2, 2, 0, 0, 0])
    ]
    paired = swiss.pair(3, field, "s")
    score = {e.id: e.score for e in field}
    crossing = [
        (score[m.north_south], score[m.east_west])
        for m in paired.matches
        if score[m.north_south] != score[m.east_west]
    ]
    assert sorted(map(sorted, crossing)) == [[0, 4]]


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


def check_certified(field: list[SwissEntrant], paired: RoundPairing) -> None:
    """A large field's round: everyone once, and as good as the whole-field bound on
    the bye and on the pairs inside score groups (nobody can have met everyone here)."""
    assert sorted(paired.entrants()) == sorted(e.id for e in field)
    ranked = swiss.ranking(field, "w")
    goal = swiss.target(ranked)
    assert key_of(ranked, pairs_of(paired), next(iter(paired.byes), None)) == (
        0,
        0 if goal.bye is None else [e.id for e in ranked].index(goal.bye),
        goal.same_group,
    )


def test_a_large_field_uses_the_window_and_keeps_the_rules() -> None:
    rng = random.Random(4)
    entrants = [f"e{n:03d}" for n in range(101)]
    ratings = {e: rng.randint(0, 40_000) for e in entrants}
    met = histories(swiss_event(entrants, ratings, 9, "w", rng, check_certified, draws=0.2))
    assert all(max(h.opponents.values()) == 1 for h in met.values())
    assert sorted(h.byes for h in met.values()).count(1) == 9


def test_a_field_paired_in_blocks_keeps_the_rules() -> None:
    # 301 entrants: the ranking is cut into blocks of 64 or more, paired one after the
    # other (a block of odd size hands a floater to the next).
    rng = random.Random(8)
    entrants = [f"e{n:03d}" for n in range(301)]
    ratings = {e: rng.randint(0, 40_000) for e in entrants}
    first = swiss.ranking(swiss_entrants(dict.fromkeys(entrants, 0), ratings, {}), "w")
    assert len(swiss._slices(first, swiss.BLOCK)) == 4
    done = swiss_event(entrants, ratings, 6, "w", rng, check_certified, draws=0.2)
    met = histories(done)
    assert all(max(h.opponents.values()) == 1 for h in met.values())
    assert sorted(h.byes for h in met.values()).count(1) == 6


def test_a_block_cut_never_splits_a_score_group_into_two_odd_parts() -> None:
    # One group of 200 after an odd group of 3: a cut inside the big group leaves an
    # even part of it above the cut (the block above is then odd and hands its floater
    # down), so the big group still pairs inside itself.
    field = [SwissEntrant(f"a{n}", 6, 0, 0, (), "") for n in range(3)] + [
        SwissEntrant(f"b{n:03d}", 4, 0, 0, (), "") for n in range(200)
    ]
    ranked = swiss.ranking(field, "s")
    slices = swiss._slices(ranked, swiss.BLOCK)
    assert all((len(piece) - 3 * (index == 0)) % 2 == 0 for index, piece in enumerate(slices))
    pairs, bye = swiss.match_field(ranked)
    score = {e.id: e.score for e in field}
    assert sum(1 for a, b in pairs if score[a] != score[b]) == 1
    assert bye == ranked[-1].id
