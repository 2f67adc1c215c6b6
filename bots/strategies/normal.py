"""Normal: counts its cards to bid, then plays the how-to-play page's advice."""

from __future__ import annotations

from games.engine.hand import BIDDING, PASSING, PLAYING
from games.engine.view import SeatView

from .bidding import normal_bid, wants_blind_nil
from .card_play import choose_card
from .decision import Decision, NothingToDecide
from .passing import choose_pass, owes_pass
from .reading import play_context

# Normal bids blind nil only this far behind (or with the opponents near the target).
NORMAL_BLIND_NIL_DEFICIT = 200


class NormalStrategy:
    """The Normal level (also every computer partner of a human)."""

    version = "normal-1"

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        """Normal's move for ``view.seat``; ``seed`` and ``samples`` are unused (no search)."""
        return decide_by_heuristics(view)


def decide_by_heuristics(view: SeatView) -> Decision:
    """Normal's bid, pass or card for the viewing seat."""
    seat = view.seat
    if seat is None:
        raise NothingToDecide("A spectator has nothing to decide.")
    if view.phase == BIDDING and view.turn == seat:
        if not view.looked:
            if wants_blind_nil(view, NORMAL_BLIND_NIL_DEFICIT):
                return Decision.bid(0, blind=True)
            return Decision.look()
        tricks, _ = normal_bid(view)
        return Decision.bid(tricks)
    if view.phase == PASSING and owes_pass(view):
        return Decision.pass_two(*choose_pass(view))
    if view.phase == PLAYING and view.turn == seat and view.legal:
        return Decision.play(choose_card(play_context(view)))
    raise NothingToDecide(f"Seat {seat} has nothing to decide now.")
