"""The bid suggestion for the viewer's own bidding turn (a selector: reads, writes nothing).

``games.selectors.visibility.table_view`` carries no suggestion, so the client asks for it here.
The suggestion is computed from the viewer's own ``SeatView`` only (the same view bots
decide from), so it cannot leak anyone else's cards.
"""

from __future__ import annotations

from typing import Any

from bots.suggestion import suggest_bid
from games.engine.bidding import bid_label
from games.engine.cards import card_name
from games.engine.hand import BIDDING
from games.engine.seats import SEAT_NAMES
from games.engine.view import seat_view
from games.selectors.visibility import viewer_seat
from games.services.errors import CommandRejected
from games.services.table_state import reading_state


def bid_suggestion(table_id: object, viewer: Any) -> dict[str, Any]:
    """``{"version", "seat", "bid", "counted"}`` for the viewer's bidding turn.

    Refusals (``CommandRejected``): 404 no such table, 403 the viewer has no seat, 409 it
    is not the viewer's turn to bid or they have not looked at their cards yet.
    """
    with reading_state(table_id) as state:
        seat = viewer_seat(state, viewer)
        if seat is None:
            raise CommandRejected("not_seated", "You have no seat at this table.", 403)
        hand = state.hand
        if hand is None or hand.phase != BIDDING or hand.turn != seat:
            raise CommandRejected("not_your_bid", "It is not your turn to bid.", 409)
        view = seat_view(hand, seat, state.team_totals(), state.team_bags())
        if not view.looked:
            raise CommandRejected(
                "not_looked", "Look at your cards first: the suggestion counts them.", 409
            )
        suggestion = suggest_bid(view)
        return {
            "version": state.version,
            "seat": SEAT_NAMES[seat],
            "bid": bid_label(suggestion.bid, False),
            "counted": [card_name(card) for card in suggestion.counted],
        }
