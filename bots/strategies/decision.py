"""What a strategy answers: one decision for the phase the seat is in."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from games.engine.view import SeatView

DecisionKind = Literal["bid", "look", "pass", "play"]

BID: DecisionKind = "bid"
LOOK: DecisionKind = "look"
PASS: DecisionKind = "pass"
PLAY: DecisionKind = "play"


class NothingToDecide(ValueError):
    """The view gives the seat nothing to do: not its turn, or no pass owed."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One move chosen by a strategy for the seat whose view it was given.

    ``kind`` says which engine call applies it:

    - ``"bid"``: ``place_bid(state, seat, tricks, blind)``; ``tricks`` is 0 for nil and for
      blind nil (then ``blind`` is true).
    - ``"look"``: ``look_at_cards(state, seat)``; only for a seat still eligible for blind
      nil that decided not to bid it. Ask the strategy again with the new view (now
      showing the cards) for the bid itself.
    - ``"pass"``: ``pass_cards(state, seat, list(cards))`` with the two cards to give the
      partner after a blind nil.
    - ``"play"``: ``play_card(state, seat, card)``; ``cards`` holds the one card.

    ``samples`` is how many sampled deals a search went through before it chose (``None``
    when no search ran).  A search can stop early on a wall-clock guard, so the same view
    and seed alone do not always give the same move; ``decide(view, seed, samples=n)``
    runs exactly ``n`` and does.  It is recorded with the decision and is not part of the
    move: two decisions with the same move compare equal.
    """

    kind: DecisionKind
    tricks: int = 0
    blind: bool = False
    cards: tuple[int, ...] = ()
    samples: int | None = field(default=None, compare=False)

    @property
    def card(self) -> int:
        """The card of a ``"play"`` decision."""
        if self.kind != PLAY:
            raise ValueError(f"A {self.kind} decision has no single card.")
        return self.cards[0]

    @classmethod
    def bid(cls, tricks: int, blind: bool = False) -> Decision:
        """Bid ``tricks`` (0 is nil), or blind nil when ``blind``."""
        return cls(BID, tricks=tricks, blind=blind)

    @classmethod
    def look(cls) -> Decision:
        """Look at the cards (giving up blind nil)."""
        return cls(LOOK)

    @classmethod
    def pass_two(cls, first: int, second: int) -> Decision:
        """Pass these two cards to the partner."""
        return cls(PASS, cards=(first, second))

    @classmethod
    def play(cls, card: int) -> Decision:
        """Play ``card``."""
        return cls(PLAY, cards=(card,))

    def searched(self, samples: int | None) -> Decision:
        """This decision, noting the ``samples`` its search went through."""
        return replace(self, samples=samples)


class Strategy(Protocol):
    """A computer player's level: deterministic given the view and the seed."""

    @property
    def version(self) -> str:
        """Level name and revision, e.g. ``"normal-1"``; stored next to each decision."""
        ...

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        """The move for ``view.seat`` now; raises :class:`NothingToDecide` when none is due.

        ``samples`` replays a recorded decision (its :attr:`Decision.samples`): a search
        then goes through exactly that many sampled deals, whatever the clock says.
        """
        ...
