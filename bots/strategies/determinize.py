"""Sampling deals of the unseen cards consistent with what one seat has seen.

A sampled deal gives every other seat exactly as many cards as it holds, never a card
of a suit it is known to be out of, and the cards this seat passed to its partner.
The bids weigh the samples: a deal in which a seat that bid 5 holds nothing is kept
less often than one where its cards count to about 5 (importance resampling with the
same counting Normal bids by).
"""

from __future__ import annotations

import math
import random

from games.engine.cards import SUIT_MASKS
from games.engine.view import SeatView

from .bidding import count_tricks, nil_risk
from .inference import Inference

MAX_ATTEMPTS = 30
BID_SPREAD = 1.6  # how far (in tricks) a bid may plausibly be from a hand's count


def sample_hands(inference: Inference, rng: random.Random) -> list[int]:
    """Current holdings of all four seats: one deal consistent with ``inference``."""
    for attempt in range(MAX_ATTEMPTS):
        hands = _try_sample(inference, rng, respect_voids=attempt < MAX_ATTEMPTS - 1)
        if hands is not None:
            return hands
    raise ValueError("No deal is consistent with this view.")


def _try_sample(inference: Inference, rng: random.Random, respect_voids: bool) -> list[int] | None:
    me = inference.seat
    hands = list(inference.known)
    room = [inference.counts[s] - hands[s].bit_count() for s in range(4)]
    room[me] = 0
    # Suits with the fewest seats able to hold them are dealt first.
    suits = []
    for suit in (0, 1, 2, 3):
        cards = inference.unseen & SUIT_MASKS[suit]
        if not cards:
            continue
        seats = [
            s
            for s in range(4)
            if s != me and not (respect_voids and inference.voids[s] >> suit & 1)
        ]
        suits.append((len(seats), suit, cards, seats))
    suits.sort()
    for _, _, cards, seats in suits:
        deck = []
        while cards:
            bit = cards & -cards
            deck.append(bit.bit_length() - 1)
            cards ^= bit
        rng.shuffle(deck)
        for card in deck:
            total = 0
            for s in seats:
                total += room[s]
            if total <= 0:
                return None
            pick = rng.randrange(total)
            for s in seats:
                if pick < room[s]:
                    hands[s] |= 1 << card
                    room[s] -= 1
                    break
                pick -= room[s]
    if any(room):
        return None
    return hands


def bid_weight(view: SeatView, inference: Inference, hands: list[int]) -> float:
    """How well a sampled deal agrees with the other seats' bids (1.0 best)."""
    me = inference.seat
    log_weight = 0.0
    for seat in range(4):
        bid = view.bids[seat]
        if seat == me or bid < 0 or view.blind[seat]:
            continue
        dealt = hands[seat] | inference.played[seat]
        if seat == (me ^ 2) and view.passed:
            # Before the blind nil exchange the partner held what it passed to us,
            # not what we passed to it.
            dealt = (dealt & ~view.passed) | view.received
        nil = bid == 0
        excess = max(0.0, nil_risk(dealt) - 0.7) if nil else count_tricks(dealt).total - bid
        log_weight -= (excess * excess) / (2 * BID_SPREAD * BID_SPREAD)
    return math.exp(log_weight)


def sample_weighted(
    view: SeatView, inference: Inference, rng: random.Random, count: int, pool: int
) -> list[list[int]]:
    """``count`` deals resampled from ``pool`` candidates in proportion to :func:`bid_weight`."""
    candidates = [sample_hands(inference, rng) for _ in range(max(pool, count))]
    if pool <= count:
        return candidates[:count]
    weights = [bid_weight(view, inference, hands) for hands in candidates]
    total = sum(weights)
    if total <= 0:
        return candidates[:count]
    # Systematic resampling: low variance, deterministic given the generator.
    step = total / count
    position = rng.random() * step
    chosen: list[list[int]] = []
    cumulative = 0.0
    for hands, weight in zip(candidates, weights, strict=True):
        cumulative += weight
        while position < cumulative and len(chosen) < count:
            chosen.append(hands)
            position += step
    while len(chosen) < count:
        chosen.append(candidates[-1])
    return chosen
