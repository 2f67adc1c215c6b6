from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.core.scoresheet import ScoresheetError, score_scoresheet

HAND: dict[str, Any] = {
    "bids": {"north": 4, "east": "nil", "south": 3, "west": 5},
    "tricks": {"north": 5, "east": 0, "south": 4, "west": 4},
}
# Each team bids 13 between them and north-south take every trick: east-west are set.
SWEEP: dict[str, Any] = {
    "bids": {"north": 6, "east": 6, "south": 7, "west": 7},
    "tricks": {"north": 6, "east": 0, "south": 7, "west": 0},
}


def sheet(*hands: dict[str, Any], rules: object = "standard") -> dict[str, Any]:
    return {"rules": rules, "hands": [copy.deepcopy(hand) for hand in hands]}


def error_of(document: object) -> ScoresheetError:
    with pytest.raises(ScoresheetError) as caught:
        score_scoresheet(document)
    return caught.value


def with_change(hand: dict[str, Any], part: str, seat: str, value: object) -> dict[str, Any]:
    changed = copy.deepcopy(hand)
    changed[part][seat] = value
    return changed


def test_a_good_scoresheet_gives_the_documented_shape() -> None:
    result = score_scoresheet(sheet(HAND, HAND)).as_dict()
    assert set(result) == {"hands", "totals", "winner", "finished_after_hand"}
    first = result["hands"][0]
    assert set(first) == {"north_south", "east_west"}
    assert set(first["north_south"]) == {"hand_score", "total", "bags", "breakdown"}
    assert set(first["north_south"]["breakdown"]) >= {"contract", "bags", "nil", "bag_penalty"}
    assert result["totals"] == {"north_south": 144, "east_west": 100}
    assert (result["winner"], result["finished_after_hand"]) == (None, None)


def test_rules_default_to_standard() -> None:
    assert score_scoresheet({"hands": [HAND]}).rules == score_scoresheet(sheet(HAND)).rules


@pytest.mark.parametrize(
    ("tricks", "total"), [({"north": 5, "east": 0, "south": 4, "west": 3}, 12), (None, 14)]
)
def test_tricks_must_add_up_to_13(tricks: dict[str, int] | None, total: int) -> None:
    hand = copy.deepcopy(HAND)
    hand["tricks"] = tricks or {"north": 5, "east": 1, "south": 4, "west": 4}
    error = error_of(sheet(HAND, hand))
    assert error.hand == 2
    assert error.message.startswith(f"Hand 2: the tricks add up to {total}, not 13 (north 5,")


@pytest.mark.parametrize(
    ("bid", "message"),
    [
        (14, "Hand 1: west bid 14; bids run from 0 to 13."),
        (-1, "Hand 1: west bid -1; bids run from 0 to 13."),
        ("5", "Hand 1: west's bid '5' is not a bid: write a number from 0 to 13, \"nil\" or"),
        (4.0, "Hand 1: west's bid 4.0 is not a bid"),
        (True, "Hand 1: west's bid True is not a bid"),
        (None, "Hand 1: west's bid None is not a bid"),
        ("blind", "Hand 1: west's bid 'blind' is not a bid"),
    ],
)
def test_bids_out_of_range_or_malformed(bid: object, message: str) -> None:
    error = error_of(sheet(with_change(HAND, "bids", "west", bid)))
    assert error.message.startswith(message)


@pytest.mark.parametrize("tricks", [-1, 14, "4", 4.5, None])
def test_tricks_must_be_whole_numbers_from_0_to_13(tricks: object) -> None:
    error = error_of(sheet(with_change(HAND, "tricks", "west", tricks)))
    assert error.message == (
        f"Hand 1: west took {tricks!r} tricks; tricks are a whole number from 0 to 13."
    )


@pytest.mark.parametrize("bid", ["nil", 0])
def test_nil_with_nil_off(bid: object) -> None:
    error = error_of(sheet(with_change(HAND, "bids", "east", bid), rules="easy"))
    assert error.message == (
        "Hand 1: east bid nil, but nil is not played under these rules: bid at least 1."
    )


