"""The table domain without a database: events, the fold, decisions and refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.domain import decisions as d
from games.domain import events as ev
from games.domain.errors import TableRefusal
from games.domain.table import TableState, seed_commitment
from games.engine.cards import card_name
from games.engine.deal import shuffled_deck
from games.engine.errors import IllegalMove
from games.engine.record import parse_record, record_from_game
from scoring.core.replay import replay_record
from tests.unit.domain.playing import play_random_game
from tests.unit.domain.tables import lobby

SEED = "ab" * 32
NORTH, EAST, SOUTH, WEST = range(4)


def user(user_id: int) -> d.ActorRef:
    return d.ActorRef("user", user_id)


def started(first_dealer: int = NORTH) -> TableState:
    state = lobby()
    for seat in range(4):
        d.decide_take_seat(state, user(seat + 1), seat)
    d.decide_start(state, user(1), first_dealer=first_dealer, seed=SEED)
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_refolding_the_events_gives_the_same_table(seed: int) -> None:
    state, events = play_random_game(random.Random(seed), seed=SEED)
    again = TableState.fold(events)
    assert again.version == state.version == len(events)
    assert again.status == "finished" and again.revealed_seed == SEED
    assert again.game is not None and state.game is not None
    assert again.game.ledger.summary() == state.game.ledger.summary()
    for event in events:
        ev.validate_payload(event.type, event.schema_version, event.data)
    # Events hold inputs only: no scores, tricks or winners anywhere.
    assert not {event.type for event in events} - set(ev.EVENT_TYPES)
    # The export round-trips through the record replay to the same ledger.
    replayed = replay_record(parse_record(record_from_game(state.game)))
    assert replayed.game.ledger.summary() == state.game.ledger.summary()


def test_every_deal_derives_from_the_committed_seed() -> None:
    _, events = play_random_game(random.Random(7), seed=SEED)
    types = [event.type for event in events]
    assert types.index(ev.DEAL_COMMITTED) < types.index(ev.HAND_DEALT)
    committed = next(e for e in events if e.type == ev.DEAL_COMMITTED)
    assert committed.data["commitment"] == seed_commitment(SEED)
    for event in events:
        if event.type == ev.HAND_DEALT:
            deck = shuffled_deck(SEED, event.data["hand_number"])
            assert event.data["deck"] == [card_name(c) for c in deck]
    assert types[-1] == ev.DEAL_SEED_REVEALED


def test_a_wrong_seed_cannot_be_revealed() -> None:
    state, events = play_random_game(random.Random(3), seed=SEED)
    truncated = TableState.fold(events[:-1])
    with pytest.raises(TableRefusal) as refused:
        truncated.apply(ev.DEAL_SEED_REVEALED, {"seed": "cd" * 32})
    assert refused.value.code == "seed_mismatch"


def test_refused_moves_carry_the_engines_sentence() -> None:
    state = started(first_dealer=NORTH)
    # East bids first (left of the dealer); south is refused with the engine's sentence.
    with pytest.raises(IllegalMove) as refused:
        d.decide_bid(state, user(3), SOUTH, 3)
    assert refused.value.code == "not_your_turn"
    assert refused.value.message == "It is east's turn to bid, not south's."
    with pytest.raises(IllegalMove) as bad:
        d.decide_bid(state, user(2), EAST, 14)
    assert bad.value.code == "bid_out_of_range"


def test_only_a_seats_player_acts_for_it() -> None:
    state = started(first_dealer=NORTH)
    with pytest.raises(TableRefusal) as refused:
        d.decide_bid(state, user(1), EAST, 3)
    assert (refused.value.status, refused.value.code) == (403, "not_your_seat")
    with pytest.raises(TableRefusal) as bot:
        d.decide_bid(state, d.ActorRef("bot"), EAST, 3)
    assert (bot.value.status, bot.value.code) == (403, "not_a_bot_seat")
    with pytest.raises(TableRefusal):
        d.decide_bid(state, d.ActorRef("anonymous"), EAST, 3)


def test_lobby_rules() -> None:
    state = lobby(east={"kind": "bot", "level": "hard"})
    d.decide_take_seat(state, user(1), NORTH)
    with pytest.raises(TableRefusal, match="already taken"):
        d.decide_take_seat(state, user(2), NORTH)
    with pytest.raises(TableRefusal, match="already sit"):
        d.decide_take_seat(state, user(1), SOUTH)
    with pytest.raises(TableRefusal, match="A bot plays east"):
        d.decide_take_seat(state, user(2), EAST)
    with pytest.raises(TableRefusal, match="empty: south, west"):
        d.decide_start(state, user(1), first_dealer=NORTH, seed=SEED)
    d.decide_leave_seat(state, user(1), NORTH)
    assert state.players == [None, None, None, None]
    with pytest.raises(TableRefusal) as stranger:
        d.decide_start(state, user(9), first_dealer=NORTH, seed=SEED)
    assert stranger.value.status == 403


def test_seat_configuration_is_checked() -> None:
    with pytest.raises(IllegalMove, match="level is easy, normal or hard"):
        lobby(east={"kind": "bot", "level": "genius"})
    with pytest.raises(IllegalMove, match="not a seat"):
        lobby(northeast="bot")
    assert d.normalise_seats({"west": "bot"})["west"] == {"kind": "bot", "level": "normal"}


def test_timeout_hands_the_seat_to_a_bot_until_taken_back() -> None:
    state = started(first_dealer=NORTH)
    events = d.decide_timeout(state, d.ActorRef("system", name="timer"), EAST)
    assert [e.type for e in events] == [ev.TURN_TIMED_OUT, ev.SEAT_HANDED_TO_BOT]
    assert state.controller(EAST) == "bot"
    with pytest.raises(TableRefusal) as with_bot:
        d.decide_bid(state, user(2), EAST, 3)
    assert with_bot.value.code == "seat_with_bot"
    d.decide_bid(state, d.ActorRef("bot"), EAST, 3)
    with pytest.raises(TableRefusal):
        d.decide_timeout(state, user(1), SOUTH)
    d.decide_take_back(state, user(2), EAST)
    assert state.controller(EAST) == "human"


def test_payloads_are_validated() -> None:
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.CARD_PLAYED, 1, {"hand_number": 1, "seat": "north", "card": "1X"})
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.BID_PLACED, 1, {"hand_number": 1, "seat": "north"})
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload("Scored", 1, {})
    assert set(ev.SCHEMA_VERSIONS) == set(ev.EVENT_TYPES)
