"""Normal's card play: the table heuristics of the how-to-play page, on bitmasks.

The same function plays a Normal seat at a real table (from its view) and every seat
inside Hard's playouts (from a sampled deal), so it works on a small
:class:`PlayContext` of integers rather than on a view or a hand state.

What it does, in order of priority:

1. A seat that bid nil and has taken no trick stays under the winning card, dumping its
   highest card that stays under.
2. Covering a partner's nil: play high before the partner, overtake the partner when the
   partner is winning, lead high.
3. Attacking an opponent's nil: lead low in suits the nil bidder still holds, keep the
   trick low while the nil bidder is still to play, let the nil bidder win.
4. The contract: while the team still needs tricks, win cheaply (lowest winning card,
   lowest trump), lead winners, do not overtake a partner who is winning, shorten side
   suits to trump later.  Once the contract is made (and bags cost points) stop winning:
   play just under the winning card and dump high cards on tricks it will not win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.cards import FULL_DECK, SPADES, SPADES_MASK, SUIT_MASKS
from games.engine.rules import Rules

SIDE_SUITS = (0, 1, 2)


@dataclass(slots=True)
class PlayContext:
    """What the seat to play knows, reduced to what the heuristics read.

    ``others`` is every card not yet played and not in this seat's hand;
    ``voids[s]`` a 4-bit mask of suits seat ``s`` is known to be out of;
    ``best_card`` the card winning the trick so far (-1 when leading).
    """

    seat: int
    hand: int
    legal: int
    trick_seats: Sequence[int]
    led_suit: int
    best_seat: int
    best_card: int
    bids: Sequence[int]
    tricks_won: Sequence[int]
    others: int
    voids: Sequence[int]
    rules: Rules


def above(card: int) -> int:
    """The cards of ``card``'s suit ranked higher than it."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1) & FULL_DECK


def highest(mask: int) -> int:
    """The highest-numbered card of a non-empty mask (within a suit: the highest rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest-numbered card of a non-empty mask (within a suit: the lowest rank)."""
    return (mask & -mask).bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask; between equal ranks, not a spade."""
    best = -1
    best_rank = 99
    for suit in (0, 1, 2, 3):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            card = lowest(cards)
            if card % 13 < best_rank:
                best, best_rank = card, card % 13
    return best


def highest_rank(mask: int) -> int:
    """The highest-ranked card of a non-empty mask; between equal ranks, not a spade."""
    best = -1
    best_rank = -1
    for suit in (0, 1, 2, 3):
        cards = mask & SUIT_MASKS[suit]
        if cards:
            card = highest(cards)
            if card % 13 > best_rank:
                best, best_rank = card, card % 13
    return best


def winning_cards(legal: int, best_card: int, led_suit: int) -> int:
    """The cards of ``legal`` that would beat ``best_card`` in a trick led in ``led_suit``."""
    if best_card // 13 == SPADES:
        return legal & above(best_card)
    beats = legal & above(best_card)
    if led_suit != SPADES:
        beats |= legal & SPADES_MASK
    return beats


def team_need(seat: int, bids: Sequence[int], tricks_won: Sequence[int], rules: Rules) -> int:
    """Tricks the seat's team still needs for its contract (0 or less: made)."""
    contract = 0
    counted = 0
    for member in (seat & 1, (seat & 1) + 2):
        if bids[member] > 0:
            contract += bids[member]
            counted += tricks_won[member]
        elif rules.nil_tricks_count_for_partner:
            counted += tricks_won[member]
    return contract - counted


def nil_alive(seat: int, bids: Sequence[int], tricks_won: Sequence[int]) -> bool:
    """Whether ``seat`` bid nil and has not taken a trick yet."""
    return bids[seat] == 0 and tricks_won[seat] == 0


def wants_tricks(ctx: PlayContext) -> bool:
    """Whether the seat plays to win tricks (contract not made, or bags cost nothing)."""
    rules = ctx.rules
    if not rules.bag_penalty:
        return True
    if ctx.bids[ctx.seat] == 0 and not rules.nil_tricks_count_for_partner:
        return False  # a broken nil's tricks are only bags
    return team_need(ctx.seat, ctx.bids, ctx.tricks_won, rules) > 0