def test_blind_nil_when_blind_nil_is_off() -> None:
    error = error_of(sheet(with_change(HAND, "bids", "east", "blind_nil")))
    assert error.message == (
        "Hand 1: east bid blind nil, but blind nil is not played under these rules."
    )


def test_blind_nil_needs_the_team_behind_by_the_deficit_at_the_start_of_that_hand() -> None:
    rules = {"preset": "standard", "blind_nil": True}
    blind_east = with_change(HAND, "bids", "east", "blind_nil")
    error = error_of(sheet(blind_east, rules=rules))  # 0 - 0 at the start
    assert error.hand == 1
    assert error.message == (
        "Hand 1: east bid blind nil, but East-West was not 100 or more points behind at the "
        "start of the hand (East-West 0, North-South 0)."
    )
    # After the sweep east-west trail 130 to -130: now east may bid blind nil.
    result = score_scoresheet(sheet(SWEEP, blind_east, rules=rules)).as_dict()
    assert result["hands"][1]["east_west"]["breakdown"]["nil"][0]["kind"] == "blind_nil"
    assert result["hands"][1]["east_west"]["breakdown"]["nil_points"] == 200
    # North-south lead, so north may not.
    error = error_of(sheet(SWEEP, with_change(HAND, "bids", "north", "blind_nil"), rules=rules))
    assert error.message.startswith("Hand 2: north bid blind nil, but North-South was not 100")


def test_the_deficit_threshold_is_an_option() -> None:
    rules = {"blind_nil": True, "blind_nil_min_deficit": 0}
    assert score_scoresheet(sheet(with_change(HAND, "bids", "east", "blind_nil"), rules=rules))


def test_hands_after_the_game_is_over_are_refused() -> None:
    error = error_of(sheet(SWEEP, SWEEP, HAND, rules={"target_score": 130}))
    assert error.hand == 2
    assert error.message == (
        "Hand 2: the game was over after hand 1 (North-South won); remove the hands after it."
    )


@pytest.mark.parametrize(
    ("part", "remove", "add", "message"),
    [
        ("bids", "west", None, "Hand 1: bids has nothing for west; every seat needs an entry."),
        ("tricks", "north", None, "Hand 1: tricks has nothing for north; every seat needs"),
        ("bids", None, "norht", "Hand 1: bids names 'norht', which is not a seat; the seats are"),
    ],
)
def test_missing_and_unknown_seats(
    part: str, remove: str | None, add: str | None, message: str
) -> None:
    hand = copy.deepcopy(HAND)
    if remove:
        del hand[part][remove]
    if add:
        hand[part][add] = 1
    assert error_of(sheet(hand)).message.startswith(message)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], 'A scoresheet is an object like {"rules": "standard", "hands": [...]}.'),
        ({"rules": "standard"}, '"hands" must be a list with at least one hand.'),
        ({"hands": []}, '"hands" must be a list with at least one hand.'),
        ({"hands": [HAND], "hand": []}, "The scoresheet has unknown field 'hand'; the fields"),
        ({"hands": [[1, 2]]}, 'Hand 1: a hand is an object like {"bids": {...}'),
        ({"hands": [{"bids": HAND["bids"]}]}, 'Hand 1: "tricks" must be an object with one'),
        ({"hands": [{**HAND, "dealer": "north"}]}, "Hand 1 has unknown field 'dealer'"),
        ({"rules": "fast", "hands": [HAND]}, "rules: Unknown preset 'fast'"),
        ({"rules": {"nil": False, "blind_nil": True}, "hands": [HAND]}, "rules: Blind nil needs"),
        ({"rules": {"bags": 1}, "hands": [HAND]}, "rules: Unknown rule field: bags."),
    ],
)
def test_malformed_documents_and_bad_rules(document: object, message: str) -> None:
    assert error_of(document).message.startswith(message)


def test_scoring_checks_hand_by_hand_and_keeps_every_hand() -> None:
    scored = score_scoresheet(sheet(HAND, SWEEP))
    assert [hand.number for hand in scored.hands] == [1, 2]
    assert scored.hands[0].bid_labels() == [4, "nil", 3, 5]
    assert len(scored.ledger.hands) == 2
