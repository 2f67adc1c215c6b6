"""Swiss pairing: score groups, no rematch while a rematch-free pairing exists.

The whole field is one graph; networkx's ``max_weight_matching`` (with
``maxcardinality=True``) finds the pairing whose integer weight is largest.  Each
edge's weight is a mixed-radix number whose digits are, from the most significant:

1. **no rematch**: how many fewer times the two have met than the most anyone has;
2. **the bye** (an edge to the bye node): the receiver's place in the ranking, so the
   lowest-ranked entrant among those with the fewest byes gets it;
3. **same score group**: 1 when the two have the same match points;
4. **small score difference**: ``D² - (difference)²`` (``D`` the field's spread);
5. **orientation**: how little the two fight over the same side (North-South balance,
   then alternation);
6. **ranking distance**: ``n - |place a - place b|`` (top of a group meets the next one
   down: the Monrad order of bridge Swiss events).

Every digit's radix exceeds the largest total the digits below it can add over a whole
pairing, so a better higher digit always wins (lexicographic order).

Graph size: the blossom algorithm in pure Python is far too slow on ``n²/2`` edges
(256 entrants, 32,640 edges: over a minute), so entrants are first linked only to the
ones within ``window`` places of the ranking, rematches left out.  When that graph has
no perfect matching the window doubles, then the whole field is used (rematch edges
included, weighted down), so a rematch-free pairing is never missed.  Round 1 (nobody
has played) is the seeded fold: place ``i`` meets place ``i + n/2``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from .errors import LeagueError
from .lots import coin, lot
from .pairings import EAST_WEST, NORTH_SOUTH, EntrantHistory, Pairing, RoundPairing

ENGINE = "swiss"
ENGINE_VERSION = 1
MAX_SWISS_ENTRANTS = 4096
FIRST_WINDOW = 6
BLOCK = 64
BYE = -1


@dataclass(frozen=True, slots=True)
class SwissEntrant:
    """What the engine knows of an entrant: its score so far, rating and history."""

    id: str
    score: int
    rating: int
    byes: int
    opponents: tuple[str, ...]
    orientations: str

    @property
    def balance(self) -> int:
        return self.orientations.count(NORTH_SOUTH) - self.orientations.count(EAST_WEST)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "score": self.score,
            "rating": self.rating,
            "byes": self.byes,
            "opponents": list(self.opponents),
            "orientations": self.orientations,
        }


def swiss_entrants(
    scores: Mapping[str, int],
    ratings: Mapping[str, int],
    history: Mapping[str, EntrantHistory],
) -> list[SwissEntrant]:
    """The engine's view of the entrants to pair (the keys of ``scores``)."""
    field: list[SwissEntrant] = []
    for entrant, score in scores.items():
        past = history.get(entrant, EntrantHistory())
        field.append(
            SwissEntrant(
                id=entrant,
                score=score,
                rating=int(ratings.get(entrant, 0)),
                byes=past.byes,
                opponents=tuple(sorted(past.opponents.elements())),
                orientations=past.orientations,
            )
        )
    return field


def canonical_input(round_number: int, entrants: Sequence[SwissEntrant]) -> dict[str, Any]:
    """The input a round is derived from (and committed to): entrants sorted by id."""
    return {
        "engine": ENGINE,
        "engine_version": ENGINE_VERSION,
        "round": round_number,
        "entrants": [entrant.as_dict() for entrant in sorted(entrants, key=lambda e: e.id)],
    }


def derive(document: Mapping[str, Any], seed: str) -> RoundPairing:
    """The round the canonical input describes, paired under ``seed``."""
    entrants = [
        SwissEntrant(
            id=str(raw["id"]),
            score=int(raw["score"]),
            rating=int(raw["rating"]),
            byes=int(raw["byes"]),
            opponents=tuple(str(o) for o in raw["opponents"]),
            orientations=str(raw["orientations"]),
        )
        for raw in document["entrants"]
    ]
    return pair(int(document["round"]), entrants, seed)


