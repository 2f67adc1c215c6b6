"""Where a spectator's delayed view ends (``TableState.spectator_version``), without a
database: checked after every event of random games against a count of the raw events."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.domain import decisions as d
from games.domain import events as ev
from games.domain.table import TableState
from games.engine.errors import IllegalMove
from games.engine.hand import NO_BID
from games.engine.rules import PRESETS
from tests.unit.domain.playing import play_random_game
from tests.unit.domain.tables import lobby


def delayed_game(seed: int, delay: int) -> list[ev.DomainEvent]:
    """A whole random game's events, its table created with ``delay``."""
    _, events = play_random_game(random.Random(seed))
    created = events[0].data
    first = ev.table_created(
        rules=created["rules"],
        preset_name=created["preset"]["name"],
        preset_version=created["preset"]["version"],
        seats=created["seats"],
        turn_timer_seconds=created["turn_timer_seconds"],
        created_by=created["created_by"],
        spectator_delay_tricks=delay,
    )
    return [first, *events[1:]]


def expected_cut(events: list[ev.DomainEvent], delay: int, playing: bool) -> int:
    """The cut from the raw events: every fourth card ends a trick (13 a hand)."""
    version = len(events)
    deals = [v for v, e in enumerate(events, start=1) if e.type == ev.HAND_DEALT]
    if delay == 0 or not playing or not deals:
        return version
    cards = [v for v, e in enumerate(events, start=1) if e.type == ev.CARD_PLAYED]
    ends = cards[3::4]
    shown = len(ends) - delay
    if shown < 1:
        return deals[0]
    cut = ends[shown - 1]
    return cut + 1 if cut + 1 in deals else cut


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), delay=st.sampled_from([0, 1, 2, 5, 13]))
def test_the_cut_ends_n_completed_tricks_back_after_every_event(seed: int, delay: int) -> None:
    events = delayed_game(seed, delay)
    state = TableState()
    previous = 0
    for count, event in enumerate(events, start=1):
        state.apply(event.type, event.data)
        cut = state.spectator_version()
        assert cut == expected_cut(events[:count], delay, state.status == "playing")
        if state.status == "playing":
            assert cut >= previous, "a spectator's view never goes back"
        previous = cut
        shown = TableState.fold(events[:cut])
        cards_shown = sum(1 for e in events[:cut] if e.type == ev.CARD_PLAYED)
        cards_now = sum(1 for e in events[:count] if e.type == ev.CARD_PLAYED)
        if state.status == "playing" and delay:
            # Whole tricks only, and none of the last ``delay`` completed ones.
            assert cards_shown % 4 == 0
            assert cards_shown <= max(0, (cards_now // 4 - delay) * 4)
            assert shown.hand is None or not shown.hand.trick
        else:
            assert cut == count
    assert state.status == "finished" and state.spectator_version() == state.version


def test_across_a_hand_boundary_the_next_deal_comes_with_the_hand_last_trick() -> None:
    events = delayed_game(7, 2)
    state = TableState()
    for event in events:
        state.apply(event.type, event.data)
        if len(state.trick_ends) == 15:
            break
    # Tricks 1-13 were hand 1; 14 and 15 are hidden: the view ends with hand 2's deal.
    cut = state.spectator_version()
    assert events[cut - 1].type == ev.HAND_DEALT and events[cut - 1].data["hand_number"] == 2
    assert events[cut - 2].type == ev.CARD_PLAYED
    shown = TableState.fold(events[:cut])
    assert shown.hand_is_over(1) and shown.hand_number == 2
    assert shown.hand is not None and all(bid == NO_BID for bid in shown.hand.bids)


def test_before_trick_n_is_completed_the_view_ends_with_the_first_deal() -> None:
    events = delayed_game(3, 3)
    state = TableState()
    for event in events:
        state.apply(event.type, event.data)
        if len(state.trick_ends) == 2:
            break
    cut = state.spectator_version()
    assert events[cut - 1].type == ev.HAND_DEALT and events[cut - 1].data["hand_number"] == 1


def test_no_delay_in_the_lobby_or_without_one() -> None:
    state = lobby(spectator_delay_tricks=4)
    d.decide_take_seat(state, d.ActorRef("user", 1), 0)
    assert state.spectator_delay_tricks == 4
    assert state.spectator_version() == state.version == 2


@pytest.mark.parametrize("bad", [-1, 14, True, "2", 2.0, None])
def test_a_delay_outside_0_to_13_tricks_is_refused(bad: object) -> None:
    with pytest.raises(IllegalMove) as refused:
        lobby(spectator_delay_tricks=bad)
    assert refused.value.code == "bad_spectator_delay"


def test_a_table_created_under_schema_1_is_live() -> None:
    created = ev.table_created(
        rules=PRESETS["standard"].to_dict(),
        preset_name="standard",
        preset_version=1,
        seats={name: {"kind": "human"} for name in ("north", "east", "south", "west")},
        turn_timer_seconds=None,
        created_by=1,
        spectator_delay_tricks=5,
    )
    assert created.schema_version == 4
    v1 = {
        k: v
        for k, v in created.data.items()
        if k not in ("spectator_delay_tricks", "owner", "deals")
    }
    ev.validate_payload(ev.TABLE_CREATED, 1, v1)
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.TABLE_CREATED, 2, v1)
    with pytest.raises(ev.EventSchemaError):
        ev.validate_payload(ev.TABLE_CREATED, 4, {**created.data, "spectator_delay_tricks": 14})
    state = TableState()
    state.apply(ev.TABLE_CREATED, v1)
    assert state.spectator_delay_tricks == 0


def test_an_owner_tag_is_kept_opaque_and_older_tables_have_none() -> None:
    tag = {"kind": "competition", "id": "c", "round": 2, "board": 3}
    created = ev.table_created(
        rules=PRESETS["standard"].to_dict(),
        preset_name="standard",
        preset_version=1,
        seats={name: {"kind": "human"} for name in ("north", "east", "south", "west")},
        turn_timer_seconds=None,
        created_by=None,
        owner=tag,
    )
    state = TableState()
    state.apply(ev.TABLE_CREATED, created.data)
    assert state.owner == tag
    v2 = {k: v for k, v in created.data.items() if k not in ("owner", "deals")}
    ev.validate_payload(ev.TABLE_CREATED, 2, v2)
    older = TableState()
    older.apply(ev.TABLE_CREATED, v2)
    assert older.owner is None
    for bad in ({}, {"k": [1]}, {"k": "x" * 101}, {str(n): n for n in range(9)}, "tag"):
        with pytest.raises(ev.EventSchemaError):
            ev.validate_payload(ev.TABLE_CREATED, 4, {**created.data, "owner": bad})
