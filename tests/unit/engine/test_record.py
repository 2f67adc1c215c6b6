from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.engine.record import RecordError, parse_record, record_from_game
from games.engine.rules import Rules, rules_from_spec
from games.engine.seats import EAST, WEST
from scoring.core.replay import ReplayMode, replay_document, replay_record

from .deals import TRUMP_DEAL, scripted_game, suit_per_seat
from .random_play import play_random_game

BLIND_AT_ONCE = rules_from_spec({"blind_nil": True, "blind_nil_min_deficit": 0})


def random_record(rules: Rules = BLIND_AT_ONCE, seed: str = "record", hands: int = 3) -> Any:
    game = play_random_game(rules, random.Random(seed), seed, first_dealer=1, max_hands=hands)
    return game, json.loads(json.dumps(record_from_game(game)))


def error_of(document: object, rules_spec: object = None) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay_document(document, rules_spec)
    return caught.value


def test_a_played_game_round_trips_through_its_record() -> None:
    game, record = random_record()
    replay = replay_document(record)
    assert replay.game.ledger.summary() == game.ledger.summary()
    for original, replayed in zip(game.hands, replay.game.hands, strict=True):
        assert replayed.trick_winners == original.trick_winners
        assert replayed.plays == original.plays
        assert replayed.hands == original.hands == [0, 0, 0, 0]
    assert record["rules"] == BLIND_AT_ONCE.to_dict()
    assert any("passes" in hand for hand in record["hands"])  # this seed bids blind nil


def test_the_record_format_uses_seat_names_and_card_text() -> None:
    game = scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 0, 4, 5))
    hand = record_from_game(game)["hands"][0]
    assert list(hand) == ["dealer", "deal", "bids", "plays"]
    assert hand["dealer"] == "west"
    assert hand["deal"]["north"][:3] == ["KD", "QD", "JD"]
    assert hand["deal"]["east"][0] == "AH"
    assert hand["bids"] == {"north": 3, "east": "nil", "south": 4, "west": 5}
    assert len(hand["plays"]) == 52 and hand["plays"][0] == "2C"


def test_replay_output_has_the_documented_shape() -> None:
    game, record = random_record(Rules(), seed="shape", hands=2)
    result = replay_document(record).as_dict()
    assert set(result) == {"hands", "totals", "winner", "finished_after_hand"}
    first = result["hands"][0]
    assert set(first) == {"tricks", "trick_winners", "north_south", "east_west"}
    assert set(first["tricks"]) == {"north", "east", "south", "west"}
    assert sum(first["tricks"].values()) == 13 and len(first["trick_winners"]) == 13
    assert set(first["north_south"]) == {"hand_score", "total", "bags", "breakdown"}
    assert result["totals"] == game.ledger.summary()["totals"]


def test_10_is_accepted_for_t_in_records() -> None:
    _, record = random_record(Rules(), seed="tens", hands=1)
    text = json.dumps(record).replace('"TD"', '"10D"').replace('"TS"', '"10s"')
    assert replay_document(json.loads(text)).as_dict() == replay_document(record).as_dict()


def test_an_illegal_play_stops_the_replay_with_where_and_why() -> None:
    record = record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 3, 3, 3)))
    plays = record["hands"][0]["plays"]
    assert plays[:4] == ["2C", "2H", "3C", "4C"]
    plays[2] = "AD"  # south holds the three of clubs
    error = error_of(record)
    assert error.message == (
        "Hand 1, play 3 (trick 1: south played AD): You must follow suit: you hold a club."
    )
    assert (error.hand, error.action, error.index, error.seat, error.card) == (
        1,
        "play",
        3,
        "south",
        "AD",
    )
    assert (error.code, error.reason) == (
        "must_follow_suit",
        "You must follow suit: you hold a club.",
    )
    assert error.as_dict()["index"] == 3 and "rescoring" not in error.as_dict()


