"""Whether to bid blind nil: an expected-value rule from what a seat knows before looking.

Before looking a seat knows the rules, the score, and the bids made so far, nothing of
its cards. Of those, the bids are what move the odds of a blind nil: a partner who bid
high holds the high cards that cover it (one who bid low cannot); opponents who bid high
hold the high cards, so ours are low; an opponent's nil leaves our low cards nowhere to
hide. So the estimate is a table by :func:`situation` (the partner's bid: not yet, 1-2,
3-4, 5+; the opponents' so far: none, a mean under 3, 3 or more) of two figures per level,
measured by ``python -m benchmarks.blind_nil_odds --level L``: each seat of a trailing
team played twice on the same cards, bidding blind nil and looking, with the level itself
and with Easy as its partner; the table keeps the less favourable of the two, because a
bot does not know how well its partner (perhaps a person) covers a blind nil:

- ``p_make``: the share of blind nils made;
- ``gain``: the mean points the blind nil play scored (own team's hand score minus the
  opponents') minus the looking play's, so the partner's contract and the opponents'
  count too; at ``MEASURED_POINTS`` (200) for a blind nil.

The rule (:func:`blind_nil_choice`):

1. Never when the rules, the seat's eligibility or a look already made rule it out, and
   never when the partner has bid nil or blind nil: a double nil has no contract to
   carry it and fails when either nil does.
2. The gain is rescaled to the table's blind nil points: ``gain + (2 p - 1) (points -
   MEASURED_POINTS)`` (only the nil's own score changes with them).
3. Bid blind nil when that gain reaches ``GAIN_THRESHOLD`` (40) points a hand: clearly
   worth it, not a coin toss (about three times the 95% half-interval of the measured
   groups, and a margin for a partner who covers worse than the measured ones).
4. Or, the last chance: when the opponents are within ``LAST_CHANCE_REACH`` of the target
   (they are likely to win on this hand or the next) and the team trails by more than a
   normal hand can make up (``LAST_CHANCE_DEFICIT``), points per hand no longer measure
   anything; winning does, and only a blind nil's swing can still win. Then a chance of
   making it of ``LAST_CHANCE_P_MAKE`` or more is enough.

Everything is a function of the view: deterministic, and the same for every seat of the
same knowledge.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.hand import NO_BID
from games.engine.seats import partner_of, team_of
from games.engine.view import SeatView

# The partner's bid.
UNKNOWN = "partner not yet"  # it bids after us, knowing of the blind nil
NIL = "partner nil"  # nil or blind nil
LOW = "partner 1-2"
MIDDLE = "partner 3-4"
HIGH = "partner 5+"
# The opponents' bids so far, by their mean: high bids mean the high cards are theirs.
NONE_YET = "opponents not yet"
OPPONENTS_LOW = "opponents under 3"  # a nil among them counts here
OPPONENTS_HIGH = "opponents 3+"

MEASURED_POINTS = 200
GAIN_THRESHOLD = 40.0
LAST_CHANCE_REACH = 100
LAST_CHANCE_DEFICIT = 200
LAST_CHANCE_P_MAKE = 0.3


@dataclass(frozen=True, slots=True)
class Odds:
    """One situation's measured figures (see the module's docstring)."""

    p_make: float
    gain: float


def situation(bids: tuple[int, ...] | list[int], seat: int) -> str:
    """The group of what ``seat`` knows from the bids so far: ``"<partner>, <opponents>"``."""
    partner_bid = bids[partner_of(seat)]
    if partner_bid == NO_BID:
        partner = UNKNOWN
    elif partner_bid == 0:
        partner = NIL
    elif partner_bid <= 2:
        partner = LOW
    elif partner_bid <= 4:
        partner = MIDDLE
    else:
        partner = HIGH
    opponent_bids = [bids[s] for s in range(4) if s & 1 != seat & 1 and bids[s] != NO_BID]
    if not opponent_bids:
        opponents = NONE_YET
    elif sum(opponent_bids) < 3 * len(opponent_bids):
        opponents = OPPONENTS_LOW
    else:
        opponents = OPPONENTS_HIGH
    return f"{partner}, {opponents}"


SITUATIONS: tuple[str, ...] = tuple(
    f"{partner}, {opponents}"
    for partner in (UNKNOWN, NIL, LOW, MIDDLE, HIGH)
    for opponents in (NONE_YET, OPPONENTS_LOW, OPPONENTS_HIGH)
)

# python -m benchmarks.blind_nil_odds --level normal (seed 1, 4000 deals; docs/bots.md)
NORMAL_ODDS: dict[str, Odds] = {
    f"{UNKNOWN}, {NONE_YET}": Odds(0.546, 9.9),
    f"{UNKNOWN}, {OPPONENTS_LOW}": Odds(0.51, -15.4),
    f"{UNKNOWN}, {OPPONENTS_HIGH}": Odds(0.638, 59.9),
    f"{LOW}, {OPPONENTS_LOW}": Odds(0.411, -64.7),
    f"{LOW}, {OPPONENTS_HIGH}": Odds(0.664, 70.9),
    f"{MIDDLE}, {OPPONENTS_LOW}": Odds(0.525, -4.5),
    f"{MIDDLE}, {OPPONENTS_HIGH}": Odds(0.765, 115.6),
    f"{HIGH}, {OPPONENTS_LOW}": Odds(0.695, 78.0),
    f"{HIGH}, {OPPONENTS_HIGH}": Odds(0.837, 136.8),
}
# python -m benchmarks.blind_nil_odds --level easy (seed 1, 4000 deals; docs/bots.md)
EASY_ODDS: dict[str, Odds] = {
    f"{UNKNOWN}, {NONE_YET}": Odds(0.531, 8.5),
    f"{UNKNOWN}, {OPPONENTS_LOW}": Odds(0.473, -19.3),
    f"{UNKNOWN}, {OPPONENTS_HIGH}": Odds(0.578, 6.5),
    f"{LOW}, {OPPONENTS_LOW}": Odds(0.303, -100.5),
    f"{LOW}, {OPPONENTS_HIGH}": Odds(0.56, -8.0),
    f"{MIDDLE}, {OPPONENTS_LOW}": Odds(0.42, -38.6),
    f"{MIDDLE}, {OPPONENTS_HIGH}": Odds(0.652, 45.7),
    f"{HIGH}, {OPPONENTS_LOW}": Odds(0.628, 68.1),
    f"{HIGH}, {OPPONENTS_HIGH}": Odds(0.74, 107.8),
}


@dataclass(frozen=True, slots=True)
class BlindNilChoice:
    """The rule's answer and the figures behind it."""

    bid: bool
    p_make: float
    gain: float
    reason: str


