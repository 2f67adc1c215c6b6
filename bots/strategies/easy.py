"""Easy: grabs every trick it can, so it often overshoots or misses its bid."""

from __future__ import annotations

from games.engine.cards import SPADES_MASK
from games.engine.hand import BIDDING, PASSING, PLAYING
from games.engine.view import SeatView

from .bidding import easy_bid, wants_blind_nil
from .blind_nil import EASY_ODDS, wants_blind_nil_by_odds
from .card_play import highest, highest_rank, lowest, lowest_rank, winning_cards
from .decision import Decision, NothingToDecide
from .passing import choose_pass, owes_pass
from .reading import trick_leader_card

# easy-1 risked blind nil only when hopelessly behind.
EASY_BLIND_NIL_DEFICIT = 300
REVISIONS = (1, 2)
LATEST = 2


class EasyStrategy:
    """The Easy level: bids its raw count and plays to win each trick.

    ``revision`` picks an earlier revision's decisions (kept for replay): easy-1 bid blind
    nil 300 behind, and nil with nothing in hand even next to a partner's nil; easy-2 bids
    blind nil by the expected-value rule of ``blind_nil`` (Easy's own odds) and never nil
    next to a partner's nil.
    """

    def __init__(self, revision: int = LATEST) -> None:
        if revision not in REVISIONS:
            raise ValueError(f"Easy has no revision {revision}.")
        self.revision = revision
        self.version = f"easy-{revision}"

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        """Easy's move for ``view.seat``; ``seed`` and ``samples`` are unused (no search)."""
        seat = view.seat
        if seat is None:
            raise NothingToDecide("A spectator has nothing to decide.")
        if view.phase == BIDDING and view.turn == seat:
            if not view.looked:
                if self._wants_blind_nil(view):
                    return Decision.bid(0, blind=True)
                return Decision.look()
            return Decision.bid(easy_bid(view, next_to_nil=self.revision == 1))
        if view.phase == PASSING and owes_pass(view):
            return Decision.pass_two(*choose_pass(view))
        if view.phase == PLAYING and view.turn == seat and view.legal:
            return Decision.play(grab_trick(view))
        raise NothingToDecide(f"Seat {seat} has nothing to decide now.")

    def _wants_blind_nil(self, view: SeatView) -> bool:
        if self.revision == 1:
            return wants_blind_nil(view, EASY_BLIND_NIL_DEFICIT)
        return wants_blind_nil_by_odds(view, EASY_ODDS)


def grab_trick(view: SeatView) -> int:
    """Win the trick if any card can (with the highest such card), else play the lowest.

    A seat that bid nil and has not taken a trick still tries to stay under.
    """
    legal = view.legal
    seat = view.seat
    assert seat is not None
    nil_alive = view.bids[seat] == 0 and view.tricks_won[seat] == 0
    if not view.trick:
        side = legal & ~SPADES_MASK
        if nil_alive:
            return lowest_rank(side or legal)
        return highest_rank(legal)
    _, best_card = trick_leader_card(view.trick)
    winners = winning_cards(legal, best_card, view.trick[0][1] // 13)
    if nil_alive:
        losers = legal & ~winners
        return highest_rank(losers) if losers else lowest(winners)
    if winners:
        return highest(winners)
    return lowest_rank(legal)
