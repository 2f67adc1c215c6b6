"""The bid suggestion shown on a human player's bidding turn (pure: no Django).

It is Normal's bid for the player's seat, the cards to mark and the reason in words, so
the client can show why, whatever the bid: the count and what changed it (the partner's
bid, bags, the bids so far), and for a bid of 1 from a hand that counts under one trick,
why not nil. Every bid of 1 or more marks at least one card: the cards Normal counted, or,
when it counted none, the card most likely to take a trick (``marks == "best_chance"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.strategies.bidding import (
    BAGS_EXACT,
    MINIMUM,
    NIL_OFF,
    OVERBID,
    PARTNER_HIGH,
    PARTNER_NIL,
    SET_ZERO,
    nil_dangers,
    reason_bid,
)
from games.engine.cards import SPADES, card_words
from games.engine.hand import NO_BID
from games.engine.seats import partner_of, team_of
from games.engine.view import SeatView

COUNTED = "counted"
BEST_CHANCE = "best_chance"
NONE = "none"


@dataclass(frozen=True, slots=True)
class BidSuggestion:
    """A suggested bid (0 is nil), the cards to mark (lowest first), what they are
    (``marks``: the cards counted, the best chance of a trick, or none) and the reason."""

    bid: int
    counted: tuple[int, ...]
    reason: str = ""
    marks: str = COUNTED


def suggest_bid(view: SeatView) -> BidSuggestion:
    """Normal's bid for the viewing seat, from its view only, with its reason.

    The seat must have looked at its cards (a seat still eligible for blind nil has not);
    a ``ValueError`` says so otherwise.
    """
    if view.seat is None:
        raise ValueError("A spectator has no bid to suggest.")
    if not view.looked:
        raise ValueError("Look at your cards first: the suggestion counts them.")
    reasoning = reason_bid(view)
    partner_bid = view.bids[partner_of(view.seat)]
    if reasoning.bid == 0:
        cover = f", and your partner's {partner_bid} can cover you" if partner_bid >= 4 else ""
        reason = f"No card in your hand looks likely to take a trick{cover}."
        return BidSuggestion(0, (), reason, NONE)
    notes = reasoning.notes
    if reasoning.estimate < 0.05:
        sentences = ["No card in your hand counts as a trick."]
    elif round(reasoning.estimate, 1) == 1.0:
        sentences = ["Your hand counts about 1 trick."]
    else:
        sentences = [f"Your hand counts about {reasoning.estimate:.1f} tricks."]
    if PARTNER_HIGH in notes:
        sentences.append(
            f"Your partner bid {partner_bid}, so your side kings and queens count for less."
        )
    if MINIMUM in notes:
        pass  # the lowest bid: how the count was rounded does not matter
    elif BAGS_EXACT in notes:
        bags = view.team_bags[team_of(view.seat)]
        sentences.append(f"Your team has {bags} bags: bid exactly, as the tenth costs 100.")
    elif SET_ZERO in notes:
        sentences.append("A set only scores 0 at this table, so the count is rounded up.")
    elif MINIMUM not in notes and reasoning.bid < reasoning.estimate:
        sentences.append("Rounded down: a set costs the whole bid, a bag only 1.")
    if OVERBID in notes:
        others = sum(b for s, b in enumerate(view.bids) if s != view.seat and b != NO_BID)
        sentences.append(f"The others have bid {others}: one less, as someone will be set.")
    if MINIMUM in notes:
        if NIL_OFF in notes:
            why = "nil is not played at this table"
        elif PARTNER_NIL in notes:
            why = "nil is no choice next to your partner's nil"
        else:
            dangers = nil_dangers(view.hand)[:2]
            named = " and ".join(card_words(card) for card in dangers)
            why = f"nil is risky with {named}" if dangers else "nil is risky with this hand"
        sentences.append(f"1 is the lowest bid here: {why}.")
    counted = reasoning.count.counted
    marks = COUNTED
    if not counted:
        counted = (_best_chance(view.hand),)
        marks = BEST_CHANCE
    return BidSuggestion(reasoning.bid, counted, " ".join(sentences), marks)


def _best_chance(hand: int) -> int:
    """The card most likely to take a trick: the highest rank, a spade between equals."""
    cards = [card for card in range(52) if hand >> card & 1]
    return max(cards, key=lambda c: (c % 13, c // 13 == SPADES))