def blind_nil_choice(view: SeatView, odds: dict[str, Odds]) -> BlindNilChoice:
    """Whether the viewing seat should bid blind nil now, by the rule of this module."""
    seat = view.seat
    rules = view.rules
    if seat is None or not (rules.blind_nil and view.blind_eligible[seat] and not view.looked):
        return BlindNilChoice(False, 0.0, 0.0, "blind nil is not open to this seat now")
    partner_bid = view.bids[partner_of(seat)]
    if partner_bid == 0:
        return BlindNilChoice(False, 0.0, 0.0, "the partner bid nil: no double nil")
    figures = odds.get(situation(view.bids, seat))
    if figures is None:
        return BlindNilChoice(False, 0.0, 0.0, "no measurement for this situation")
    p = figures.p_make
    gain = figures.gain + (2 * p - 1) * (rules.blind_nil_points - MEASURED_POINTS)
    if gain >= GAIN_THRESHOLD:
        return BlindNilChoice(True, p, gain, "worth more than a normal bid")
    team = team_of(seat)
    behind = view.team_totals[1 - team] - view.team_totals[team]
    opponents_near = view.team_totals[1 - team] >= rules.target_score - LAST_CHANCE_REACH
    if opponents_near and behind > LAST_CHANCE_DEFICIT and p >= LAST_CHANCE_P_MAKE:
        return BlindNilChoice(True, p, gain, "the last chance to catch up")
    return BlindNilChoice(False, p, gain, "not worth it")


def wants_blind_nil_by_odds(view: SeatView, odds: dict[str, Odds]) -> bool:
    """:func:`blind_nil_choice`'s yes or no."""
    return blind_nil_choice(view, odds).bid
