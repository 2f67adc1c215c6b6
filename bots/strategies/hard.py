"""Hard: Normal's bidding, and card play by search over the hidden cards.

For each decision in play, Hard samples deals of the cards it has not seen that agree
with everything its seat knows (:mod:`.determinize`), plays each candidate card in
every sampled deal and finishes the hand with Normal's heuristics for all four seats
(:mod:`.rollout`), then keeps the card with the best average score difference (own
team minus opponents, scored by ``scoring.core`` with the table's rules and running
bags, so nil, set and bag effects all count).  The same deals are used for every
candidate, so the comparison is not drowned in deal-to-deal noise.

The work is budgeted by count: about ``playout_budget`` simulated card plays per
decision, split between candidates and samples.  A wall-clock guard (``time_limit_ms``,
checked after each sampled deal once ``min_samples`` are done) stops the search early
when other programs slow the machine down, so ``(view, seed)`` alone does not fix the
move: the decision records the sampled deals it went through (``Decision.samples``,
stored in the move's metadata), and ``decide(view, seed, samples=n)`` goes through
exactly those ``n`` deals (the same ones: the deals drawn depend on the view and seed
only), ignoring the clock, which gives the same move every time.

**What a playout is worth depends on what is being played.** In a running game
(``hard-1``, ``hard-2``: :data:`GAME`) a playout is scored as the next hand of that game,
from the view's running totals and bags: a bag is +1 until the tenth costs 100. On a
duplicate board (``hard-3``: :data:`BOARD`) the hand is scored as the board will be
(``scoring.core.board_score``): from 0 to 0, each bag at its prorated cost, +1 - 10 = -9
under the standard bag penalty. A game-scoring search plays for overtricks a board
punishes; ``hard-3`` is the revision for single-board play (duplicate par and the bots
of duplicate tables: ``registry.board_strategy``). The scoring is fixed by the revision,
not passed in with each decision, so a move's recorded version alone replays it.
"""

from __future__ import annotations

import random
import time

from games.engine.cards import SPADES, SUIT_MASKS
from games.engine.hand import BIDDING, PASSING, PLAYING, HandState
from games.engine.play import play_card
from games.engine.seats import team_of
from games.engine.view import SeatView
from scoring.core.board_score import unpenalised

from .card_play import choose_card
from .decision import Decision, NothingToDecide
from .determinize import sample_weighted
from .inference import infer
from .normal import BLIND_NIL_RULES, decide_by_heuristics
from .reading import play_context, trick_leader_card
from .rollout import board_score_difference, play_out, score_difference

#: How a revision's search scores a playout: as the running game's next hand, or as a
#: duplicate board on its own.
GAME = "game"
BOARD = "board"
#: Per revision of Hard: its search's scoring, and the Normal revision it bids as.
REVISIONS: dict[int, tuple[str, int]] = {1: (GAME, 1), 2: (GAME, 2), 3: (BOARD, 2)}
#: The revision ordinary tables get (``get_strategy("hard")``): a running game.
LATEST_GAME = 2
#: The revision that plays single duplicate boards (par, duplicate tables).
LATEST_BOARD = 3


