"""Building table positions for bot tests: named cards, bids and plays through the engine."""

from __future__ import annotations

import random

from bots.strategies.decision import Decision, Strategy
from bots.strategies.hard import HardStrategy
from bots.strategies.registry import get_strategy
from games.engine.bidding import parse_bid, place_bid
from games.engine.cards import FULL_DECK, SUITS, card_name, cards_in, mask_of, parse_cards
from games.engine.hand import BIDDING, HandState, new_hand
from games.engine.play import play_card
from games.engine.rules import PRESETS, Rules
from games.engine.view import SeatView, seat_view

STANDARD = PRESETS["standard"]
# Hard with a small budget keeps the tests quick; the search is the same. The wall-clock
# guard is lifted so a busy machine cannot cut a search short and change a decision.
SMALL_HARD = HardStrategy(playout_budget=600, min_samples=3, max_samples=6, time_limit_ms=60_000)
FULL_HARD = HardStrategy(time_limit_ms=60_000)


def strategy(level: str) -> Strategy:
    """The level's strategy; Hard with a small search budget."""
    return SMALL_HARD if level == "hard" else get_strategy(level)


def build(
    hands: dict[int, str],
    bids: dict[int, int | str] | None = None,
    plays: str = "",
    rules: Rules = STANDARD,
    dealer: int = 3,
    avoid: dict[int, str] | None = None,
    fill_seed: int = 1,
    totals: tuple[int, int] = (0, 0),
) -> HandState:
    """A hand where each seat holds the named cards plus a seeded fill up to 13.

    ``avoid`` keeps suits (letters) out of a seat's fill, for positions where the seat
    shows out. ``bids`` are placed in turn order (a seat missing from it stops the
    bidding there); then ``plays`` are played in turn, validated by the engine.
    """
    avoid = avoid or {}
    masks = [mask_of(parse_cards(hands.get(seat, "").split())) for seat in range(4)]
    taken = masks[0] | masks[1] | masks[2] | masks[3]
    rest = cards_in(FULL_DECK & ~taken)
    random.Random(fill_seed).shuffle(rest)

    def eligible(card: int) -> list[int]:
        return [s for s in range(4) if SUITS[card // 13] not in avoid.get(s, "")]

    rest.sort(key=lambda card: len(eligible(card)))
    for card in rest:
        seats = [s for s in eligible(card) if masks[s].bit_count() < 13]
        if not seats:
            raise ValueError(f"No seat can take {card_name(card)}: loosen 'avoid'.")
        seat = max(seats, key=lambda s: 13 - masks[s].bit_count())
        masks[seat] |= 1 << card
    if any(mask.bit_count() != 13 for mask in masks):
        raise ValueError("Each seat must end with 13 cards.")
    state = new_hand(rules, masks, dealer, 1, totals)
    bids = bids or {}
    while state.phase == BIDDING and state.turn in bids:
        tricks, blind = parse_bid(bids[state.turn])
        place_bid(state, state.turn, tricks, blind)
    for name in plays.split():
        play_card(state, state.turn, parse_cards([name])[0])
    return state


def view_of(
    state: HandState,
    seat: int | None = None,
    totals: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> SeatView:
    """The view of ``seat`` (default: the seat to move)."""
    return seat_view(state, state.turn if seat is None else seat, totals, bags)


def decide(
    level: str,
    state: HandState,
    seat: int | None = None,
    seed: int = 0,
    totals: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> Decision:
    """The level's decision for ``seat`` (default: the seat to move)."""
    return strategy(level).decide(view_of(state, seat, totals, bags), seed)


def played(level: str, state: HandState, seed: int = 0) -> str:
    """The name of the card the level plays now."""
    decision = decide(level, state, seed=seed)
    assert decision.kind == "play"
    return card_name(decision.card)
