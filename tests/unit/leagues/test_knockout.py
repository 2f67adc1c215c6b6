"""Knockout: complete brackets, byes to the top seeds spread evenly, double elimination."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.core import knockout
from leagues.core.commitment import derive
from leagues.core.errors import LeagueError


def seeds(count: int) -> list[str]:
    return [f"s{n}" for n in range(1, count + 1)]


def play_out(bracket: knockout.Bracket, rng: random.Random) -> tuple[str, Counter[str], int]:
    """Random winners until a champion: (champion, losses per entrant, matches played)."""
    winners: dict[str, str] = {}
    losses: Counter[str] = Counter()
    played = 0
    while True:
        state = knockout.resolve(bracket, winners)
        if state.champion is not None:
            assert not state.ready()
            return state.champion, losses, played
        ready = state.ready()
        assert ready, "a bracket without a champion always has a match to play"
        for match in ready:
            assert match.top is not None and match.bottom is not None
            winner, loser = (
                (match.top, match.bottom)
                if rng.random() < 0.5
                else (
                    match.bottom,
                    match.top,
                )
            )
            winners[match.id] = winner
            losses[loser] += 1
            played += 1


def test_standard_seeding_order() -> None:
    assert knockout.seeding_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.seeding_positions(4) == [1, 4, 2, 3]


@given(count=st.integers(2, 130))
def test_byes_go_to_the_top_seeds_and_spread_evenly(count: int) -> None:
    bracket = knockout.build_bracket(seeds(count))
    first = [m for m in bracket.matches if m.round == 1 and m.stage == "winners"]
    # The bye slots are the seeds above the entrant count, each facing a different top seed.
    bye_flags = [m.bottom.seed > count for m in first]
    assert all(m.top.seed <= count for m in first)  # never bye against bye
    assert sum(bye_flags) == bracket.size - count
    opponents_of_byes = sorted(m.top.seed for m in first if m.bottom.seed > count)
    assert opponents_of_byes == list(range(1, bracket.size - count + 1))

    # Spread: every half, quarter, ... of the bracket holds the same number of byes, ±1.
    def check(part: list[bool]) -> None:
        if len(part) < 2:
            return
        half = len(part) // 2
        assert abs(sum(part[:half]) - sum(part[half:])) <= 1
        check(part[:half])
        check(part[half:])

    check(bye_flags)


@given(count=st.integers(2, 40), seed=st.integers(0, 1000))
def test_single_elimination_completes_with_one_loss_per_eliminated_entrant(
    count: int, seed: int
) -> None:
    champion, losses, played = play_out(knockout.build_bracket(seeds(count)), random.Random(seed))
    assert played == count - 1
    assert losses[champion] == 0
    assert sorted(losses) == sorted(set(seeds(count)) - {champion})
    assert set(losses.values()) == {1}


@given(count=st.integers(2, 40), seed=st.integers(0, 1000))
def test_double_elimination_with_reset_eliminates_after_exactly_two_losses(
    count: int, seed: int
) -> None:
    bracket = knockout.build_bracket(seeds(count), double=True, reset=True)
    champion, losses, played = play_out(bracket, random.Random(seed))
    assert losses[champion] <= 1
    assert all(losses[e] == 2 for e in seeds(count) if e != champion)
    # 2(n-1) losses of the eliminated plus the champion's (the reset was played then).
    assert played == 2 * (count - 1) + losses[champion]


@given(count=st.integers(2, 40), seed=st.integers(0, 1000))
def test_double_elimination_without_reset_ends_at_the_first_final(count: int, seed: int) -> None:
    bracket = knockout.build_bracket(seeds(count), double=True)
    champion, losses, played = play_out(bracket, random.Random(seed))
    runner_up_losses = sorted(losses[e] for e in seeds(count) if e != champion)
    assert runner_up_losses.count(1) <= 1  # only the winners' champion, beaten in the final
    assert all(value in (1, 2) for value in runner_up_losses)


def test_a_grand_final_reset_is_played_only_when_the_losers_champion_wins() -> None:
    bracket = knockout.build_bracket(seeds(2), double=True, reset=True)
    # Two entrants: W1-1 s1 beats s2; s2 is the losers' champion straight away.
    state = knockout.resolve(bracket, {"W1-1": "s1", "GF": "s1"})
    assert state.champion == "s1"
    state = knockout.resolve(bracket, {"W1-1": "s1", "GF": "s2"})
    assert [m.id for m in state.ready()] == ["GF2"] and state.champion is None
    assert knockout.resolve(bracket, {"W1-1": "s1", "GF": "s2", "GF2": "s2"}).champion == "s2"


def test_seeding_by_rating_and_refusals() -> None:
    ratings = {"a": 1, "b": 3, "c": 2}
    assert knockout.seed_order(["a", "b", "c"], ratings, "x") == ["b", "c", "a"]
    assert knockout.seed_order(["a", "b", "c"], ratings, "x", "manual") == ["a", "b", "c"]
    with pytest.raises(LeagueError) as refused:
        knockout.resolve(knockout.build_bracket(seeds(4)), {"W1-1": "s2"})
    assert refused.value.code == "not_in_match"
    with pytest.raises(LeagueError):
        knockout.build_bracket(seeds(4), reset=True)


def test_the_next_round_derives_from_the_winners_so_far() -> None:
    document = knockout.canonical_input(
        2,
        seeds(5),
        {},
        {"W1-1": "s1", "W1-2": "s4", "W1-3": "s2", "W1-4": "s3"},
        seeding="manual",
    )
    # Five entrants in eight slots: seeds 1, 2, 3 have byes (W1-1, W1-3, W1-4 are walkovers);
    # W1-2 is 4 v 5. Round 2: s1 v s4 (W2-1) and s2 v s3 (W2-2).
    paired = derive("any", document)
    assert [(m.match, m.north_south, m.east_west) for m in paired.matches] == [
        ("W2-1", "s1", "s4"),
        ("W2-2", "s2", "s3"),
    ]
