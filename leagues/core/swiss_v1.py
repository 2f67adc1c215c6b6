"""Swiss engine version 1's matching, kept unchanged so that its rounds still verify.

Version 1 linked each entrant only to those within ``window`` places of the ranking
(rematch edges left out, bye edges to the ``window`` lowest candidates) and widened the
window only when that graph had no perfect matching; from 128 entrants it paired
blocks of at least 64 places on their own.  A windowed pairing could therefore give the
bye to a higher-ranked entrant than the rule allows, or pair one more couple across
score groups than needed (issue 17); version 2 (``swiss.py``) certifies its windowed
pairings instead.  Nothing pairs new rounds with this module: ``swiss.derive`` calls it
for a committed input whose ``engine_version`` is 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import networkx as nx

from .errors import LeagueError
from .swiss_criteria import Criteria, bye_candidates

if TYPE_CHECKING:  # the entrant type only; swiss.py imports this module at run time
    from .swiss import SwissEntrant

VERSION = 1
FIRST_WINDOW = 6
BLOCK = 64
BYE = -1


def match(ranked: Sequence[SwissEntrant]) -> tuple[list[tuple[str, str]], str | None]:
    """Version 1's pairs (ids, higher-ranked first) and bye of a ranked field."""
    return _match_in_blocks(ranked, FIRST_WINDOW) or _match(ranked, FIRST_WINDOW)


def _blocks(ranked: Sequence[SwissEntrant]) -> list[Sequence[SwissEntrant]]:
    """Consecutive stretches of the ranking, each of at least ``BLOCK`` entrants and even
    (but the last), cut at a score-group boundary when one is within ``BLOCK`` places."""
    blocks: list[Sequence[SwissEntrant]] = []
    start = 0
    count = len(ranked)
    while count - start >= 2 * BLOCK:
        cut = start + BLOCK
        for place in range(start + BLOCK, min(count - BLOCK, start + 2 * BLOCK), 2):
            if ranked[place].score != ranked[place - 1].score:
                cut = place
                break
        blocks.append(ranked[start:cut])
        start = cut
    blocks.append(ranked[start:])
    return blocks


def _match_in_blocks(
    ranked: Sequence[SwissEntrant], window: int
) -> tuple[list[tuple[str, str]], str | None] | None:
    """Pair each block of the ranking on its own, or ``None`` (pair the whole field)."""
    if len(ranked) < 2 * BLOCK:
        return None
    blocks = _blocks(ranked)
    if len(ranked) % 2 and min(e.byes for e in blocks[-1]) != min(e.byes for e in ranked):
        return None
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for block in blocks:
        block_pairs, block_bye = _match(block, window)
        met = {e.id: e.opponents for e in block}
        if any(b in met[a] for a, b in block_pairs):
            return None
        pairs.extend(block_pairs)
        bye = block_bye if block_bye is not None else bye
    return pairs, bye


def _match(ranked: Sequence[SwissEntrant], window: int) -> tuple[list[tuple[str, str]], str | None]:
    count = len(ranked)
    odd = count % 2 == 1
    criteria = Criteria.of(ranked)
    met = criteria.met
    candidates = bye_candidates(ranked) if odd else []

    def solve(reach: int, rematches: bool) -> set[tuple[int, int]] | None:
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(range(count))
        for i in range(count):
            known = met[i]
            for j in range(i + 1, min(count, i + 1 + reach)):
                if rematches or ranked[j].id not in known:
                    graph.add_edge(i, j, weight=criteria.weight(i, j))
        if odd:
            graph.add_node(BYE)
            for place in candidates if rematches or reach >= count else candidates[-reach:]:
                graph.add_edge(BYE, place, weight=criteria.bye_weight(place))
        matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < graph.number_of_nodes():
            return None
        return matching

    reach = window
    matching = None
    while matching is None and reach < count:
        matching = solve(reach, rematches=False)
        reach *= 2
    if matching is None:
        matching = solve(count, rematches=False) or solve(count, rematches=True)
    if matching is None:  # pragma: no cover - a complete graph always has one
        raise LeagueError("no_pairing", "No pairing exists for this round.")
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    for i, j in matching:
        if BYE in (i, j):
            bye = ranked[max(i, j)].id
        else:
            pairs.append((ranked[min(i, j)].id, ranked[max(i, j)].id))
    return pairs, bye