class HardStrategy:
    """The Hard level: determinized playouts guided by Normal's heuristics.

    ``revision`` picks a revision's decisions (earlier ones kept for replay): hard-1 and
    hard-2 bid as normal-1 and normal-2 and score their search as a running game;
    hard-3 bids as normal-2 and scores its search as a duplicate board (:data:`REVISIONS`).
    """

    def __init__(
        self,
        playout_budget: int = 10_000,
        min_samples: int = 8,
        max_samples: int = 64,
        time_limit_ms: float = 150.0,
        heuristic_bonus: float = 1.0,
        revision: int = LATEST_GAME,
    ) -> None:
        if revision not in REVISIONS:
            raise ValueError(f"Hard has no revision {revision}.")
        self.revision = revision
        self.version = f"hard-{revision}"
        self.scoring, bidding = REVISIONS[revision]
        self._blind_nil = BLIND_NIL_RULES[bidding]
        self.playout_budget = playout_budget
        self.min_samples = min_samples
        self.max_samples = max_samples
        self.time_limit_ms = time_limit_ms
        self.heuristic_bonus = heuristic_bonus

    def decide(self, view: SeatView, seed: int, samples: int | None = None) -> Decision:
        """Hard's move for ``view.seat``, with the sampled deals its search went through.

        With ``samples`` (a recorded decision's), exactly that many, whatever the clock.
        """
        seat = view.seat
        if seat is None:
            raise NothingToDecide("A spectator has nothing to decide.")
        if view.phase == PLAYING and view.turn == seat and view.legal:
            card, searched = self.search_card(view, seed, samples)
            return Decision.play(card).searched(searched)
        if view.phase in (BIDDING, PASSING):
            return decide_by_heuristics(view, self._blind_nil)
        raise NothingToDecide(f"Seat {seat} has nothing to decide now.")

    def sample_count(self, candidates: int, cards_left: int) -> int:
        """How many deals to sample for this many candidates and cards still to play."""
        per_sample = max(1, candidates * max(cards_left, 4))
        return max(self.min_samples, min(self.max_samples, self.playout_budget // per_sample))

    def choose_card(self, view: SeatView, seed: int) -> int:
        """The card with the best average score difference over sampled deals."""
        return self.search_card(view, seed)[0]

    def search_card(
        self, view: SeatView, seed: int, samples: int | None = None
    ) -> tuple[int, int | None]:
        """The best card and how many sampled deals it took (``None``: no search ran).

        Without ``samples`` the search stops at the planned count or on the clock,
        whichever comes first; with it, after exactly that many deals (at most the
        planned count, as a recorded decision's never exceeds it).
        """
        assert view.seat is not None
        legal = view.legal
        inference = infer(view)
        heuristic = choose_card(play_context(view, inference))
        if not legal & (legal - 1):
            return heuristic, None
        candidates = distinct_candidates(legal, view.hand, view.played_mask, heuristic)
        if len(candidates) == 1:
            return candidates[0], None
        cards_left = 52 - len(view.plays)
        planned = self.sample_count(len(candidates), cards_left)
        if samples is not None and not 1 <= samples <= planned:
            raise ValueError(
                f"This decision plans {planned} sampled deals; {samples} cannot be replayed."
            )
        rng = random.Random(seed)
        deals = sample_weighted(view, inference, rng, planned, pool=2 * planned)
        if samples is not None:
            deals = deals[:samples]
        template = state_from_view(view)
        team = team_of(view.seat)
        totals = view.team_totals
        bags = view.team_bags
        board = self.scoring == BOARD
        lump_free = unpenalised(view.rules) if board else view.rules
        sums = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.time_limit_ms / 1000.0
        done = 0
        for hands in deals:
            for index, card in enumerate(candidates):
                state = template.copy()
                state.hands = hands[:]
                play_card(state, view.seat, card)
                play_out(state, list(inference.voids))
                if board:
                    sums[index] += board_score_difference(state, team, lump_free)
                else:
                    sums[index] += score_difference(state, team, totals, bags)
            done += 1
            if samples is None and done >= self.min_samples and time.perf_counter() > deadline:
                break
        best = heuristic
        best_value = float("-inf")
        for index, card in enumerate(candidates):
            value = sums[index] / done + (self.heuristic_bonus if card == heuristic else 0.0)
            if value > best_value:
                best, best_value = card, value
        return best, done


def distinct_candidates(legal: int, hand: int, played: int, preferred: int) -> list[int]:
    """One card per group of equivalent legal cards (touching once played cards are gone).

    Two cards of a suit with only played cards or our own cards between them win and
    lose exactly the same tricks, so only one of them needs searching; the group keeps
    ``preferred`` when it holds it, else its lowest card.
    """
    candidates: list[int] = []
    for suit in (0, 1, 2, 3):
        cards = legal & SUIT_MASKS[suit]
        if not cards:
            continue
        group: list[int] = []
        for card in range(suit * 13, suit * 13 + 13):
            bit = 1 << card
            if cards & bit:
                group.append(card)
            elif played & bit or hand & bit:
                continue
            elif group:
                candidates.append(preferred if preferred in group else group[0])
                group = []
        if group:
            candidates.append(preferred if preferred in group else group[0])
    return candidates


def state_from_view(view: SeatView) -> HandState:
    """A hand state with the view's public history and no cards in anyone's hand yet."""
    state = HandState.__new__(HandState)
    state.rules = view.rules
    state.hand_number = view.hand_number
    state.dealer = view.dealer
    state.dealt = [0, 0, 0, 0]
    state.hands = [0, 0, 0, 0]
    state.phase = PLAYING
    state.turn = view.turn
    state.bids = list(view.bids)
    state.blind = list(view.blind)
    state.looked = [True, True, True, True]
    state.blind_eligible = list(view.blind_eligible)
    state.passes = [0, 0, 0, 0]
    state.pass_owed = [False, False, False, False]
    state.plays = [card for _, card in view.plays]
    state.trick = [card for _, card in view.trick]
    state.leader = view.leader
    state.first_leader = view.first_leader
    state.led_suit = view.led_suit
    best_seat, best_card = trick_leader_card(view.trick)
    state.best_seat = best_seat
    state.best_value = -1
    if best_card >= 0:
        state.best_value = best_card % 13 + (16 if best_card // 13 == SPADES else 0)
    state.spades_broken = view.spades_broken
    state.tricks_won = list(view.tricks_won)
    state.trick_winners = list(view.trick_winners)
    return state
