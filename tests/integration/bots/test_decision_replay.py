"""Every bot decision of a finished bots-only game is decided again, exactly, from the
metadata stored with its move (real PostgreSQL, the real bot-turn service)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bots.strategies.decision import BID, LOOK, PASS, PLAY
from bots.strategies.registry import get_strategy
from bots.strategies.replay import replay_decision
from bots.turns import PLAYED, play_bot_turn
from eventstore.reading import read_stream
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.engine.bidding import bid_label
from games.engine.cards import card_name
from games.engine.seats import parse_seat
from games.engine.view import seat_view
from games.services import table_state
from games.services.table_commands import StartGame, create_table, execute
from games.services.table_state import reading_state
from tests.factories import UserFactory

# A short game: usually a few hands.
SHORT_RULES = {"preset": "standard", "target_score": 100, "lose_score": -100, "blind_nil": True}
LEVELS = {"north": "hard", "east": "normal", "south": "hard", "west": "easy"}
BOT_EVENTS = {"CardsLooked": LOOK, "BidPlaced": BID, "CardsPassed": PASS, "CardPlayed": PLAY}


@pytest.fixture(autouse=True)
def fresh_state_cache() -> Iterator[None]:
    table_state.forget()
    yield
    table_state.forget()


@pytest.fixture
def hard_on_a_loaded_machine(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Hard as a loaded machine runs it: the clock cuts every search at ``min_samples``.

    So the decisions are made with fewer sampled deals than planned, which is exactly
    what ``(version, seed)`` alone cannot reproduce.
    """
    hard = get_strategy("hard")
    monkeypatch.setattr(hard, "time_limit_ms", 0.0)
    return hard


def play_bots_only_game() -> str:
    creator = UserFactory()
    seats = {name: {"kind": "bot", "level": level} for name, level in LEVELS.items()}
    table_id = str(create_table(actor=creator, rules=SHORT_RULES, seats=seats).table_id)
    execute(StartGame(table_id, first_dealer="north"), creator)
    for _ in range(2000):
        with reading_state(table_id) as state:
            status, version = state.status, state.version
        if status != "playing":
            return table_id
        assert play_bot_turn(table_id, version).outcome == PLAYED
    raise AssertionError("the bots did not finish their game in 2000 moves")


def written(kind: str, decision: Any) -> dict[str, Any]:
    """The event data a decision of ``kind`` writes (the fields that say the move)."""
    if kind == BID:
        return {"bid": bid_label(decision.tricks, decision.blind)}
    if kind == PASS:
        return {"cards": sorted(card_name(card) for card in decision.cards)}
    if kind == PLAY:
        return {"card": card_name(decision.card)}
    return {}


def test_every_bot_decision_of_a_finished_game_replays_from_its_metadata(
    db: None, hard_on_a_loaded_machine: Any
) -> None:
    table_id = play_bots_only_game()
    events = read_stream(table_stream_id(table_id))
    # Replayed on an idle machine: a search that obeyed the clock would now go further.
    hard_on_a_loaded_machine.time_limit_ms = 1e9
    assert events[-1].type == "DealSeedRevealed"

    replayed = searched = 0
    state = TableState()
    for event in events:
        kind = BOT_EVENTS.get(event.type)
        actor = event.metadata.get("actor", {})
        seat = parse_seat(event.data["seat"]) if kind is not None else -1
        # A bot's move is the first event of its command, computed at the version before.
        command = f"bot:{table_id}:{event.version - 1}:{seat}"
        if actor.get("kind") == "bot" and event.metadata.get("command_id") == command:
            assert state.hand is not None
            view = seat_view(state.hand, seat, state.team_totals(), state.team_bags())
            decision = replay_decision(actor, view)
            assert decision.kind == kind, event
            stored = {key: event.data[key] for key in written(kind, decision)}
            if kind == PASS:
                stored["cards"] = sorted(stored["cards"])
            assert written(kind, decision) == stored, event
            assert decision.samples == actor.get("samples"), event
            replayed += 1
            if "samples" in actor:
                # The clock cut the search at its minimum, whatever it had planned.
                assert actor["samples"] == hard_on_a_loaded_machine.min_samples
                searched += 1
        state.apply(event.type, event.data)

    levels = {event.metadata["actor"]["level"] for event in events if event.type == "CardPlayed"}
    assert levels == {"hard", "normal", "easy"}
    assert replayed >= 52
    # Hard searched (and was cut short) on some of its cards, and those replayed too.
    assert searched > 0


def test_the_bots_of_a_table_dealing_boards_play_the_board_revision(db: None) -> None:
    # A duplicate table's hands are boards scored on their own: its Hard bots record
    # hard-3 (the board's scoring in their search), and their moves replay from it.
    creator = UserFactory()
    seats = {name: {"kind": "bot", "level": level} for name, level in LEVELS.items()}
    table_id = str(
        create_table(
            actor=creator,
            rules={"preset": "standard", "hands": 2},
            seats=seats,
            deal_seed="b" * 64,
            boards=2,
        ).table_id
    )
    execute(StartGame(table_id), creator)
    for _ in range(200):
        with reading_state(table_id) as state:
            assert state.deals_from_boards
            if state.hand_is_over(1):
                break
            version = state.version
        assert play_bot_turn(table_id, version).outcome == PLAYED
    events = read_stream(table_stream_id(table_id))
    state = TableState()
    versions = {}
    searched = 0
    for event in events:
        actor = event.metadata.get("actor", {})
        if actor.get("kind") == "bot" and event.type in BOT_EVENTS:
            versions[actor["level"]] = actor["strategy_version"]
            if event.type == "CardPlayed" and actor["level"] == "hard":
                seat = parse_seat(event.data["seat"])
                assert state.hand is not None
                view = seat_view(state.hand, seat, state.team_totals(), state.team_bags())
                assert card_name(replay_decision(actor, view).card) == event.data["card"]
                searched += "samples" in actor
        state.apply(event.type, event.data)
    assert versions == {"hard": "hard-3", "normal": "normal-2", "easy": "easy-2"}
    assert searched > 0
