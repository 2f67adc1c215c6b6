"""The state of one hand: deal, bidding, blind-nil passing, thirteen tricks.

:class:`HandState` is deliberately a plain mutable object with ``__slots__`` and
integer fields: bots copy it thousands of times per decision, and the server
folds events into it.  Every change goes through the functions in
``bidding.py``, ``passing.py`` and ``play.py``, which validate first and
mutate only when the move is legal.
"""

from __future__ import annotations

from .rules import Rules
from .seats import left_of

# Phases of a hand.
BIDDING = 0
PASSING = 1
PLAYING = 2
COMPLETE = 3
PHASE_NAMES = ("bidding", "passing", "playing", "complete")

NO_BID = -1
NO_SEAT = -1


class HandState:
    """Everything about one hand in progress; derive, never store, the results."""

    __slots__ = (
        "rules",
        "hand_number",
        "dealer",
        "dealt",
        "hands",
        "phase",
        "turn",
        "bids",
        "blind",
        "looked",
        "blind_eligible",
        "passes",
        "pass_owed",
        "plays",
        "trick",
        "leader",
        "first_leader",
        "led_suit",
        "best_seat",
        "best_value",
        "spades_broken",
        "tricks_won",
        "trick_winners",
    )

    rules: Rules
    hand_number: int
    dealer: int
    dealt: list[int]
    hands: list[int]
    phase: int
    turn: int
    bids: list[int]
    blind: list[bool]
    looked: list[bool]
    blind_eligible: list[bool]
    passes: list[int]
    pass_owed: list[bool]
    plays: list[int]
    trick: list[int]
    leader: int
    first_leader: int
    led_suit: int
    best_seat: int
    best_value: int
    spades_broken: bool
    tricks_won: list[int]
    trick_winners: list[int]

    def copy(self) -> HandState:
        """An independent copy (lists copied, rules shared: they are immutable).

        Lists nothing writes to any more are shared rather than copied: ``dealt`` and
        ``blind_eligible`` always, and once play has started the bids, looks and passes,
        which only bidding and passing change.  Search bots copy at every decision, so
        the saved list copies are a measurable part of their time.
        """
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.hand_number = self.hand_number
        other.dealer = self.dealer
        other.dealt = self.dealt
        other.hands = self.hands[:]
        other.phase = self.phase
        other.turn = self.turn
        if self.phase >= PLAYING:
            other.bids = self.bids
            other.blind = self.blind
            other.looked = self.looked
            other.passes = self.passes
            other.pass_owed = self.pass_owed
        else:
            other.bids = self.bids[:]
            other.blind = self.blind[:]
            other.looked = self.looked[:]
            other.passes = self.passes[:]
            other.pass_owed = self.pass_owed[:]
        other.blind_eligible = self.blind_eligible
        other.plays = self.plays[:]
        other.trick = self.trick[:]
        other.leader = self.leader
        other.first_leader = self.first_leader
        other.led_suit = self.led_suit
        other.best_seat = self.best_seat
        other.best_value = self.best_value
        other.spades_broken = self.spades_broken
        other.tricks_won = self.tricks_won[:]
        other.trick_winners = self.trick_winners[:]
        return other

    @property
    def trick_number(self) -> int:
        """The 0-based number of the trick being played (13 when the hand is over)."""
        return len(self.trick_winners)

    @property
    def seat_to_play(self) -> int:
        """Whose turn it is to bid or play, or ``NO_SEAT`` while passing or after the hand."""
        return self.turn

    def trick_seats(self) -> list[int]:
        """The seats that played the cards of the current trick, in order."""
        return [(self.leader + offset) & 3 for offset in range(len(self.trick))]

    def play_seats(self) -> list[int]:
        """The seat of every card in ``plays``, in order."""
        seats = []
        leader = self.first_leader
        for index in range(len(self.plays)):
            trick, offset = divmod(index, 4)
            if offset == 0 and trick:
                leader = self.trick_winners[trick - 1]
            seats.append((leader + offset) & 3)
        return seats


def new_hand(
    rules: Rules,
    dealt: list[int],
    dealer: int,
    hand_number: int = 1,
    team_scores: tuple[int, int] = (0, 0),
) -> HandState:
    """A hand ready for bidding, from the four dealt masks.

    ``team_scores`` are the totals before the hand; they decide who may bid
    blind nil (a team trailing by at least ``blind_nil_min_deficit``).
    """
    state = HandState.__new__(HandState)
    state.rules = rules
    state.hand_number = hand_number
    state.dealer = dealer
    state.dealt = list(dealt)
    state.hands = list(dealt)
    state.phase = BIDDING
    state.turn = left_of(dealer)
    state.bids = [NO_BID] * 4
    state.blind = [False] * 4
    eligible = [
        rules.blind_nil
        and team_scores[1 - (seat & 1)] - team_scores[seat & 1] >= rules.blind_nil_min_deficit
        for seat in range(4)
    ]
    state.blind_eligible = eligible
    # A seat that may bid blind nil has not seen its cards yet; everyone else has.
    state.looked = [not eligible[seat] for seat in range(4)]
    state.passes = [0, 0, 0, 0]
    state.pass_owed = [False] * 4
    state.plays = []
    state.trick = []
    state.leader = NO_SEAT
    state.first_leader = NO_SEAT
    state.led_suit = -1
    state.best_seat = NO_SEAT
    state.best_value = -1
    state.spades_broken = False
    state.tricks_won = [0, 0, 0, 0]
    state.trick_winners = []
    return state