def choose_card(ctx: PlayContext) -> int:
    """Normal's card for the seat to play; always one of ``ctx.legal``."""
    legal = ctx.legal
    if not legal & (legal - 1):
        return lowest(legal)
    me = ctx.seat
    bids, won = ctx.bids, ctx.tricks_won
    me_nil = nil_alive(me, bids, won)
    partner = me ^ 2
    partner_nil = not me_nil and nil_alive(partner, bids, won)
    left, right = (me + 1) & 3, (me + 3) & 3
    if bids[left] and bids[right]:
        opponent_nils: tuple[int, ...] = ()
    else:
        opponent_nils = tuple(s for s in (left, right) if nil_alive(s, bids, won))
    if ctx.led_suit < 0:
        return _lead(ctx, me_nil, partner_nil, opponent_nils)
    return _follow(ctx, me_nil, partner_nil, opponent_nils)


def _follow(
    ctx: PlayContext, me_nil: bool, partner_nil: bool, opponent_nils: tuple[int, ...]
) -> int:
    legal = ctx.legal
    me = ctx.seat
    partner = me ^ 2
    led = ctx.led_suit
    trick_seats = ctx.trick_seats
    last = len(trick_seats) == 3
    winners = winning_cards(legal, ctx.best_card, led)
    losers = legal & ~winners
    following = bool(legal & SUIT_MASKS[led])

    if me_nil:
        if losers:
            return highest_rank(losers)
        return highest(winners) if last else lowest(winners)

    if partner_nil:
        if partner in trick_seats:
            if ctx.best_seat == partner:
                if winners:
                    if last or not following:
                        return lowest(winners)
                    return highest(winners)
                return lowest_rank(legal)
        else:
            if winners:
                return highest(winners) if following else lowest(winners)
            return lowest_rank(legal)

    for nil_seat in opponent_nils:
        if nil_seat in trick_seats:
            if ctx.best_seat == nil_seat:
                if losers:
                    return highest_rank(losers)
                return lowest(winners)
        else:
            # The nil bidder is still to play: keep the trick low.
            if losers:
                return _low_card(ctx, losers, following)
            return lowest(winners)

    if wants_tricks(ctx):
        if ctx.best_seat == partner:
            if last or _holds_trick(ctx, ctx.best_card, len(trick_seats)):
                return _low_card(ctx, losers or legal, following)
            sure = _sure_winners(ctx, winners, len(trick_seats))
            if sure:
                return lowest(sure)
            return _low_card(ctx, losers or legal, following)
        if winners:
            if last or not following:
                return lowest(winners)
            sure = _sure_winners(ctx, winners, len(trick_seats))
            if sure:
                return lowest(sure)
            if len(trick_seats) == 2:
                return highest(winners)
            return _low_card(ctx, losers or legal, following)
        return _low_card(ctx, legal, following)

    if losers:
        return highest_rank(losers)
    return highest(winners) if last else lowest(winners)


def _low_card(ctx: PlayContext, mask: int, following: bool) -> int:
    """The cheapest card of ``mask``: lowest in the suit, or a discard that shortens a suit."""
    if following:
        return lowest(mask)
    side = mask & ~SPADES_MASK
    if not side:
        return lowest(mask)
    shortest = -1
    shortest_len = 99
    for suit in SIDE_SUITS:
        cards = side & SUIT_MASKS[suit]
        length = (ctx.hand & SUIT_MASKS[suit]).bit_count()
        if cards and length < shortest_len:
            shortest, shortest_len = suit, length
    return lowest(side & SUIT_MASKS[shortest])


def _threat_after(ctx: PlayContext, card: int, played_in_trick: int) -> bool:
    """Whether a seat still to play might beat ``card`` (higher card out, or a trump)."""
    if ctx.others & above(card):
        return True
    suit = card // 13
    if suit == SPADES or not ctx.others & SPADES_MASK:
        return False
    for offset in range(1, 4 - played_in_trick):
        seat = (ctx.seat + offset) & 3
        if (seat & 1) != (ctx.seat & 1) and ctx.voids[seat] >> ctx.led_suit & 1:
            return True
    return False


