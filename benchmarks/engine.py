"""Engine throughput: random complete hands through the server's validation functions.

Run ``python -m benchmarks.engine [--seconds N]``.  Each hand is dealt from a seeded
shuffle (``shuffled_deck``), bid with random legal bids (``legal_bids`` +
``place_bid``) and played with random legal cards (``legal_card_mask`` +
``play_card``): the same calls that validate moves on the server.  A second run copies
the state (``HandState.copy``) at every decision, as a search bot does.  Prints one
JSON line; the OpenSpiel figure is the reference the issue sets (OpenSpiel's C++
Spades driven from Python on this kind of machine).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

from games.engine.bidding import legal_bids, place_bid
from games.engine.cards import cards_in
from games.engine.deal import deal_deck, shuffled_deck
from games.engine.hand import COMPLETE, PLAYING, HandState, new_hand
from games.engine.play import legal_card_mask, play_card
from games.engine.rules import PRESETS, Rules

OPENSPIEL_REFERENCE_HANDS_PER_SECOND = 7500


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


def hands_per_second(seconds: float, copy: bool) -> tuple[float, int]:
    """Play hands for about ``seconds``; the rate and the number of hands played."""
    rules = PRESETS["standard"]
    rng = random.Random(2026)
    hands = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(100):
            hands += 1
            play_random_hand(rules, rng, hands, copy)
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - started), hands


def main(argv: list[str] | None = None) -> None:
    """Measure both rates and print one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=5.0, help="time per measurement (default 5)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be above 0")
    plain, plain_hands = hands_per_second(args.seconds, copy=False)
    copied, copied_hands = hands_per_second(args.seconds, copy=True)
    result = {
        "benchmark": "engine",
        "hands_per_second": round(plain),
        "hands_per_second_with_copy": round(copied),
        "us_per_hand": round(1_000_000 / plain, 1),
        "us_per_hand_with_copy": round(1_000_000 / copied, 1),
        "hands_played": plain_hands,
        "hands_played_with_copy": copied_hands,
        "openspiel_reference_hands_per_second": OPENSPIEL_REFERENCE_HANDS_PER_SECOND,
        "ratio_to_openspiel": round(plain / OPENSPIEL_REFERENCE_HANDS_PER_SECOND, 2),
        "ratio_to_openspiel_with_copy": round(copied / OPENSPIEL_REFERENCE_HANDS_PER_SECOND, 2),
        "seconds_per_measurement": args.seconds,
        "python": platform.python_version(),
    }
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