def test_a_card_from_another_hand_is_not_held() -> None:
    record = record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 3, 3, 3)))
    plays = record["hands"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    error = error_of(record)
    assert (error.index, error.seat, error.card, error.code) == (2, "east", "3C", "card_not_held")
    assert error.message.endswith("You do not hold the three of clubs.")


def test_the_dealer_must_follow_the_rotation() -> None:
    _, record = random_record(Rules(), seed="dealer", hands=2)
    record["hands"][1]["dealer"] = record["hands"][0]["dealer"]
    error = error_of(record)
    assert (error.hand, error.action, error.code) == (2, "deal", "wrong_dealer")
    assert "The deal passes clockwise" in error.message


def test_a_refused_bid_names_the_bid_and_the_reason() -> None:
    record = record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 3, 3, 3)))
    record["rules"] = "easy"
    record["hands"][0]["bids"]["north"] = "nil"
    error = error_of(record)
    assert error.message == (
        "Hand 1, bid 1 (north bid nil): Nil is not played at this table: bid at least 1."
    )
    assert (error.action, error.index, error.seat, error.code) == ("bid", 1, "north", "nil_off")


def test_blind_nil_passes_are_required_and_only_after_blind_nil() -> None:
    _, record = random_record()
    with_passes = next(hand for hand in record["hands"] if "passes" in hand)
    number = record["hands"].index(with_passes) + 1
    missing = copy.deepcopy(record)
    owing = sorted(with_passes["passes"])
    del missing["hands"][number - 1]["passes"][owing[0]]
    error = error_of(missing)
    assert error.hand == number and error.code == "pass_missing"
    assert f"{owing[0]} must pass two cards to their partner" in error.message

    plain = record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 3, 3, 3)))
    plain["hands"][0]["passes"] = {"north": ["2C", "2D"]}
    error = error_of(plain)
    assert (error.action, error.code, error.seat) == ("pass", "not_passing", "north")
    assert error.message.endswith("Cards are only passed after a blind nil bid.")


def test_hands_after_the_end_of_the_game_are_refused() -> None:
    game = scripted_game(
        rules_from_spec({"target_score": 100}), WEST, suit_per_seat(), (1, 1, 1, 10)
    )
    assert game.finished
    record = record_from_game(game)
    extra = copy.deepcopy(record["hands"][0])
    extra["dealer"] = "north"
    record["hands"].append(extra)
    error = error_of(record)
    assert (error.hand, error.code) == (2, "game_over")
    assert error.message == (
        "Hand 2: the game was over after hand 1 (East-West won); no more hands are dealt."
    )


def test_rescoring_reports_a_play_the_other_rules_forbid() -> None:
    no_break = Rules(breaking_spades=False)
    game = scripted_game(no_break, EAST, TRUMP_DEAL, (3, 3, 3, 3), opening=("QS",))
    record = record_from_game(game)
    assert replay_document(record).game.ledger.summary() == game.ledger.summary()
    error = error_of(record, "standard")
    assert error.rescoring and error.as_dict()["rescoring"] is True
    assert error.message == (
        "Hand 1, play 1 (trick 1: south played QS): forbidden under the re-scoring rules "
        "(standard): Spades have not been broken yet: lead another suit until a spade has "
        "been played."
    )


def test_rescoring_reports_a_bid_the_other_rules_forbid() -> None:
    record = record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (0, 3, 3, 3)))
    error = error_of(record, "easy")
    assert error.message == (
        "Hand 1, bid 1 (north bid nil): forbidden under the re-scoring rules (easy): "
        "Nil is not played at this table: bid at least 1."
    )


def test_rescoring_scores_the_same_plays_under_other_rules() -> None:
    record = record_from_game(scripted_game(Rules(), WEST, suit_per_seat(), (2, 3, 4, 3)))
    standard = replay_document(record).as_dict()
    bicycle = replay_document(record, "bicycle").as_dict()
    assert standard["hands"][0]["trick_winners"] == bicycle["hands"][0]["trick_winners"]
    assert standard["totals"] == {"north_south": -60, "east_west": 67}
    assert bicycle["totals"] == {"north_south": 0, "east_west": 67}


