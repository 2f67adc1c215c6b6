from __future__ import annotations

import pytest

from games.engine.rules import Rules
from scoring.core.hand_score import TeamHandScore, score_team
from scoring.core.ledger import Ledger

STANDARD = Rules()
NORTH_SOUTH = 0


def north_south(
    bids: tuple[int, int],
    tricks: tuple[int, int],
    rules: Rules = STANDARD,
    blind: tuple[bool, bool] = (False, False),
    bags_before: int = 0,
    total_before: int = 0,
) -> TeamHandScore:
    """Score north-south with north's and south's bids and tricks (east-west take the rest)."""
    rest = 13 - sum(tricks)
    return score_team(
        rules,
        NORTH_SOUTH,
        [bids[0], 4, bids[1], 4],
        [blind[0], False, blind[1], False],
        [tricks[0], rest, tricks[1], 0],
        total_before,
        bags_before,
    )


def parts_add_up(team: TeamHandScore) -> bool:
    part = team.breakdown()
    return bool(
        team.hand_score
        == part["contract_points"] + part["bag_points"] + part["nil_points"] + part["bag_penalty"]
    )


def test_a_made_contract_scores_ten_per_trick_bid_plus_one_per_bag() -> None:
    team = north_south((4, 3), (5, 4))
    assert (team.contract, team.made, team.contract_points, team.bags) == (7, True, 70, 2)
    assert team.hand_score == 72 and team.total == 72 and team.bags_total == 2
    assert parts_add_up(team)


def test_exactly_the_contract_has_no_bags() -> None:
    team = north_south((4, 3), (3, 4))
    assert (team.hand_score, team.bags) == (70, 0)


def test_a_set_contract_loses_ten_per_trick_bid_under_minus_bid() -> None:
    team = north_south((4, 3), (3, 3))
    assert (team.made, team.contract_points, team.bags, team.hand_score) == (False, -70, 0, -70)


def test_a_set_contract_scores_zero_under_set_penalty_zero() -> None:
    team = north_south((4, 3), (3, 3), rules=Rules(set_penalty="zero"))
    assert (team.made, team.hand_score) == (False, 0)


def test_the_partners_tricks_pool_toward_the_contract() -> None:
    assert north_south((4, 3), (7, 0)).made


@pytest.mark.parametrize(
    ("before", "bags", "penalty", "after"),
    [
        (8, 2, -100, 0),
        (8, 3, -100, 1),
        (0, 9, 0, 9),
        (9, 0, 0, 9),
        (5, 5, -100, 0),
        (7, 13, -200, 0),
    ],
)
def test_every_ten_bags_cost_100_and_the_rest_carries_over(
    before: int, bags: int, penalty: int, after: int
) -> None:
    # North-south bid 1 + 1 and take 2 + bags tricks.
    team = score_team(
        STANDARD, 0, [1, 1, 1, 1], [False] * 4, [2 + bags, 0, 0, 11 - bags], 0, before
    )
    assert team.bags == bags
    assert (team.bag_penalty, team.bags_total) == (penalty, after)
    assert team.hand_score == 20 + bags + penalty
    assert parts_add_up(team)


def test_without_the_bag_penalty_bags_just_accumulate() -> None:
    rules = Rules(bag_penalty=False)
    team = north_south((2, 2), (6, 5), rules=rules, bags_before=8)
    assert (team.bags, team.bag_penalty, team.bags_total, team.hand_score) == (7, 0, 15, 47)


def test_made_and_failed_nil_are_worth_nil_points() -> None:
    made = north_south((0, 4), (0, 5))
    assert (made.nil_points, made.contract_points, made.bags, made.hand_score) == (100, 40, 1, 141)
    assert made.breakdown()["nil"] == [
        {"seat": "north", "kind": "nil", "tricks": 0, "made": True, "points": 100}
    ]
    failed = north_south((0, 4), (2, 4))
    assert (failed.nil_points, failed.hand_score) == (-100, -100 + 40 + 2)
    custom = north_south((0, 4), (0, 4), rules=Rules(nil_points=50))
    assert custom.hand_score == 90


def test_blind_nil_is_worth_blind_nil_points() -> None:
    rules = Rules(blind_nil=True)
    made = north_south((0, 4), (0, 4), rules=rules, blind=(True, False))
    assert (made.nil_points, made.hand_score) == (200, 240)
    assert made.breakdown()["nil"][0]["kind"] == "blind_nil"
    failed = north_south((0, 4), (1, 4), rules=rules, blind=(True, False))
    assert failed.nil_points == -200
    half = north_south(
        (0, 4), (0, 4), rules=Rules(blind_nil=True, blind_nil_points=150), blind=(True, False)
    )
    assert half.nil_points == 150


def test_a_nil_bidders_tricks_do_not_help_the_partner_but_count_as_bags() -> None:
    team = north_south((0, 5), (2, 4))
    assert (team.counted_tricks, team.made, team.contract_points) == (4, False, -50)
    assert team.bags == 2  # the failed nil's tricks
    assert team.hand_score == -100 - 50 + 2


def test_with_nil_tricks_counting_for_partner_they_make_the_bid_and_are_not_bags() -> None:
    team = north_south((0, 5), (2, 4), rules=Rules(nil_tricks_count_for_partner=True))
    assert (team.counted_tricks, team.made, team.contract_points, team.bags) == (6, True, 50, 1)
    assert team.hand_score == -100 + 50 + 1


def test_double_nil_has_no_contract() -> None:
    team = north_south((0, 0), (0, 1))
    assert (team.contract, team.made, team.contract_points) == (0, True, 0)
    assert team.nil_points == 0 and team.bags == 1 and team.hand_score == 1


def test_the_ledger_carries_totals_and_bags_between_hands() -> None:
    ledger = Ledger(STANDARD)
    ledger.record_hand([1, 1, 1, 1], [False] * 4, [5, 2, 5, 1])
    second = ledger.record_hand([4, 0, 3, 5], [False] * 4, [5, 0, 4, 4])
    assert ledger.totals == [0, 71] and ledger.bags == [0, 1]
    assert second.number == 2
    assert second.teams[0].bag_penalty == -100
