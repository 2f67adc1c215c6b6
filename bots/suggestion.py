"""The bid suggestion shown on a human player's bidding turn (pure: no Django).

It is Normal's bid for the player's seat and the cards Normal counted for it, so the
client can mark them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.strategies.bidding import normal_bid
from games.engine.view import SeatView


@dataclass(frozen=True, slots=True)
class BidSuggestion:
    """A suggested bid (0 is nil) and the cards counted for it, lowest card first."""

    bid: int
    counted: tuple[int, ...]


def suggest_bid(view: SeatView) -> BidSuggestion:
    """Normal's bid for the viewing seat, from its view only.

    The seat must have looked at its cards (a seat still eligible for blind nil has not);
    a ``ValueError`` says so otherwise.
    """
    if view.seat is None:
        raise ValueError("A spectator has no bid to suggest.")
    if not view.looked:
        raise ValueError("Look at your cards first: the suggestion counts them.")
    tricks, count = normal_bid(view)
    return BidSuggestion(bid=tricks, counted=count.counted)
