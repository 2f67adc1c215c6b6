"""Forbidden pairs: no engine pairs two entrants kept apart while a pairing without them
exists (brute force), the fewest such meetings when none does, and the rules below them
(no avoidable rematch, the bye rule, score groups) still hold. Old versions re-derive
their rounds exactly as they did."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.core import knockout, swiss
from leagues.core.commitment import commitment, derive, verify_round
from leagues.core.competition import pair_next_round
from leagues.core.competition_file import (
    CompetitionFileError,
    competition_document,
    read_competition,
)
from leagues.core.pairings import (
    RoundPairing,
    forbidden_among,
    forbidden_meetings,
    forbidden_pair,
    histories,
)
from leagues.core.swiss import SwissEntrant, swiss_entrants

from .test_competition_file import GOOD
from .test_swiss import pairs_of, play

Key = tuple[int, int, int, int]
Forbidden = frozenset[tuple[str, str]]


def best_key(ranked: list[SwissEntrant], forbidden: Forbidden) -> Key:
    """Brute force over every pairing and allowed bye: the best (minus the forbidden
    meetings, minus the times the paired entrants met, the bye's place, the pairs inside
    a score group), compared in that order as the version 3 criteria are."""
    ids = tuple(e.id for e in ranked)
    met = {e.id: Counter(e.opponents) for e in ranked}
    score = {e.id: e.score for e in ranked}

    @cache
    def best(people: tuple[str, ...]) -> tuple[int, int, int]:
        if not people:
            return 0, 0, 0
        first, rest = people[0], people[1:]
        options = []
        for index, partner in enumerate(rest):
            bad, times, same = best(rest[:index] + rest[index + 1 :])
            options.append(
                (
                    bad - (forbidden_pair(first, partner) in forbidden),
                    times - met[first][partner],
                    same + (score[first] == score[partner]),
                )
            )
        return max(options)

    if len(ids) % 2 == 0:
        bad, times, same = best(ids)
        return bad, times, 0, same
    fewest = min(e.byes for e in ranked)
    options = []
    for place, entrant in enumerate(ranked):
        if entrant.byes == fewest:
            bad, times, same = best(tuple(i for i in ids if i != entrant.id))
            options.append((bad, times, place, same))
    return max(options)


def key_of(
    ranked: list[SwissEntrant], pairs: list[tuple[str, str]], bye: str | None, forbidden: Forbidden
) -> Key:
    met = {e.id: Counter(e.opponents) for e in ranked}
    score = {e.id: e.score for e in ranked}
    place = {e.id: index for index, e in enumerate(ranked)}
    return (
        -sum(1 for a, b in pairs if forbidden_pair(a, b) in forbidden),
        -sum(met[a][b] for a, b in pairs),
        0 if bye is None else place[bye],
        sum(1 for a, b in pairs if score[a] == score[b]),
    )


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(2, 11),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
    density=st.sampled_from([0.1, 0.3, 0.6]),
)
def test_no_forbidden_pair_meets_while_a_pairing_without_it_exists(
    count: int, rounds: int, seed: int, density: float
) -> None:
    """Every round (the first, the fold, included) is as good as brute force on the
    forbidden meetings first, then the rematches, the bye and the score groups; so is
    the windowed path (forced on these small fields) that large fields take."""
    rng = random.Random(seed)
    entrants = [f"e{n}" for n in range(count)]
    ratings = {e: rng.randint(0, 30) for e in entrants}
    forbidden = frozenset(
        forbidden_pair(a, b)
        for i, a in enumerate(entrants)
        for b in entrants[i + 1 :]
        if rng.random() < density
    )
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, rounds + 1):
        field = swiss_entrants(scores, ratings, histories(done))
        document = swiss.canonical_input(number, field, forbidden=forbidden)
        paired = derive(str(seed), document)
        assert sorted(paired.entrants()) == sorted(entrants)
        ranked = swiss.ranking(field, str(seed))
        best = best_key(ranked, forbidden)
        got = key_of(ranked, pairs_of(paired), next(iter(paired.byes), None), forbidden)
        assert got[0] == best[0], f"round {number}: an avoidable forbidden meeting"
        if number > 1:
            assert got == best, f"round {number}: {got} is worse than {best}"
            windowed = swiss.match_field(
                ranked, whole_field=0, window=2, block=4, forbidden=forbidden
            )
            assert key_of(ranked, *windowed, forbidden) == best, f"round {number}: the window"
        assert len(forbidden_meetings(paired, forbidden)) == -best[0]
        done.append(paired)
        play(paired, scores, rng)


@settings(max_examples=30, deadline=None)
@given(count=st.integers(2, 12), rounds=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_with_nothing_forbidden_version_3_pairs_exactly_as_version_2(
    count: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = [f"e{n}" for n in range(count)]
    ratings = {e: rng.randint(0, 30) for e in entrants}
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, rounds + 1):
        field = swiss_entrants(scores, ratings, histories(done))
        current = swiss.pair(number, field, str(seed))
        assert current == swiss.pair(number, field, str(seed), version=2)
        done.append(current)
        play(current, scores, rng)


def test_the_fold_is_kept_unless_it_holds_a_forbidden_pair() -> None:
    field = swiss_entrants(dict.fromkeys(["a", "b", "c", "d"], 0), {"a": 4, "b": 3, "c": 2}, {})
    fold = swiss.pair(1, field, "s")
    assert pairs_of(fold) and {forbidden_pair(*p) for p in pairs_of(fold)} == {
        ("a", "c"),
        ("b", "d"),
    }
    assert swiss.pair(1, field, "s", forbidden=frozenset({("a", "b")})) == fold
    kept_apart = swiss.pair(1, field, "s", forbidden=frozenset({("a", "c")}))
    assert {forbidden_pair(*p) for p in pairs_of(kept_apart)} == {("a", "d"), ("b", "c")}


def test_when_every_pairing_has_one_the_fewest_meet_and_the_round_says_so() -> None:
    field = swiss_entrants({"a": 0, "b": 0}, {}, {})
    forbidden = frozenset({("a", "b")})
    paired = derive("s", swiss.canonical_input(1, field, forbidden=forbidden))
    assert forbidden_meetings(paired, forbidden) == [("a", "b")]


def test_a_large_field_keeps_forbidden_pairs_apart_on_the_windowed_path() -> None:
    """80 entrants (blocks and windows): neighbours in the ranking kept apart by the
    dozen, none meets; the input carries only the pairs of its field."""
    rng = random.Random(5)
    entrants = [f"e{n:02d}" for n in range(80)]
    ratings = {e: rng.randint(0, 2000) for e in entrants}
    scores = dict.fromkeys(entrants, 0)
    done: list[RoundPairing] = []
    for number in range(1, 5):
        field = swiss_entrants(scores, ratings, histories(done))
        ranked = [e.id for e in swiss.ranking(field, "s")]
        forbidden = {forbidden_pair(ranked[i], ranked[i + 1]) for i in range(0, 40, 2)}
        forbidden |= {forbidden_pair(ranked[i], ranked[i + 40]) for i in range(0, 40, 3)}
        document = swiss.canonical_input(number, field, forbidden=[*forbidden, ("x", "e01")])
        assert len(document["forbidden"]) == len(forbidden)
        paired = derive("s", document)
        assert forbidden_meetings(paired, forbidden) == []
        done.append(paired)
        play(paired, scores, rng)


def test_old_versions_re_derive_their_rounds_exactly() -> None:
    """A version 2 input has no forbidden pairs and derives as version 2 did; its
    commitment names version 2."""
    field = swiss_entrants(dict.fromkeys([f"e{n}" for n in range(7)], 0), {}, {})
    old = swiss.canonical_input(1, field, version=2, forbidden=[("e0", "e3")])
    assert "forbidden" not in old and old["engine_version"] == 2
    published = derive("lots", old)
    committed = commitment("lots", old)
    assert verify_round(old, "lots", committed, published.as_dict()).ok
    current = swiss.canonical_input(1, field, forbidden=[("e0", "e3")])
    assert current["forbidden"] == [["e0", "e3"]]
    assert not verify_round(current, "lots", committed, published.as_dict()).ok


def test_forbidden_among_keeps_the_pairs_of_the_field_sorted() -> None:
    assert forbidden_among([("b", "a"), ("a", "b"), ("c", "z"), ("a", "a")], "abc") == [("a", "b")]


def bracket_round_one(seeds: list[str], forbidden: Forbidden) -> list[tuple[str, str]]:
    """The first round's bracket matches (``W1-``; two top seeds the byes bring
    together also play in round 1, and are not swapped)."""
    document = knockout.canonical_input(
        1, seeds, {}, {}, seeding="manual", lots_seed="l", forbidden=forbidden
    )
    return [
        (m.north_south, m.east_west)
        for m in knockout.derive(document, "s").matches
        if m.match.startswith("W1-")
    ]


def test_the_knockout_swaps_a_forbidden_first_round_pair_within_the_lower_half() -> None:
    seeds = [f"s{n}" for n in range(1, 9)]
    standard = bracket_round_one(seeds, frozenset())
    assert standard == [("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    swapped = bracket_round_one(seeds, frozenset({("s1", "s8")}))
    assert ("s1", "s8") not in swapped
    tops = [top for top, _ in swapped]
    assert tops == ["s1", "s4", "s2", "s3"]  # the top half stays where it was
    moved = sum(1 for a, b in zip(standard, swapped, strict=True) if a != b)
    assert moved == 2  # one swap
    # Nothing forbidden in round 1: version 1's bracket exactly.
    later = frozenset({("s1", "s2")})
    assert bracket_round_one(seeds, later) == standard
    v1 = knockout.canonical_input(1, seeds, {}, {}, seeding="manual", lots_seed="l", version=1)
    assert "forbidden" not in v1
    assert [(m.north_south, m.east_west) for m in knockout.derive(v1, "s").matches] == standard


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 12), seed=st.integers(0, 10**6), density=st.floats(0.05, 0.5))
def test_a_knockout_first_round_has_no_forbidden_pair_a_lower_half_swap_avoids(
    count: int, seed: int, density: float
) -> None:
    """Against brute force over every arrangement of the lower half's entrants."""
    rng = random.Random(seed)
    seeds = [f"s{n}" for n in range(1, count + 1)]
    forbidden = frozenset(
        forbidden_pair(a, b)
        for i, a in enumerate(seeds)
        for b in seeds[i + 1 :]
        if rng.random() < density
    )
    got = bracket_round_one(seeds, forbidden)
    bad = sum(1 for a, b in got if forbidden_pair(a, b) in forbidden)
    standard = bracket_round_one(seeds, frozenset())
    tops = [top for top, _ in standard]
    bottoms = [bottom for _, bottom in standard]
    if len(bottoms) <= 6:
        fewest = min(
            sum(1 for t, b in zip(tops, order, strict=True) if forbidden_pair(t, b) in forbidden)
            for order in permutations(bottoms)
        )
        assert bad == fewest
    assert sorted(side for m in got for side in m) == sorted(side for m in standard for side in m)


