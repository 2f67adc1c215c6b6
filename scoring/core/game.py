"""A whole game: hands dealt in turn, the dealer rotating, scores until a team wins.

The fold of many hands into one ledger lives with the scoring math, not in the engine:
scoring depends on the engine's rules and seats, never the other way
(``docs/architecture.md``).
"""

from __future__ import annotations

from games.engine.deal import deal_deck
from games.engine.errors import IllegalMove
from games.engine.hand import COMPLETE, HandState, new_hand
from games.engine.rules import Rules
from games.engine.seats import SEAT_NAMES, left_of

from .ledger import HandResult, Ledger


class Game:
    """The rules, the hands so far and the running ledger of one game."""

    __slots__ = ("rules", "first_dealer", "hands", "ledger")

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.hands: list[HandState] = []
        self.ledger = Ledger(rules)

    @property
    def current(self) -> HandState | None:
        """The hand in progress (or the last one, once complete), if any was dealt."""
        return self.hands[-1] if self.hands else None

    @property
    def finished(self) -> bool:
        """Whether a team has won."""
        return self.ledger.finished

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the deal passes clockwise."""
        dealer = self.first_dealer
        for _ in range(len(self.hands)):
            dealer = left_of(dealer)
        return dealer

    def can_deal(self) -> IllegalMove | None:
        """Why no new hand may be dealt now, or ``None``."""
        if self.finished:
            return IllegalMove("game_over", "The game is over: no more hands are dealt.")
        if self.hands and self.hands[-1].phase != COMPLETE:
            return IllegalMove("hand_in_progress", "The current hand is not finished yet.")
        return None

    def start_hand(self, dealt: list[int], dealer: int | None = None) -> HandState:
        """Begin the next hand from four dealt masks; ``dealer`` must be the rotation's."""
        refusal = self.can_deal()
        if refusal is not None:
            raise refusal
        expected = self.next_dealer
        if dealer is not None and dealer != expected:
            raise IllegalMove(
                "wrong_dealer",
                f"The deal passes clockwise: {SEAT_NAMES[expected]} deals this hand, "
                f"not {SEAT_NAMES[dealer]}.",
            )
        totals = (self.ledger.totals[0], self.ledger.totals[1])
        hand = new_hand(self.rules, dealt, expected, len(self.hands) + 1, totals)
        self.hands.append(hand)
        return hand

    def deal(self, deck: list[int]) -> HandState:
        """Deal the next hand from a deck order, one card at a time from the dealer's left."""
        return self.start_hand(deal_deck(deck, self.next_dealer))

    def score_if_complete(self) -> HandResult | None:
        """Score the current hand once its last trick is played (exactly once)."""
        hand = self.current
        if hand is None or hand.phase != COMPLETE or len(self.ledger.hands) == len(self.hands):
            return None
        return self.ledger.record_hand(hand.bids, hand.blind, hand.tricks_won)

    def add_played_hand(self, hand: HandState) -> HandResult:
        """Score a complete hand played elsewhere, as it was played (re-scoring a game).

        Only the ledger is this game's: what was bid and taken stands, and tricks do not
        depend on the rules.
        """
        refusal = self.can_deal()
        if refusal is not None:
            raise refusal
        if hand.phase != COMPLETE:
            raise ValueError("Only a complete hand is scored.")
        self.hands.append(hand)
        return self.ledger.record_hand(hand.bids, hand.blind, hand.tricks_won)