def ranking(entrants: Sequence[SwissEntrant], seed: str) -> list[SwissEntrant]:
    """Pairing order: match points, then rating, then the draw of lots."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, lot(seed, ENGINE, e.id), e.id))


def pair(
    round_number: int,
    entrants: Sequence[SwissEntrant],
    seed: str,
    window: int = FIRST_WINDOW,
) -> RoundPairing:
    """Pair one Swiss round of ``entrants`` (those still in, late joiners included)."""
    if len({e.id for e in entrants}) != len(entrants):
        raise LeagueError("duplicate_entrant", "An entrant is listed twice.")
    if len(entrants) > MAX_SWISS_ENTRANTS:
        raise LeagueError(
            "too_many_entrants", f"A Swiss round pairs at most {MAX_SWISS_ENTRANTS} entrants."
        )
    if len(entrants) < 2:
        raise LeagueError("too_few_entrants", "A round needs at least two entrants.")
    ranked = ranking(entrants, seed)
    if all(not e.opponents and e.byes == 0 for e in ranked) and len({e.score for e in ranked}) == 1:
        pairs, bye = _fold(ranked)
    else:
        pairs, bye = _match_in_blocks(ranked, window) or _match(ranked, window)
    place = {e.id: index for index, e in enumerate(ranked)}
    by_id = {e.id: e for e in ranked}
    oriented = [
        _orient(by_id[a], by_id[b], place, seed, round_number)
        for a, b in sorted(pairs, key=lambda p: min(place[p[0]], place[p[1]]))
    ]
    return RoundPairing(
        number=round_number,
        matches=tuple(
            Pairing(board, north, east) for board, (north, east) in enumerate(oriented, start=1)
        ),
        byes=() if bye is None else (bye,),
    )


def _bye_candidates(ranked: Sequence[SwissEntrant]) -> list[int]:
    """Places of the entrants that may take the bye: those with the fewest byes."""
    fewest = min(e.byes for e in ranked)
    return [index for index, e in enumerate(ranked) if e.byes == fewest]


def _fold(ranked: Sequence[SwissEntrant]) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1: the lowest place takes the bye, then place i meets place i + n/2."""
    field = list(ranked)
    bye = field.pop().id if len(field) % 2 else None
    half = len(field) // 2
    return [(field[i].id, field[i + half].id) for i in range(half)], bye


def _preference(entrant: SwissEntrant) -> tuple[int, int]:
    """(side wanted: +1 North-South, -1 East-West, 0 none; strength)."""
    balance = entrant.balance
    if balance:
        return (-1 if balance > 0 else 1), 2 * abs(balance)
    if entrant.orientations:
        return (1 if entrant.orientations[-1] == EAST_WEST else -1), 1
    return 0, 0


def _orientation_cost(a: SwissEntrant, b: SwissEntrant) -> int:
    side_a, strength_a = _preference(a)
    side_b, strength_b = _preference(b)
    if side_a == 0 or side_a != side_b:
        return 0
    return min(strength_a, strength_b)


def _radices(pair_count: int, maxima: Sequence[int]) -> list[int]:
    """Digit multipliers, most significant first, for a lexicographic sum over pairs."""
    multipliers = [0] * len(maxima)
    below = 0
    for index in range(len(maxima) - 1, -1, -1):
        multipliers[index] = pair_count * below + 1
        below += maxima[index] * multipliers[index]
    return multipliers


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
    """Pair each block of the ranking on its own (a large field's fast path).

    ``None`` (pair the whole field instead) unless every block pairs without a rematch
    and the last block holds an entrant with the field's fewest byes, so the result
    keeps the rules that the whole-field matching guarantees.
    """
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
    pair_count = (count + 1) // 2
    met = [dict.fromkeys(e.opponents, 0) for e in ranked]
    for index, e in enumerate(ranked):
        for opponent in e.opponents:
            met[index][opponent] += 1
    most_met = max((max(m.values(), default=0) for m in met), default=0) + 1
    scores = [e.score for e in ranked]
    spread = max(scores) - min(scores)
    strengths = [_preference(e)[1] for e in ranked]
    max_cost = max(strengths, default=0)
    rematch_m, bye_m, group_m, diff_m, side_m, rank_m = _radices(
        pair_count, [most_met, count, 1, spread * spread, max_cost, count]
    )
    candidates = _bye_candidates(ranked) if odd else []

    def weight(i: int, j: int) -> int:
        a, b = ranked[i], ranked[j]
        difference = a.score - b.score
        return (
            (most_met - met[i].get(b.id, 0)) * rematch_m
            + (group_m if difference == 0 else 0)
            + (spread * spread - difference * difference) * diff_m
            + (max_cost - _orientation_cost(a, b)) * side_m
            + (count - abs(i - j)) * rank_m
        )

    def solve(reach: int, rematches: bool) -> set[tuple[int, int]] | None:
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(range(count))
        for i in range(count):
            known = met[i]
            for j in range(i + 1, min(count, i + 1 + reach)):
                if rematches or ranked[j].id not in known:
                    graph.add_edge(i, j, weight=weight(i, j))
        if odd:
            graph.add_node(BYE)
            for place in candidates if rematches or reach >= count else candidates[-reach:]:
                graph.add_edge(BYE, place, weight=most_met * rematch_m + (place + 1) * bye_m)
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


def _orient(
    a: SwissEntrant, b: SwissEntrant, place: Mapping[str, int], seed: str, round_number: int
) -> tuple[str, str]:
    """(North-South, East-West): the stronger claim to North-South gets it.

    The claim is the lower balance (more East-West so far), then having sat East-West
    last; when both claims are equal a seeded coin decides.
    """

    def claim(e: SwissEntrant) -> tuple[int, int]:
        last = e.orientations[-1:] if e.orientations else ""
        return -e.balance, 1 if last == EAST_WEST else (-1 if last == NORTH_SOUTH else 0)

    claim_a, claim_b = claim(a), claim(b)
    if claim_a != claim_b:
        return (a.id, b.id) if claim_a > claim_b else (b.id, a.id)
    first, second = sorted((a.id, b.id))
    if coin(seed, ENGINE, round_number, first, second):
        return first, second
    return second, first
