"""What one seat may know: its own cards and everything public, nothing else.

Bots decide from a :class:`SeatView` only, and the platform's per-viewer
responses are built from the same function, so hidden cards cannot leak
through one path while being guarded on another.
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import COMPLETE, PLAYING, HandState
from .play import legal_card_mask
from .rules import Rules
from .seats import partner_of


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a hand (``seat`` is ``None`` for a spectator)."""

    seat: int | None
    rules: Rules
    hand_number: int
    dealer: int
    phase: int
    turn: int
    hand: int
    looked: bool
    bids: tuple[int, ...]
    blind: tuple[bool, ...]
    blind_eligible: tuple[bool, ...]
    passed: int
    received: int
    plays: tuple[tuple[int, int], ...]
    first_leader: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    led_suit: int
    spades_broken: bool
    tricks_won: tuple[int, ...]
    trick_winners: tuple[int, ...]
    legal: int
    team_totals: tuple[int, int]
    team_bags: tuple[int, int]
    revealed: tuple[int, ...]

    @property
    def played_mask(self) -> int:
        """Every card played so far this hand."""
        mask = 0
        for _, card in self.plays:
            mask |= 1 << card
        return mask


def seat_view(
    state: HandState,
    seat: int | None,
    team_totals: tuple[int, int] = (0, 0),
    team_bags: tuple[int, int] = (0, 0),
) -> SeatView:
    """The view of ``state`` for ``seat`` (or a spectator).

    Once the hand is complete every dealt hand is public (``revealed``); before,
    a seat sees its own cards only after looking, and nobody else's.
    """
    own = seat is not None and state.looked[seat]
    exchanged = state.phase >= PLAYING
    passed = received = 0
    if seat is not None and (state.pass_owed[seat] and state.passes[seat]):
        passed = state.passes[seat]
        if exchanged:
            received = state.passes[partner_of(seat)]
    play_seats = state.play_seats()
    trick_start = len(state.plays) - len(state.trick)
    plays = tuple(zip(play_seats, state.plays, strict=True))
    return SeatView(
        seat=seat,
        rules=state.rules,
        hand_number=state.hand_number,
        dealer=state.dealer,
        phase=state.phase,
        turn=state.turn,
        hand=state.hands[seat] if own and seat is not None else 0,
        looked=own,
        bids=tuple(state.bids),
        blind=tuple(state.blind),
        blind_eligible=tuple(state.blind_eligible),
        passed=passed,
        received=received,
        plays=plays,
        first_leader=state.first_leader,
        leader=state.leader,
        trick=plays[trick_start:],
        led_suit=state.led_suit,
        spades_broken=state.spades_broken,
        tricks_won=tuple(state.tricks_won),
        trick_winners=tuple(state.trick_winners),
        legal=legal_card_mask(state) if seat is not None and seat == state.turn and own else 0,
        team_totals=team_totals,
        team_bags=team_bags,
        revealed=tuple(state.dealt) if state.phase == COMPLETE else (),
    )
