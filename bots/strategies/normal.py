"""Normal: counts its cards to bid, then plays the how-to-play page's advice."""

from __future__ import annotations

from collections.abc import Callable

from games.engine.hand import BIDDING, PASSING, PLAYING
from games.engine.view import SeatView

from .bidding import normal_bid, wants_blind_nil
from .blind_nil import NORMAL_ODDS, wants_blind_nil_by_odds
from .card_play import choose_card
from .decision import Decision, NothingToDecide
from .passing import choose_pass, owes_pass
from .reading import play_context

# normal-1 bid blind nil this far behind (or with the opponents near the target).
NORMAL_BLIND_NIL_DEFICIT = 200

BlindNilRule = Callable[[SeatView], bool]


def blind_nil_by_deficit(view: SeatView) -> bool:
    """normal-1's (and hard-1's) blind nil: far enough behind, partner not below 3."""
    return wants_blind_nil(view, NORMAL_BLIND_NIL_DEFICIT)


def blind_nil_by_odds(view: SeatView) -> bool:
    """normal-2's (and hard-2's) blind nil: the expected-value rule of ``blind_nil``."""
    return wants_blind_nil_by_odds(view, NORMAL_ODDS)


# Each revision's blind nil rule; the rest of Normal is the same in both.
BLIND_NIL_RULES: dict[int, BlindNilRule] = {1: blind_nil_by_deficit, 2: blind_nil_by_odds}
LATEST = 2


class NormalStrategy:
    """The Normal level (also every computer partner of a human).

    ``revision`` picks an earlier revision's decisions, kept so that moves recorded under
    it replay exactly (``bots.strategies.replay``); new moves use the latest.
    """

    def __init__(self, revision: int = LATEST) -> None:
        if revision not in BLIND_NIL_RULES:
            raise ValueError(f"Normal has no revision {revision}.")
        self.revision = revision
        self.version = f"normal-{revision}"
        self._blind_nil = BLIND_NIL_RULES[revision]

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        """Normal's move for ``view.seat``; ``seed`` and ``samples`` are unused (no search)."""
        return decide_by_heuristics(view, self._blind_nil)


def decide_by_heuristics(view: SeatView, blind_nil: BlindNilRule = blind_nil_by_odds) -> Decision:
    """Normal's bid, pass or card for the viewing seat (``blind_nil``: the revision's rule)."""
    seat = view.seat
    if seat is None:
        raise NothingToDecide("A spectator has nothing to decide.")
    if view.phase == BIDDING and view.turn == seat:
        if not view.looked:
            if blind_nil(view):
                return Decision.bid(0, blind=True)
            return Decision.look()
        tricks, _ = normal_bid(view)
        return Decision.bid(tricks)
    if view.phase == PASSING and owes_pass(view):
        return Decision.pass_two(*choose_pass(view))
    if view.phase == PLAYING and view.turn == seat and view.legal:
        return Decision.play(choose_card(play_context(view)))
    raise NothingToDecide(f"Seat {seat} has nothing to decide now.")
