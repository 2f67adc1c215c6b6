"""Moves as values: every legal move in a position, and applying one.

Servers and bots mostly call ``place_bid``, ``pass_cards`` and ``play_card``
directly; this module gives the uniform view that generic code (replays,
property tests, searches) wants.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .bidding import legal_bids, may_bid_blind_nil, place_bid
from .cards import cards_in
from .errors import IllegalMove
from .hand import BIDDING, PASSING, PLAYING, HandState
from .passing import pass_cards
from .play import legal_cards, play_card

BID = "bid"
BLIND_NIL = "blind_nil"
PASS = "pass"
PLAY = "play"


@dataclass(frozen=True, slots=True)
class Move:
    """One action by one seat: a bid, a blind nil, a two-card pass or a card."""

    kind: str
    seat: int
    bid: int = 0
    cards: tuple[int, ...] = ()

    @property
    def card(self) -> int:
        """The card of a play."""
        return self.cards[0]


def legal_moves(state: HandState) -> list[Move]:
    """Every move any seat may make now (while passing, each seat that owes a pass)."""
    if state.phase == BIDDING:
        seat = state.turn
        moves = [Move(BID, seat, bid) for bid in legal_bids(state, seat)]
        if may_bid_blind_nil(state, seat):
            moves.append(Move(BLIND_NIL, seat))
        return moves
    if state.phase == PASSING:
        return [
            Move(PASS, seat, cards=pair)
            for seat in range(4)
            if state.pass_owed[seat] and not state.passes[seat]
            for pair in combinations(cards_in(state.hands[seat]), 2)
        ]
    if state.phase == PLAYING:
        return [Move(PLAY, state.turn, cards=(card,)) for card in legal_cards(state)]
    return []


def apply_move(state: HandState, move: Move) -> None:
    """Apply ``move`` or raise :class:`IllegalMove` with the reason."""
    if move.kind == BID:
        place_bid(state, move.seat, move.bid)
    elif move.kind == BLIND_NIL:
        place_bid(state, move.seat, 0, blind=True)
    elif move.kind == PASS:
        pass_cards(state, move.seat, list(move.cards))
    elif move.kind == PLAY:
        play_card(state, move.seat, move.card)
    else:
        raise IllegalMove("unknown_move", f"'{move.kind}' is not a move.")
