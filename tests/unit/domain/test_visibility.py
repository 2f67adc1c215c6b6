"""The rules of hidden information as pure code (``games.domain.visibility``): state and
seat in, view and events out, no database. Checked along random whole games: no view or
event rendered for a seat shows a card another seat holds, and a spectator is shown no
held card at all. (The integration leak tests check the same rules through the
selectors, the REST API and the sockets, against the raw stream.)"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.domain import events as ev
from games.domain import visibility
from games.domain.table import TableState
from games.engine.cards import names_in, parse_card
from games.engine.seats import SEAT_NAMES
from games.engine.view import seat_view
from tests.unit.domain.playing import play_random_game

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


@dataclass(frozen=True)
class Recorded:
    """A domain event as the store would give it back (no hash: none is checked here)."""

    version: int
    type: str
    data: dict[str, Any]
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)
    recorded_at: datetime = datetime(2026, 1, 1, tzinfo=UTC)
    hash: str = ""


def cards_in(value: Any) -> set[int]:
    """Every card name anywhere in a JSON value (keys included)."""
    if isinstance(value, str):
        return {parse_card(value)} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(k) | cards_in(v) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(item) for item in value))
    return set()


def held(state: TableState, seat: int) -> set[int]:
    """The cards ``seat`` holds now (what nobody else may be shown)."""
    hand = state.hand
    if hand is None or state.hand_is_over(state.hand_number):
        return set()
    cards = seat_view(hand, seat, state.team_totals(), state.team_bags()).hand
    return {parse_card(name) for name in names_in(cards)}


def passed_by(window: list[Recorded], seat: int | None) -> set[int]:
    """The cards ``seat`` gave its partner this hand (a blind nil's exchange): it chose
    them, so being shown them is no leak."""
    if seat is None:
        return set()
    name = SEAT_NAMES[seat]
    return set().union(
        *(
            {parse_card(card) for card in event.data["cards"]}
            for event in window
            if event.type == ev.CARDS_PASSED and event.data["seat"] == name
        )
    )


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
@example(3705)  # North passes KH to South for a blind nil, and sees it in its own view
def test_no_seat_is_shown_a_card_another_seat_holds(seed: int) -> None:
    _, events = play_random_game(random.Random(seed))
    stored = [Recorded(v, e.type, e.data) for v, e in enumerate(events, start=1)]
    state = TableState()
    rng = random.Random(seed)
    dealt = 0
    for index, event in enumerate(stored):
        state.apply(event.type, event.data)
        if event.type == ev.HAND_DEALT:
            dealt = index
        if rng.random() > 0.1:
            continue
        # The hand's own events (those of hands over are public: the same 52 cards).
        window = stored[dealt : index + 1]
        for seat in (0, 1, 2, 3, None):
            view = visibility.table_view("t", state, seat, [])
            shown = cards_in(view) | cards_in(visibility.viewer_events(window, state, seat))
            others = [s for s in range(4) if s != seat]
            forbidden = set().union(*(held(state, s) for s in others)) - passed_by(window, seat)
            assert not shown & forbidden, (seat, event.version)
            if seat is None:
                assert view["hand"] is None or "you" not in view["hand"]


def test_a_seated_view_is_the_seat_s_and_a_spectator_sees_the_prefix_cut() -> None:
    state, _ = play_random_game(random.Random(3), max_moves=20)
    assert visibility.spectator_cut(state, 0) is None  # a seat sees the table live
    assert visibility.spectator_cut(state, None) is None  # no delay at this table
    view = visibility.table_view("t", state, 0, [])
    assert view["your_seat"] == "north" and view["version"] == state.version
