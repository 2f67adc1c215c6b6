"""A hand's bids and tricks by seat name, as every written form shows them.

Records, exports, the score projection, rescored ledgers and the table view write a hand
as ``{"north": 4, "east": "nil", ...}`` and ``{"north": 5, "east": 0, ...}``; this is
the one place that builds those two mappings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from .bidding import bid_label
from .hand import NO_BID
from .seats import SEAT_NAMES


class BidsAndTricks(Protocol):
    """A hand's per-seat counts: a :class:`~games.engine.hand.HandState` or a seat view."""

    @property
    def bids(self) -> Sequence[int]: ...

    @property
    def blind(self) -> Sequence[bool]: ...

    @property
    def tricks_won(self) -> Sequence[int]: ...


class HandSummary(NamedTuple):
    """``bids``: each seat's written bid (``None`` until it bids); ``tricks``: tricks taken."""

    bids: dict[str, int | str | None]
    tricks: dict[str, int]


def hand_summary(hand: BidsAndTricks) -> HandSummary:
    """The seat-keyed bids (as written: ``4``, ``"nil"``, ``"blind_nil"``) and tricks."""
    bids, blind, tricks = hand.bids, hand.blind, hand.tricks_won
    return HandSummary(
        {
            SEAT_NAMES[s]: None if bids[s] == NO_BID else bid_label(bids[s], blind[s])
            for s in range(4)
        },
        {SEAT_NAMES[s]: tricks[s] for s in range(4)},
    )