def test_rescoring_stops_where_the_other_rules_end_the_game() -> None:
    _, record = random_record(Rules(), seed="ends", hands=4)
    replay = replay_record(
        parse_record(record), rules_from_spec({"target_score": 1, "lose_score": -1})
    )
    assert replay.game.ledger.finished_after_hand == 1
    assert replay.hands_after_end == 3
    result = replay.as_dict()
    assert result["hands_after_end"] == 3 and len(result["hands"]) == 1


def test_bad_rescoring_rules_are_refused() -> None:
    _, record = random_record(Rules(), seed="rules", hands=1)
    assert error_of(record, "fast").message.startswith("Re-scoring rules: Unknown preset 'fast'")


def test_a_hand_in_progress_is_left_out_of_the_record() -> None:
    game = scripted_game(Rules(), WEST, suit_per_seat(), (2, 3, 4, 3))
    game.start_hand(suit_per_seat())
    assert len(record_from_game(game)["hands"]) == 1


def _one_hand() -> dict[str, Any]:
    return record_from_game(scripted_game(Rules(), WEST, TRUMP_DEAL, (3, 3, 3, 3)))


def _edit(change: Any) -> dict[str, Any]:
    record = _one_hand()
    change(record, record["hands"][0])
    return record


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r, h: h["plays"].pop(), "Hand 1: plays lists 51 cards; a hand is 52 plays"),
        (lambda r, h: h["plays"].__setitem__(4, "1X"), "Hand 1, play 5: '1X' is not a card"),
        (lambda r, h: h.__setitem__("plays", "2C"), 'Hand 1: "plays" must be the list of the 52'),
        (lambda r, h: h["deal"]["north"].__setitem__(0, "AH"), "Hand 1, deal: A card appears in"),
        (lambda r, h: h["deal"]["east"].pop(), "Hand 1, deal: Each hand must hold 13 different"),
        (lambda r, h: h["deal"].pop("west"), "Hand 1: deal has nothing for west"),
        (lambda r, h: h["deal"].__setitem__("north", "2C"), "Hand 1: north's deal must be a list"),
        (lambda r, h: h.__setitem__("dealer", "nw"), "Hand 1: dealer must be one of north, east"),
        (lambda r, h: h["bids"].__setitem__("east", 14), "Hand 1: east's bid: Bids run from 0"),
        (lambda r, h: h["bids"].__setitem__("up", 1), "Hand 1: bids names 'up', which is not a"),
        (lambda r, h: h.__setitem__("tricks", {}), "Hand 1 has unknown field 'tricks'"),
        (lambda r, h: h.__setitem__("passes", []), 'Hand 1: "passes" must be an object keyed'),
        (
            lambda r, h: h.__setitem__("passes", {"south": ["2C", "XX"]}),
            "Hand 1: south's pass: 'XX' is not a card",
        ),
        (lambda r, h: r.__setitem__("rules", "fast"), "rules: Unknown preset 'fast'"),
        (lambda r, h: r.__setitem__("hands", []), '"hands" must be a list with at least one'),
        (lambda r, h: r.__setitem__("seed", 1), "The record has unknown field 'seed'"),
        (lambda r, h: r["hands"].append(7), "Hand 2: a hand is an object with"),
    ],
)
def test_malformed_records_are_refused_naming_the_hand(change: Any, message: str) -> None:
    assert error_of(_edit(change)).message.startswith(message)


def test_a_record_must_be_an_object() -> None:
    assert error_of([1]).message.startswith("A game record is an object like")


def test_flagging_notes_what_the_other_rules_forbid_and_scores_every_hand() -> None:
    game = scripted_game(Rules(), WEST, TRUMP_DEAL, (0, 3, 3, 3))
    record = record_from_game(game)
    replay = replay_document(record, "easy", ReplayMode.FLAG_AND_GO_ON)
    [refusal] = replay.refusals
    assert (refusal.hand, refusal.action, refusal.index, refusal.seat) == (1, "bid", 1, 0)
    assert (refusal.code, refusal.bid) == ("nil_off", "nil")
    assert len(replay.game.ledger.hands) == 1
    # Scored from what was bid and taken: the stopping mode refuses the same record.
    assert error_of(record, "easy").code == "nil_off"
    assert replay.game.hands[0].tricks_won == game.hands[0].tricks_won
