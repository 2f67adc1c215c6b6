"""Bots playing a whole hand against each other through the real engine.

Used by the strength benchmark and the tests: every decision goes through
``seat_view`` (so a bot sees only its seat) and is applied with the engine's own
validated calls (so an illegal choice raises ``IllegalMove``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence

from games.engine.bidding import look_at_cards, place_bid
from games.engine.hand import BIDDING, COMPLETE, PASSING, HandState, new_hand
from games.engine.passing import pass_cards
from games.engine.play import play_card
from games.engine.rules import Rules
from games.engine.view import seat_view

from .decision import BID, LOOK, PASS, PLAY, Decision, Strategy
from .registry import exact_strategy, exact_strategy_of_version

DecisionHook = Callable[[int, Decision, float, float], None]


def decision_seed(base: int, hand_number: int, seat: int, step: int) -> int:
    """A seed per decision derived from one base seed (stable across runs and machines)."""
    text = f"{base}|{hand_number}|{seat}|{step}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def apply_decision(state: HandState, seat: int, decision: Decision) -> None:
    """Apply a strategy's decision with the engine's validated calls."""
    if decision.kind == BID:
        place_bid(state, seat, decision.tricks, decision.blind)
    elif decision.kind == LOOK:
        look_at_cards(state, seat)
    elif decision.kind == PASS:
        pass_cards(state, seat, list(decision.cards))
    elif decision.kind == PLAY:
        play_card(state, seat, decision.card)
    else:  # pragma: no cover - Decision.kind is a closed set
        raise ValueError(f"Unknown decision kind {decision.kind!r}.")


def seats_to_decide(state: HandState) -> list[int]:
    """The seats that owe a decision now (several while passing)."""
    if state.phase == PASSING:
        return [s for s in range(4) if state.pass_owed[s] and not state.passes[s]]
    if state.phase == COMPLETE:
        return []
    return [state.turn]


def play_hand(
    state: HandState,
    strategies: Sequence[Strategy],
    base_seed: int,
    team_totals: tuple[int, int] = (0, 0),
    team_bags: tuple[int, int] = (0, 0),
    on_decision: DecisionHook | None = None,
) -> HandState:
    """Play ``state`` to the end, ``strategies[seat]`` deciding for each seat.

    ``on_decision(seat, decision, wall_ms, cpu_ms)`` is called after each decision with
    the wall-clock and the process CPU time it took (CPU time does not grow when other
    programs compete for the cores).
    """
    step = 0
    while state.phase != COMPLETE:
        for seat in seats_to_decide(state):
            view = seat_view(state, seat, team_totals, team_bags)
            seed = decision_seed(base_seed, state.hand_number, seat, step)
            started = time.perf_counter()
            cpu_started = time.process_time()
            decision = strategies[seat].decide(view, seed)
            cpu_ms = (time.process_time() - cpu_started) * 1000.0
            wall_ms = (time.perf_counter() - started) * 1000.0
            if on_decision is not None:
                on_decision(seat, decision, wall_ms, cpu_ms)
            apply_decision(state, seat, decision)
            step += 1
            if state.phase == BIDDING and decision.kind == LOOK:
                break
    return state


def play_deal(
    rules: Rules,
    dealt: Sequence[int],
    dealer: int,
    strategies: Sequence[Strategy],
    base_seed: int,
) -> HandState:
    """One deal (four hand masks, its dealer) played from 0-0 to its last trick.

    The hand is hand 1 of a fresh game (no bags carried, nobody trailing), so the result
    is a function of the deal, the strategies and ``base_seed`` alone.
    """
    return play_hand(new_hand(rules, list(dealt), dealer), strategies, base_seed)


def play_level(
    rules: Rules, dealt: Sequence[int], dealer: int, level: str, base_seed: int
) -> HandState:
    """A deal played by four players of ``level`` without a wall-clock guard, so the
    result is the same on any machine (a duplicate board's par is computed with it)."""
    strategy = exact_strategy(level)
    return play_deal(rules, dealt, dealer, [strategy] * 4, base_seed)


def play_version(
    rules: Rules, dealt: Sequence[int], dealer: int, version: str, base_seed: int
) -> HandState:
    """A deal played by four players of the kept ``version`` (``"hard-3"``, ``"hard-2"``,
    ...) without a wall-clock guard: a duplicate board's par, played and recomputed by
    the version that is pinned or was recorded. Raises ``ValueError`` for a version this
    code does not keep."""
    strategy = exact_strategy_of_version(version)
    if strategy is None:
        raise ValueError(f"This code keeps no bot version {version!r}.")
    return play_deal(rules, dealt, dealer, [strategy] * 4, base_seed)
