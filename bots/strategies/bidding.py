"""Bidding by counting strong cards and spades, as the how-to-play page teaches.

:func:`count_tricks` values a hand; :func:`normal_bid` turns that into Normal's bid,
listening to the partner's bid, the total already bid, the team's bags and the rules
(nil on or off, bag penalty); :func:`wants_blind_nil` decides blind nil before looking.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.cards import SPADES, SUIT_MASKS
from games.engine.hand import NO_BID
from games.engine.seats import partner_of, team_of
from games.engine.view import SeatView

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8
BAGS_NEAR_PENALTY = 7
MAX_BID = 13


@dataclass(frozen=True, slots=True)
class HandCount:
    """A hand's expected tricks, split as the bid reasoning needs them.

    ``sure`` counts aces and protected spade honours; ``soft`` side-suit kings and
    queens (worth less when the partner bid high); ``trumps`` spade length and
    ruffs; ``counted`` the cards that contributed.
    """

    sure: float
    soft: float
    trumps: float
    counted: tuple[int, ...]

    @property
    def total(self) -> float:
        """Expected tricks."""
        return self.sure + self.soft + self.trumps


def count_tricks(hand: int) -> HandCount:
    """Count the tricks a hand should take: honours by suit length, then spades and voids."""
    sure = soft = trumps = 0.0
    counted: list[int] = []
    spades = hand & SUIT_MASKS[SPADES]
    spade_count = spades.bit_count()
    spade_base = SPADES * 13
    spade_honours = 0
    for rank, need, value in ((ACE, 1, 1.0), (KING, 2, 1.0), (QUEEN, 3, 0.8), (JACK, 4, 0.6)):
        if spades >> (spade_base + rank) & 1 and spade_count >= need:
            sure += value
            spade_honours += 1
            counted.append(spade_base + rank)
    # Spades beyond the third take tricks by length; the lowest of them are the ones counted.
    length_tricks = max(0, spade_count - 3)
    low_spades = [c for c in _cards_low_first(spades) if c - spade_base < JACK]
    for card in low_spades[:length_tricks]:
        trumps += 0.9
        counted.append(card)
    spare_trumps = max(0, spade_count - spade_honours - length_tricks)
    for suit in (0, 1, 2):
        cards = hand & SUIT_MASKS[suit]
        length = cards.bit_count()
        base = suit * 13
        has_ace = bool(cards >> (base + ACE) & 1)
        has_king = bool(cards >> (base + KING) & 1)
        if has_ace:
            sure += 1.0 if length <= 5 else 0.7
            counted.append(base + ACE)
        if has_king and length >= 2:
            value = 0.9 if has_ace else 0.75
            soft += value if length <= 5 else value - 0.3
            counted.append(base + KING)
        if cards >> (base + QUEEN) & 1 and 3 <= length <= 4 and (has_ace or has_king):
            soft += 0.5
            counted.append(base + QUEEN)
        # A short side suit lets low spades trump.
        if spare_trumps and length <= 1:
            ruffs = min(spare_trumps, 2 - length)
            trumps += 0.7 * ruffs
            spare_trumps -= ruffs
            counted.extend(_cards_low_first(spades & ~_mask(counted))[:ruffs])
    return HandCount(sure, soft, trumps, tuple(sorted(set(counted))))


def _cards_low_first(mask: int) -> list[int]:
    cards = []
    while mask:
        bit = mask & -mask
        cards.append(bit.bit_length() - 1)
        mask ^= bit
    return cards


def _mask(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def nil_risk(hand: int) -> float:
    """How likely the hand is to be forced to win a trick (0 safe .. higher risky)."""
    risk = 0.0
    spades = hand & SUIT_MASKS[SPADES]
    spade_count = spades.bit_count()
    for card in _cards_low_first(spades):
        rank = card - SPADES * 13
        if rank >= JACK:
            risk += 1.0
        elif rank >= 7:
            risk += 0.4
    if spade_count >= 4:
        risk += 0.5 * (spade_count - 3)
    for suit in (0, 1, 2):
        cards = hand & SUIT_MASKS[suit]
        if not cards:
            continue
        length = cards.bit_count()
        low = sum(1 for c in _cards_low_first(cards) if c % 13 <= 5)
        top = (cards.bit_length() - 1) % 13
        if top == ACE:
            risk += 1.0
        elif top == KING:
            risk += 0.6 if low < 2 else 0.25
        elif top >= JACK:
            risk += 0.35 if low < 2 else 0.1
        if length >= 5 and low < 2:
            risk += 0.3
    return risk


def _partner_bid(view: SeatView, seat: int) -> int:
    return view.bids[partner_of(seat)]


# Why a bid differs from the plain count (BidReasoning.notes), for the bid suggestion.
PARTNER_HIGH = "partner_high"  # the partner bid 4+: side kings and queens count less
BAGS_EXACT = "bags_exact"  # 7+ bags under a bag penalty: bid exactly (rounded)
SET_ZERO = "set_zero"  # a set scores 0: rounded up
OVERBID = "overbid"  # the four bids would pass 14: one trick off
MINIMUM = "minimum"  # the count is under one trick, but a bid is at least 1
NIL_OFF = "nil_off"  # nil is not played at this table
PARTNER_NIL = "partner_nil"  # no nil next to a partner's nil
NIL_RISKY = "nil_risky"  # the hand has cards that may be forced to win a trick
NIL_WEAK = "nil_weak"  # the hand is weak and safe enough for nil


@dataclass(frozen=True, slots=True)
class BidReasoning:
    """Normal's bid (0 is nil), the count behind it, the estimate it rounded and the notes
    (the constants above) on what changed the bid; the suggestion puts them in words."""

    bid: int
    count: HandCount
    estimate: float
    notes: tuple[str, ...]


def normal_bid(view: SeatView) -> tuple[int, HandCount]:
    """Normal's bid for the seat to bid (0 is nil) and the count behind it."""
    reasoning = reason_bid(view)
    return reasoning.bid, reasoning.count