def test_a_competition_file_carries_its_forbidden_pairs_and_pairs_around_them() -> None:
    document = copy.deepcopy(GOOD)
    document["forbidden_pairs"] = [["B", "A"], ["A", "B"]]
    competition = read_competition(json.dumps(document))
    assert competition.forbidden == (("A", "B"),)
    assert competition_document(competition)["forbidden_pairs"] == [["A", "B"]]
    assert "forbidden_pairs" not in competition_document(read_competition(json.dumps(GOOD)))
    document["forbidden_pairs"] = [["A", "A"]]
    with pytest.raises(CompetitionFileError, match="two different entrants"):
        read_competition(json.dumps(document))
    document["forbidden_pairs"] = [["A", "Z"]]
    with pytest.raises(CompetitionFileError, match="not an entrant"):
        read_competition(json.dumps(document))
    # A fresh Swiss of four from a file: the fold's pair is kept apart.
    fresh = {
        "format": "spades-competition",
        "version": 1,
        "competition": {"id": "club", "lots_seed": "lots"},
        "entrants": [{"id": e, "players": [f"{e}1", f"{e}2"]} for e in "ABCD"],
    }
    plain = pair_next_round(read_competition(json.dumps(fresh)), "s").pairing
    first = plain.matches[0]
    fresh["forbidden_pairs"] = [[first.north_south, first.east_west]]
    kept = pair_next_round(read_competition(json.dumps(fresh)), "s").pairing
    assert forbidden_meetings(kept, fresh["forbidden_pairs"]) == []
    assert forbidden_meetings(plain, fresh["forbidden_pairs"]) != []
