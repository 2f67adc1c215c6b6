"""Engine throughput: random complete hands through the server's validation functions.

Run ``python -m benchmarks.engine [--seconds N]``.  Each hand is dealt from a seeded
shuffle (``shuffled_deck``), bid with random legal bids (``legal_bids`` +
``place_bid``) and played with random legal cards (``legal_card_mask`` +
``play_card``): the same calls that validate moves on the server.  A second workload
copies the state (``HandState.copy``) at every decision, as a search bot does.

The baseline is OpenSpiel's C++ Spades driven from Python.  When ``pyspiel`` is
importable (``pip install -e '.[bench]'``) it is measured in the same run, the three
workloads taking turns in short rounds so a busy machine slows them alike; otherwise
only the reference figure from the issue (7,500 hands/s on this kind of machine) is
given.  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable

from games.engine.bidding import legal_bids, place_bid
from games.engine.cards import cards_in
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import COMPLETE, PLAYING, HandState, new_hand
from games.engine.play import legal_card_mask, play_card
from games.engine.rules import PRESETS, Rules

OPENSPIEL_REFERENCE_HANDS_PER_SECOND = 7500
ROUNDS = 5

# Plays hand number ``n`` with ``rng``.
HandPlayer = Callable[[random.Random, int], None]


def play_random_hand(rules: Rules, rng: random.Random, number: int, copy: bool) -> HandState:
    """Deal hand ``number`` from its seeded shuffle and play it out with random legal moves."""
    dealer = number & 3
    state = new_hand(rules, deal_deck(shuffled_deck("benchmark", number), dealer), dealer, number)
    while state.phase != PLAYING:
        if copy:
            state.copy()
        seat = state.turn
        place_bid(state, seat, rng.choice(legal_bids(state, seat)))
    while state.phase != COMPLETE:
        if copy:
            state.copy()
        play_card(state, state.turn, rng.choice(cards_in(legal_card_mask(state))))
    return state


def _play(rules: Rules, rng: random.Random, number: int, copy: bool) -> None:
    play_random_hand(rules, rng, number, copy)


def openspiel_player() -> HandPlayer | None:
    """One OpenSpiel Spades hand (its game is one hand: deal, bids, 13 tricks), if installed."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # optional: the [bench] extra
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def play(rng: random.Random, number: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])

    return play


def measure(players: dict[str, HandPlayer], seconds: float) -> dict[str, tuple[float, int]]:
    """Hands per second of each player, taking turns for ``seconds`` each in all."""
    rng = random.Random(2026)
    hands = dict.fromkeys(players, 0)
    elapsed = dict.fromkeys(players, 0.0)
    for _ in range(ROUNDS):
        for name, player in players.items():
            started = time.perf_counter()
            deadline = started + seconds / ROUNDS
            while True:
                for _ in range(50):
                    hands[name] += 1
                    player(rng, hands[name])
                now = time.perf_counter()
                if now >= deadline:
                    break
            elapsed[name] += now - started
    return {name: (hands[name] / elapsed[name], hands[name]) for name in players}


def main(argv: list[str] | None = None) -> None:
    """Measure and print one JSON line."""
    parser = argparse.ArgumentParser(description="Engine throughput in random complete hands.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per workload (default 5)")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be above 0")
    rules = PRESETS["standard"]
    players: dict[str, HandPlayer] = {
        "engine": lambda rng, number: _play(rules, rng, number, copy=False),
        "engine_with_copy": lambda rng, number: _play(rules, rng, number, copy=True),
    }
    openspiel = openspiel_player()
    if openspiel is not None:
        players["openspiel"] = openspiel
    rates = measure(players, args.seconds)
    plain, copied = rates["engine"][0], rates["engine_with_copy"][0]
    same_run = rates["openspiel"][0] if "openspiel" in rates else None
    result = {
        "benchmark": "engine",
        "hands_per_second": round(plain),
        "hands_per_second_with_copy": round(copied),
        "us_per_hand": round(1_000_000 / plain, 1),
        "us_per_hand_with_copy": round(1_000_000 / copied, 1),
        "hands_played": rates["engine"][1],
        "hands_played_with_copy": rates["engine_with_copy"][1],
        "openspiel_reference_hands_per_second": OPENSPIEL_REFERENCE_HANDS_PER_SECOND,
        "ratio_to_openspiel_reference": round(plain / OPENSPIEL_REFERENCE_HANDS_PER_SECOND, 2),
        "openspiel_same_run_hands_per_second": None if same_run is None else round(same_run),
        "ratio_to_openspiel_same_run": None if same_run is None else round(plain / same_run, 2),
        "ratio_with_copy_to_openspiel_same_run": (
            None if same_run is None else round(copied / same_run, 2)
        ),
        "seconds_per_workload": args.seconds,
        "python": platform.python_version(),
    }
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