def reason_bid(view: SeatView) -> BidReasoning:
    """Normal's bid for the seat to bid, with why (see :class:`BidReasoning`)."""
    if view.seat is None:
        raise ValueError("A spectator does not bid.")
    seat = view.seat
    rules = view.rules
    notes: list[str] = []
    count = count_tricks(view.hand)
    partner_bid = _partner_bid(view, seat)
    soft = count.soft
    if partner_bid >= 4:
        # The partner holds many of the high cards: our kings and queens win less often.
        soft *= 0.7
        if count.soft:
            notes.append(PARTNER_HIGH)
    estimate = count.sure + soft + count.trumps
    bags = view.team_bags[team_of(seat)]
    if rules.bag_penalty and bags >= BAGS_NEAR_PENALTY:
        bid = int(estimate + 0.5)  # bid exactly: every extra trick brings the penalty nearer
        notes.append(BAGS_EXACT)
    elif rules.set_penalty == "zero":
        bid = int(estimate + 0.5)  # a set only scores 0 here, so bidding up costs little
        notes.append(SET_ZERO)
    else:
        bid = int(estimate + 0.15)  # a little low: a set costs the whole bid
    others_bid = sum(b for s, b in enumerate(view.bids) if s != seat and b != NO_BID)
    if others_bid + bid > 14 and bid > 1:
        bid -= 1  # someone will be set; do not make it us
        notes.append(OVERBID)
    risk = nil_risk(view.hand)
    if (
        rules.nil
        and partner_bid != 0
        and risk <= (1.5 if partner_bid >= 4 else 1.2)
        and estimate < 2.0
    ):
        return BidReasoning(0, count, estimate, (NIL_WEAK,))
    if bid < 1:
        notes.append(MINIMUM)
        if not rules.nil:
            notes.append(NIL_OFF)
        elif partner_bid == 0:
            notes.append(PARTNER_NIL)
        else:
            notes.append(NIL_RISKY)
    bid = max(1, min(MAX_BID, bid))
    return BidReasoning(bid, count, estimate, tuple(notes))


def nil_dangers(hand: int) -> list[int]:
    """The cards that make nil risky, highest first (a spade before a side card of the same
    rank): spades from the ten up, and side aces, and kings and queens with fewer than two
    low cards (2-7) to play under them."""
    dangers: list[int] = []
    for card in reversed(_cards_low_first(hand & SUIT_MASKS[SPADES])):
        if card - SPADES * 13 >= TEN:
            dangers.append(card)
    for suit in (0, 1, 2):
        cards = hand & SUIT_MASKS[suit]
        low = sum(1 for c in _cards_low_first(cards) if c % 13 <= 5)
        for card in reversed(_cards_low_first(cards)):
            if card % 13 >= QUEEN and (card % 13 == ACE or low < 2):
                dangers.append(card)
    return sorted(dangers, key=lambda c: (c % 13, c // 13 == SPADES), reverse=True)


def easy_bid(view: SeatView, next_to_nil: bool = False) -> int:
    """Easy's bid: its raw count rounded, nil only for a hand with nothing in it.

    Never nil next to a partner's nil or blind nil, unless ``next_to_nil`` (easy-1 did).
    """
    count = count_tricks(view.hand)
    partner_nil = view.seat is not None and _partner_bid(view, view.seat) == 0
    if (
        view.rules.nil
        and (next_to_nil or not partner_nil)
        and count.total < 0.5
        and nil_risk(view.hand) <= 0.5
    ):
        return 0
    return max(1, min(MAX_BID, int(count.total + 0.5)))


def deficit(view: SeatView, seat: int) -> int:
    """How far the seat's team trails the opponents before this hand."""
    team = team_of(seat)
    return view.team_totals[1 - team] - view.team_totals[team]


def wants_blind_nil(view: SeatView, far_behind: int) -> bool:
    """Whether to bid blind nil now, before looking, when the seat may (revision 1 only:
    ``blind_nil`` has the rule of the later revisions).

    Only when the team trails by ``far_behind`` points or more (or the opponents are
    within reach of the target), and the partner has not bid nil and has not bid so
    low that it could not cover.
    """
    if view.seat is None:
        return False
    seat = view.seat
    rules = view.rules
    if not (rules.blind_nil and view.blind_eligible[seat] and not view.looked):
        return False
    behind = deficit(view, seat)
    opponents_close = view.team_totals[1 - team_of(seat)] >= rules.target_score - 150
    if behind < max(far_behind, rules.blind_nil_min_deficit) and not (
        opponents_close and behind >= rules.blind_nil_min_deficit
    ):
        return False
    partner_bid = _partner_bid(view, seat)
    return partner_bid == NO_BID or partner_bid >= 3