def _holds_trick(ctx: PlayContext, card: int, played_in_trick: int) -> bool:
    return not _threat_after(ctx, card, played_in_trick)


def _sure_winners(ctx: PlayContext, winners: int, played_in_trick: int) -> int:
    sure = 0
    mask = winners
    while mask:
        bit = mask & -mask
        mask ^= bit
        card = bit.bit_length() - 1
        if not _threat_after(ctx, card, played_in_trick):
            sure |= bit
    return sure


def _lead(ctx: PlayContext, me_nil: bool, partner_nil: bool, opponent_nils: tuple[int, ...]) -> int:
    legal = ctx.legal
    others = ctx.others
    if me_nil:
        return _safe_low_lead(legal, others)
    if partner_nil:
        partner = ctx.seat ^ 2
        for suit in (0, 1, 2, 3):
            cards = legal & SUIT_MASKS[suit]
            if cards and ctx.voids[partner] >> suit & 1:
                return highest(cards)
        bosses = _boss_cards(legal, others)
        if bosses:
            return highest_rank(bosses)
        side = legal & ~SPADES_MASK
        return highest_rank(side or legal)
    for nil_seat in opponent_nils:
        open_suits = 0
        for suit in (0, 1, 2, 3):
            if not ctx.voids[nil_seat] >> suit & 1:
                open_suits |= SUIT_MASKS[suit]
        # Low cards only help if someone else may still hold a higher one.
        candidates = 0
        for suit in (0, 1, 2, 3):
            cards = legal & open_suits & SUIT_MASKS[suit]
            if cards and others & above(lowest(cards)):
                candidates |= cards
        if candidates:
            return lowest_rank(candidates)
    if wants_tricks(ctx):
        return _winning_lead(ctx)
    return _safe_low_lead(legal, others)


def _boss_cards(legal: int, others: int) -> int:
    bosses = 0
    for suit in (0, 1, 2, 3):
        cards = legal & SUIT_MASKS[suit]
        if cards:
            top = highest(cards)
            if not others & above(top):
                bosses |= 1 << top
    return bosses


def _safe_low_lead(legal: int, others: int) -> int:
    """A low lead that someone else is likely to beat: low rank, higher cards still out."""
    covered = 0
    for suit in (0, 1, 2, 3):
        cards = legal & SUIT_MASKS[suit]
        if cards and others & above(lowest(cards)):
            covered |= cards
    side = covered & ~SPADES_MASK
    return lowest_rank(side or covered or legal)


def _winning_lead(ctx: PlayContext) -> int:
    legal = ctx.legal
    others = ctx.others
    hand = ctx.hand
    me = ctx.seat
    trumps_out = bool(others & SPADES_MASK)
    opponents = ((me + 1) & 3, (me + 3) & 3)
    for suit in SIDE_SUITS:
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        top = highest(cards)
        if others & above(top) or not others & SUIT_MASKS[suit] and trumps_out:
            continue
        ruffed = trumps_out and any(ctx.voids[s] >> suit & 1 for s in opponents)
        if not ruffed:
            return top
    spades = legal & SPADES_MASK
    if spades:
        top = highest(spades)
        if not others & above(top) and others & SPADES_MASK:
            return top
    if (hand & SPADES_MASK).bit_count() >= 2:
        for suit in SIDE_SUITS:
            cards = legal & SUIT_MASKS[suit]
            if cards and (hand & SUIT_MASKS[suit]).bit_count() == 1:
                return cards.bit_length() - 1
    longest = -1
    longest_len = 0
    for suit in SIDE_SUITS:
        length = (legal & SUIT_MASKS[suit]).bit_count()
        if length > longest_len:
            longest, longest_len = suit, length
    if longest >= 0:
        return lowest(legal & SUIT_MASKS[longest])
    return lowest(legal)
