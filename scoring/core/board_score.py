"""One hand scored as a duplicate board: on its own, from 0 to 0, bags at their prorated cost.

A duplicate board is scored as the first hand of a game under the preset, except that
each bag costs its share of the bag penalty at once (``100 / 10 = 10`` under the penalty,
so a bag nets ``+1 - 10 = -9``; without the penalty a bag is ``+1``). The reasons are in
``leagues.core.duplicate.board_scoring`` (docs/leagues.md, "Board scoring"), which scores
the boards of a duplicate competition with this module. It lives here, beside the hand
score, because two pure packages need the same arithmetic and neither may import the
other: the boards' results (``leagues.core``) and the search of a computer player that
plays a board (``bots.strategies``, Hard ``hard-3``), which must value a bag as the board
will.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.engine.rules import Rules

from .hand_score import BAG_PENALTY_POINTS, BAGS_PER_PENALTY, TeamHandScore, score_team

#: Cost of one bag under a bag penalty, paid on the board: 100 / 10.
BAG_SHARE = BAG_PENALTY_POINTS // BAGS_PER_PENALTY


def bag_share(rules: Rules) -> int:
    """What one bag costs on a board under ``rules``: :data:`BAG_SHARE`, or 0 without the
    bag penalty."""
    return BAG_SHARE if rules.bag_penalty else 0


def unpenalised(rules: Rules) -> Rules:
    """``rules`` without the 10-bag lump (a board charges :func:`bag_share` a bag instead).

    A search scoring thousands of playouts computes this once and hands it to
    :func:`score_team_on_board`.
    """
    return replace(rules, bag_penalty=False) if rules.bag_penalty else rules


def score_team_on_board(
    rules: Rules,
    team: int,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    lump_free: Rules | None = None,
) -> tuple[TeamHandScore, int]:
    """``team``'s hand score from 0 to 0 without the bag penalty lump, and the bags' cost.

    The board points are ``hand.hand_score - cost``. ``lump_free`` is
    ``unpenalised(rules)`` when the caller already has it.
    """
    plain = unpenalised(rules) if lump_free is None else lump_free
    hand = score_team(plain, team, list(bids), list(blind), list(tricks), 0, 0)
    return hand, hand.bags * bag_share(rules)


def board_points(
    rules: Rules,
    team: int,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    lump_free: Rules | None = None,
) -> int:
    """``team``'s points on a board (:func:`score_team_on_board`'s score less its cost)."""
    hand, cost = score_team_on_board(rules, team, bids, blind, tricks, lump_free)
    return hand.hand_score - cost
