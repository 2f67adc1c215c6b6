"""A whole competition from the pure core: Swiss stage, a knockout of the top 4, a file."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from leagues.core.commitment import verify_round
from leagues.core.competition import Competition, PairedRound, Settings, pair_next_round
from leagues.core.competition_file import competition_document, read_competition
from leagues.core.entrants import Entrant
from leagues.core.errors import LeagueError
from leagues.core.results import Award, MatchResult
from leagues.core.stages import Stage


def play_round(competition: Competition, paired: PairedRound, rng: random.Random) -> Competition:
    results = list(competition.results)
    for match in paired.pairing.matches:
        ns, ew = rng.choice([(500, 320), (410, 505)])
        results.append(
            MatchResult(
                f"r{paired.number}-{match.board}",
                paired.number,
                match.board,
                match.north_south,
                match.east_west,
                ns,
                ew,
                "north_south" if ns > ew else "east_west",
                len(results) + 1,
            )
        )
    awards = list(competition.awards) + [
        Award(f"bye{paired.number}", paired.number, bye) for bye in paired.pairing.byes
    ]
    return dataclasses.replace(
        competition,
        rounds=(*competition.rounds, paired),
        results=tuple(results),
        awards=tuple(awards),
    )


def club_competition() -> Competition:
    entrants = [Entrant(f"e{n}", (f"p{n}a", f"p{n}b"), rating=n) for n in range(8)]
    # e7 joins late (from round 2, nothing for round 1); e6 withdraws after round 2.
    entrants[7] = dataclasses.replace(entrants[7], joined_round=2)
    entrants[6] = dataclasses.replace(entrants[6], withdrawn_after_round=2)
    settings = Settings(
        "club",
        "Club spring",
        (Stage("swiss", rounds=3, advance=4), Stage("knockout")),
        lots_seed="lots",
    )
    return Competition(settings, tuple(entrants), awards=(Award("late", 1, "e7", "late_join"),))


def test_swiss_then_knockout_to_a_champion_every_round_verifiable() -> None:
    rng = random.Random(1)
    competition = club_competition()
    for number in range(1, 20):
        try:
            paired = pair_next_round(competition, f"seed{number}")
        except LeagueError as error:
            assert error.code == "competition_finished"
            break
        in_round = paired.pairing.entrants()
        assert len(in_round) == len(set(in_round))
        if number == 1:
            assert "e7" not in in_round and len(paired.pairing.byes) == 1
        if number == 3:
            assert "e6" not in in_round
        if paired.stage == 1:
            assert all(m.match for m in paired.pairing.matches)
        competition = play_round(competition, paired, rng)
        unfinished = dataclasses.replace(competition, results=competition.results[:-1])
        with pytest.raises(LeagueError) as refused:
            pair_next_round(unfinished, "x")
        assert refused.value.code == "round_not_closed"
    assert [r.stage for r in competition.rounds] == [0, 0, 0, 1, 1]
    final = competition.rounds[-1].pairing.matches
    assert len(final) == 1 and final[0].match == "W2-1"
    for paired in competition.rounds:
        assert paired.seed is not None
        check = verify_round(paired.input, paired.seed, paired.commitment, paired.pairing.as_dict())
        assert check.ok, check.problem

    # The export reads back to the same competition: same standings, same verification.
    text = json.dumps(competition_document(competition, competition.standings()))
    again = read_competition(text)
    assert again.standings() == competition.standings()
    assert [r.pairing for r in again.rounds] == [r.pairing for r in competition.rounds]
    assert again.settings == competition.settings


def test_pairing_from_a_file_gives_the_platforms_next_round() -> None:
    rng = random.Random(2)
    competition = club_competition()
    competition = play_round(competition, pair_next_round(competition, "one"), rng)
    from_file = read_competition(json.dumps(competition_document(competition)))
    assert pair_next_round(from_file, "two") == pair_next_round(competition, "two")


def test_a_correction_after_a_round_was_paired_is_reported_not_re_paired() -> None:
    rng = random.Random(3)
    competition = club_competition()
    competition = play_round(competition, pair_next_round(competition, "one"), rng)
    second = pair_next_round(competition, "two")
    competition = play_round(competition, second, rng)
    wrong = competition.results[0]
    fixed = dataclasses.replace(
        wrong,
        id="fix",
        sequence=len(competition.results) + 1,
        corrects=wrong.id,
        north_south_points=wrong.east_west_points,
        east_west_points=wrong.north_south_points,
        winner="east_west" if wrong.winner == "north_south" else "north_south",
    )
    corrected = dataclasses.replace(competition, results=(*competition.results, fixed))
    assert [s.as_dict() for s in corrected.stale_pairings()] == [
        {"round": 2, "result": wrong.id, "corrected_by": "fix"}
    ]
    assert corrected.rounds[1] == second  # nothing re-paired
    before = competition.standings().rows
    after = corrected.standings().rows
    points = {row.entrant: row.match_points for row in after}
    assert (
        points[wrong.north_south] != {r.entrant: r.match_points for r in before}[wrong.north_south]
    )
    assert "fix" in [r.id for r in corrected.results]
    assert pair_next_round(corrected, "three").results_version == fixed.sequence


def play_to_the_end(competition: Competition, rng: random.Random) -> Competition:
    """Pair every round with a fresh seed (as the platform does) and play it."""
    for number in range(1, 200):
        try:
            paired = pair_next_round(competition, f"round-{number}-{rng.randrange(10**9)}")
        except LeagueError as error:
            assert error.code == "competition_finished"
            return competition
        check = verify_round(
            paired.input, str(paired.seed), paired.commitment, paired.pairing.as_dict()
        )
        assert check.ok, check.problem
        competition = play_round(competition, paired, rng)
    raise AssertionError("the competition never finished")


@hypothesis_settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 11), double=st.booleans(), seed=st.integers(0, 10**6))
def test_a_round_robin_paired_round_by_round_meets_every_pair_exactly_once(
    count: int, double: bool, seed: int
) -> None:
    # Each round has its own secret seed; the positions must still be drawn once.
    entrants = tuple(Entrant(f"e{n}", (f"p{n}a", f"p{n}b")) for n in range(count))
    competition = Competition(
        Settings("rr", stages=(Stage("round_robin", double=double),), lots_seed=f"lots{seed}"),
        entrants,
    )
    played = play_to_the_end(competition, random.Random(seed))
    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for paired in played.rounds:
        meetings.update(frozenset((m.north_south, m.east_west)) for m in paired.pairing.matches)
        byes.update(paired.pairing.byes)
    ids = [e.id for e in entrants]
    assert set(meetings) == {frozenset(pair) for pair in combinations(ids, 2)}
    assert set(meetings.values()) == {2 if double else 1}
    assert byes == (Counter({e: 2 if double else 1 for e in ids}) if count % 2 else Counter())


@hypothesis_settings(max_examples=40, deadline=None)
@given(
    count=st.integers(2, 17),
    kind=st.sampled_from(["single", "double", "reset"]),
    seed=st.integers(0, 10**6),
)
def test_a_knockout_of_equal_ratings_plays_through_to_a_champion(
    count: int, kind: str, seed: int
) -> None:
    # Every new partnership is seeded the same rating: ties are the normal case.
    entrants = tuple(Entrant(f"e{n}", (f"p{n}a", f"p{n}b"), rating=1000) for n in range(count))
    stage = Stage("knockout", double=kind != "single", reset=kind == "reset")
    competition = Competition(Settings("ko", stages=(stage,), lots_seed=f"lots{seed}"), entrants)
    played = play_to_the_end(competition, random.Random(seed))
    assert played.next_stage() == 1
    assert played._bracket_state(0).champion in {e.id for e in entrants}


@pytest.mark.parametrize("kind", ["round_robin", "knockout"])
def test_an_entrant_withdrawn_before_round_one_is_in_no_round(kind: str) -> None:
    # Four entrants, d withdrawn before round 1: the schedule is drawn for a, b and c (a
    # round robin of three with a bye a round; a bracket of three), so no round pairs d
    # (and no forfeit of d's is invented for its opponents).
    entrants = tuple(Entrant(n, (f"{n}1", f"{n}2")) for n in "abcd")
    entrants = (*entrants[:3], dataclasses.replace(entrants[3], withdrawn_after_round=0))
    competition = Competition(Settings("w", stages=(Stage(kind),), lots_seed="lots"), entrants)
    played = play_to_the_end(competition, random.Random(5))
    assert all("d" not in paired.pairing.entrants() for paired in played.rounds)
    assert len(played.rounds) == (3 if kind == "round_robin" else 2)
    # The file of it reads back (a file pairing d would be refused).
    read_competition(json.dumps(competition_document(played)))
