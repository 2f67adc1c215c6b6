"""Swiss pairing: score groups, no rematch while a rematch-free pairing exists, the bye rule.

A round is the best pairing by the criteria of ``swiss_criteria.py`` (no rematch, the
bye, same score group, small score difference, orientation, ranking distance, in that
order): a maximum-weight matching (networkx ``max_weight_matching``, integer weights).
Round 1 (nobody has played) is the seeded fold: place ``i`` meets place ``i + n/2``.

Graph size: networkx's blossom algorithm is pure Python, far too slow on the ``n²/2``
edges of a large field (256 entrants: over a minute), and cheap on a small one.  So:

- up to ``WHOLE_FIELD`` entrants the whole graph is matched (rematch edges included,
  weighted down): the exact optimum;
- beyond, the graph holds only rematch-free edges between entrants within ``window``
  places of the ranking, float edges from the foot of each score group to the head of
  the groups below it, and bye edges to every bye candidate; from ``2 * BLOCK`` entrants
  the ranking is also cut into blocks paired one after the other.  Such a pairing is
  kept only when it is *certified*: a perfect matching (so no rematch), the bye to the
  lowest-ranked candidate of the whole field, and as many same-group pairs as the
  whole-field bound (:func:`same_group_bound`) allows.  Otherwise the blocks double,
  then the window doubles, and at the end the whole graph is matched.  So the window
  buys speed only with the lower criteria (score difference, orientation, ranking
  distance), never with a rule or a score group.

Version 3 adds the organiser's forbidden pairs (siblings, club-mates) to the input:
the fewest forbidden meetings come before every other criterion (none while a pairing
without one exists).  The windowed path pairs and certifies as if the two had already
met (so its pairings have none); round 1's fold is kept unless it holds a forbidden
pair, when the pairing nearest the fold without one is taken.  With nothing forbidden
version 3 pairs exactly as version 2.

Versions 1 (``swiss_v1.py``) and 2 are kept for the rounds they paired: ``derive``
re-derives a committed input under the version it names (a version 1 or 2 input has no
``forbidden``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import networkx as nx

from . import swiss_v1
from .errors import LeagueError
from .lots import coin, lot
from .pairings import (
    EAST_WEST,
    NORTH_SOUTH,
    EntrantHistory,
    ForbiddenPair,
    Pairing,
    RoundPairing,
    forbidden_among,
    forbidden_pair,
)
from .swiss_criteria import Criteria, balance, bye_candidates, fewest_byes, radices

ENGINE = "swiss"
ENGINE_VERSION = 3
# The first version whose input carries the forbidden pairs.
FORBIDDEN_FROM = 3
# Every version derive() re-derives: the rounds paired under each must still verify.
ENGINE_VERSIONS = (swiss_v1.VERSION, 2, ENGINE_VERSION)
MAX_SWISS_ENTRANTS = 4096
# Up to this many entrants the whole graph is matched (about 40 ms of CPU at 32).
WHOLE_FIELD = 32
FIRST_WINDOW = 6
# How many entrants at the foot of a score group get float edges, and to how many of
# the groups below it (more as the window widens).
FLOATERS = 3
FLOAT_GROUPS = 3
BLOCK = 64
BYE = -1
CARRY = -2

Pairs = list[tuple[str, str]]


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
        return balance(self.orientations)

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


def canonical_input(
    round_number: int,
    entrants: Sequence[SwissEntrant],
    version: int | None = None,
    forbidden: Iterable[Iterable[str]] = (),
) -> dict[str, Any]:
    """The input a round is derived from (and committed to): entrants sorted by id;
    ``version`` the engine version to pair it with (the current one by default; an old
    round's own when its input is rebuilt to verify it); from version 3, ``forbidden``:
    the pairs that must not meet, those of two entrants of the field, sorted."""
    chosen = ENGINE_VERSION if version is None else version
    document: dict[str, Any] = {
        "engine": ENGINE,
        "engine_version": chosen,
        "round": round_number,
        "entrants": [entrant.as_dict() for entrant in sorted(entrants, key=lambda e: e.id)],
    }
    if chosen >= FORBIDDEN_FROM:
        document["forbidden"] = [
            list(pair) for pair in forbidden_among(forbidden, (e.id for e in entrants))
        ]
    return document


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
    version = document.get("engine_version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise LeagueError("unknown_engine_version", f"swiss engine version {version!r}?")
    forbidden = (
        frozenset(forbidden_pair(str(a), str(b)) for a, b in document["forbidden"])
        if version >= FORBIDDEN_FROM
        else frozenset()
    )
    return pair(int(document["round"]), entrants, seed, version=version, forbidden=forbidden)


def ranking(entrants: Sequence[SwissEntrant], seed: str) -> list[SwissEntrant]:
    """Pairing order: match points, then rating, then the draw of lots."""
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, lot(seed, ENGINE, e.id), e.id))


def pair(
    round_number: int,
    entrants: Sequence[SwissEntrant],
    seed: str,
    version: int = ENGINE_VERSION,
    forbidden: frozenset[ForbiddenPair] = frozenset(),
) -> RoundPairing:
    """Pair one Swiss round of ``entrants`` (those still in, late joiners included)
    the way engine ``version`` does (the current one unless re-deriving an old round);
    ``forbidden`` (version 3 on) the pairs that must not meet while a pairing without
    them exists."""
    if len({e.id for e in entrants}) != len(entrants):
        raise LeagueError("duplicate_entrant", "An entrant is listed twice.")
    if len(entrants) > MAX_SWISS_ENTRANTS:
        raise LeagueError(
            "too_many_entrants", f"A Swiss round pairs at most {MAX_SWISS_ENTRANTS} entrants."
        )
    if len(entrants) < 2:
        raise LeagueError("too_few_entrants", "A round needs at least two entrants.")
    if version not in ENGINE_VERSIONS:
        raise LeagueError(
            "unknown_engine_version", f"swiss engine version {version!r} is not derivable here."
        )
    if forbidden and version < FORBIDDEN_FROM:
        raise LeagueError(
            "unknown_engine_version", f"swiss engine version {version} knows no forbidden pairs."
        )
    ids = {e.id for e in entrants}
    forbidden = frozenset(p for p in forbidden if p[0] in ids and p[1] in ids)
    ranked = ranking(entrants, seed)
    if all(not e.opponents and e.byes == 0 for e in ranked) and len({e.score for e in ranked}) == 1:
        pairs, bye = _fold(ranked)
        if forbidden and any(forbidden_pair(a, b) in forbidden for a, b in pairs):
            pairs, bye = _near_fold(ranked, forbidden)
    elif version == 1:
        pairs, bye = swiss_v1.match(ranked)
    else:
        pairs, bye = match_field(ranked, forbidden=forbidden)
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


def _fold(ranked: Sequence[SwissEntrant]) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1: the lowest place takes the bye, then place i meets place i + n/2."""
    field = list(ranked)
    bye = field.pop().id if len(field) % 2 else None
    half = len(field) // 2
    return [(field[i].id, field[i + half].id) for i in range(half)], bye


def _near_fold(
    ranked: Sequence[SwissEntrant], forbidden: frozenset[ForbiddenPair]
) -> tuple[Pairs, str | None]:
    """Round 1 when the fold holds a forbidden pair: the fewest forbidden meetings, then
    the bye to the lowest place, then the pairs nearest the fold's (place ``i`` meets
    place ``i + n/2``): the most pairs of a top-half place with a bottom-half one, then
    the places' distance nearest half the field."""
    count = len(ranked)
    half = count // 2
    most_near = 2 * half + 1
    forbid_m, bye_m, near_m = radices((count + 1) // 2, [1, count, most_near])
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count))
    for i in range(count):
        for j in range(i + 1, count):
            allowed = forbidden_pair(ranked[i].id, ranked[j].id) not in forbidden
            across = i < half <= j
            near = (half + 1 if across else 0) + half - abs(j - i - half)
            graph.add_edge(i, j, weight=(forbid_m if allowed else 0) + near * near_m)
    if count % 2:
        for place in range(count):
            graph.add_edge(BYE, place, weight=forbid_m + (place + 1) * bye_m + most_near * near_m)
    pairs, bye, _ = _read(ranked, nx.max_weight_matching(graph, maxcardinality=True))
    return pairs, bye


def _masked(
    ranked: Sequence[SwissEntrant], forbidden: frozenset[ForbiddenPair]
) -> list[SwissEntrant]:
    """``ranked`` with each forbidden partner counted as an opponent already met: the
    windowed path's graphs (rematch-free) then hold no forbidden pair, and its bound
    counts them out."""
    if not forbidden:
        return list(ranked)
    partners: dict[str, list[str]] = {}
    for a, b in sorted(forbidden):
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    return [
        replace(e, opponents=e.opponents + tuple(partners[e.id])) if e.id in partners else e
        for e in ranked
    ]


def match_field(
    ranked: Sequence[SwissEntrant],
    whole_field: int = WHOLE_FIELD,
    window: int = FIRST_WINDOW,
    block: int = BLOCK,
    forbidden: frozenset[ForbiddenPair] = frozenset(),
) -> tuple[Pairs, str | None]:
    """The pairs (ids, higher-ranked first) and the bye of a ranked field: the whole graph
    up to ``whole_field`` entrants, else a certified windowed pairing (module docstring).
    ``forbidden``: the pairs that must not meet (the windowed path pairs and certifies as
    if they had met; the whole graph weighs them below every other pair)."""
    count = len(ranked)
    if count <= whole_field:
        return _whole(ranked, forbidden)
    whole = ranked
    ranked = _masked(ranked, forbidden)
    goal = target(ranked)
    while count >= 2 * block:
        found = _match_in_blocks(ranked, goal, window, block)
        if found is not None:
            return found
        block *= 2
    reach = window
    while reach < count:
        paired = _restricted(ranked, goal, reach)
        if paired is not None and goal.reached_by(ranked, paired[0], paired[1]):
            return paired[0], paired[1]
        reach *= 2
    return _whole(whole, forbidden)


@dataclass(frozen=True, slots=True)
class Target:
    """What a certified pairing of a whole field reaches: the bye to ``bye`` (the
    lowest-ranked entrant with the ``fewest`` byes) and ``same_group`` pairs of equal
    match points (the whole-field bound for that bye)."""

    fewest: int
    bye: str | None
    same_group: int

    def reached_by(self, ranked: Sequence[SwissEntrant], pairs: Pairs, bye: str | None) -> bool:
        """Whether a rematch-free pairing of ``ranked`` is as good as the whole graph's on
        the first three criteria (no rematch, the bye, same score group)."""
        if bye != self.bye:
            return False
        score = {e.id: e.score for e in ranked}
        return sum(1 for a, b in pairs if score[a] == score[b]) >= self.same_group


def target(ranked: Sequence[SwissEntrant]) -> Target:
    """The :class:`Target` of a ranked field."""
    fewest = fewest_byes(ranked)
    bye = ranked[bye_candidates(ranked, fewest)[-1]].id if len(ranked) % 2 else None
    return Target(fewest, bye, same_group_bound(ranked, bye))


def score_groups(ranked: Sequence[SwissEntrant]) -> list[tuple[int, int]]:
    """``(start, end)`` places of each run of equal match points (the ranking puts them
    together), best first."""
    groups: list[tuple[int, int]] = []
    start = 0
    for place in range(1, len(ranked) + 1):
        if place == len(ranked) or ranked[place].score != ranked[start].score:
            groups.append((start, place))
            start = place
    return groups


def same_group_bound(ranked: Sequence[SwissEntrant], bye: str | None) -> int:
    """At most how many pairs of equal match points a rematch-free pairing of ``ranked``
    has when ``bye`` sits out.

    A score group ``G`` keeps at most ``m(G)`` pairs inside (its largest rematch-free
    matching), so at least ``u(G) = |G| - 2·m(G)`` of its members meet someone of another
    group.  A cross-group pair covers two entrants of two different groups, so there are
    at least ``max(Σu / 2, max u)`` of them, and at most ``n/2`` minus that many pairs
    inside groups.
    """
    playing = [e for e in ranked if e.id != bye]
    unmatched = [_unmatched(playing[start:end]) for start, end in score_groups(playing)]
    cross = max((sum(unmatched) + 1) // 2, max(unmatched, default=0))
    return len(playing) // 2 - cross


def _unmatched(group: Sequence[SwissEntrant]) -> int:
    """How many of ``group``'s members at least must meet someone outside it."""
    return len(group) - 2 * _inner_matching(group)


def _inner_matching(group: Sequence[SwissEntrant]) -> int:
    """The size of the largest rematch-free matching of ``group``'s members."""
    size = len(group)
    ids = {e.id for e in group}
    met_inside = [len(ids.intersection(e.opponents)) for e in group]
    if size < 2:
        return 0
    if size == 2:
        return 0 if met_inside[0] else 1
    if all(2 * (size - 1 - met) >= size for met in met_inside):
        # Dirac: each member may meet half the group or more, so a Hamiltonian cycle
        # runs through it and every other edge of the cycle is a matching.
        return size // 2
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(size))
    for i in range(size):
        for j in range(i + 1, size):
            if group[j].id not in group[i].opponents:
                graph.add_edge(i, j)
    greedy = nx.maximal_matching(graph)
    if len(greedy) == size // 2:
        return size // 2
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def _slices(ranked: Sequence[SwissEntrant], block: int) -> list[Sequence[SwissEntrant]]:
    """Consecutive stretches of the ranking of at least ``block`` places, cut at the first
    score-group boundary within the next ``block`` places, else inside a group where
    the group's part above the cut is even (so no group is split into two odd parts,
    which would cost a cross-group pair the whole field does not need)."""
    count = len(ranked)
    group_start = [0] * count
    for place in range(1, count):
        same = ranked[place].score == ranked[place - 1].score
        group_start[place] = group_start[place - 1] if same else place
    slices: list[Sequence[SwissEntrant]] = []
    start = 0
    while count - start >= 2 * block:
        limit = min(count - block, start + 2 * block)
        cut = next((p for p in range(start + block, limit) if group_start[p] == p), None)
        if cut is None:
            cut = start + block
            cut += (cut - group_start[cut]) % 2
        slices.append(ranked[start:cut])
        start = cut
    slices.append(ranked[start:])
    return slices


def _match_in_blocks(
    ranked: Sequence[SwissEntrant], goal: Target, window: int, block: int
) -> tuple[Pairs, str | None] | None:
    """Pair the ranking block by block (a large field's fast path), or ``None``.

    A block of odd size leaves one entrant (an odd score group's floater, by the
    criteria) to the block below, where it meets the next group down; the last block
    holds the bye.  ``None`` (pair the whole field instead) unless the whole is certified.
    """
    pairs: Pairs = []
    bye: str | None = None
    carried: list[SwissEntrant] = []
    slices = _slices(ranked, block)
    for index, piece in enumerate(slices):
        below = None if index == len(slices) - 1 else slices[index + 1][0].score
        paired = _restricted([*carried, *piece], goal, window, below)
        if paired is None:
            return None
        piece_pairs, piece_bye, carry = paired
        pairs.extend(piece_pairs)
        bye = piece_bye if below is None else bye
        carried = [] if carry is None else [carry]
    if not goal.reached_by(ranked, pairs, bye):
        return None
    return pairs, bye


def _whole(
    ranked: Sequence[SwissEntrant], forbidden: frozenset[ForbiddenPair] = frozenset()
) -> tuple[Pairs, str | None]:
    """The best pairing by every criterion: the whole graph, rematch and forbidden edges
    included (weighted down)."""
    count = len(ranked)
    criteria = Criteria.of(ranked, forbidden=forbidden)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count))
    for i in range(count):
        for j in range(i + 1, count):
            graph.add_edge(i, j, weight=criteria.weight(i, j))
    if count % 2:
        for place in bye_candidates(ranked):
            graph.add_edge(BYE, place, weight=criteria.bye_weight(place))
    pairs, bye, _ = _read(ranked, nx.max_weight_matching(graph, maxcardinality=True))
    return pairs, bye


def _restricted(
    field: Sequence[SwissEntrant], goal: Target, reach: int, below: int | None = None
) -> tuple[Pairs, str | None, SwissEntrant | None] | None:
    """The best rematch-free pairing of ``field`` over window, float and bye edges, or
    ``None`` when that graph has no perfect matching.  A block above the last (``below``:
    the score of the next block's first entrant) has a carry node in place of the bye
    node."""
    count = len(field)
    criteria = Criteria.of(field, below)
    met = criteria.met
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count))

    def link(i: int, j: int) -> None:
        if field[j].id not in met[i]:
            graph.add_edge(i, j, weight=criteria.weight(i, j))

    for i in range(count):
        for j in range(i + 1, min(count, i + 1 + reach)):
            link(i, j)
    for i, j in _float_edges(field, reach, goal.bye):
        link(i, j)
    if count % 2 and below is None:
        candidates = bye_candidates(field, goal.fewest)
        if not candidates:
            return None
        for place in candidates:
            graph.add_edge(BYE, place, weight=criteria.bye_weight(place))
    elif count % 2 and below is not None:
        for place in range(count):
            graph.add_edge(CARRY, place, weight=criteria.carry_weight(place, below))
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < graph.number_of_nodes():
        return None
    return _read(field, matching)


def _float_edges(
    field: Sequence[SwissEntrant], reach: int, bye: str | None
) -> list[tuple[int, int]]:
    """Edges beyond the window from the foot of each score group to the head of the
    groups below it: the next few, and those that must send someone out of the group
    (``bye`` left out; an odd group, or one whose members have met too often to pair
    among themselves): every one of them from such a group, the next two from another.
    The floaters of such groups meet one another when the whole field is paired, however
    many groups lie between them (the fewest cross-group pairs come first)."""
    floaters = max(FLOATERS, reach // 2)
    spans = max(FLOAT_GROUPS, reach // 2)
    groups = score_groups(field)
    sending = [
        index
        for index, (start, end) in enumerate(groups)
        if _unmatched([e for e in field[start:end] if e.id != bye])
    ]
    edges: list[tuple[int, int]] = []
    for index, (start, end) in enumerate(groups):
        below = set(range(index + 1, min(len(groups), index + 1 + spans)))
        later = [other for other in sending if other > index]
        below.update(later if index in sending else later[:2])
        for other in below:
            head, head_end = groups[other]
            for i in range(max(start, end - floaters), end):
                for j in range(head, min(head_end, head + floaters)):
                    if j - i > reach:
                        edges.append((i, j))
    return edges


def _read(
    field: Sequence[SwissEntrant], matching: set[tuple[int, int]]
) -> tuple[Pairs, str | None, SwissEntrant | None]:
    """(pairs, bye, carried) of a matching over places and the BYE and CARRY nodes."""
    pairs: Pairs = []
    bye: str | None = None
    carried: SwissEntrant | None = None
    for i, j in matching:
        low, high = min(i, j), max(i, j)
        if low == BYE:
            bye = field[high].id
        elif low == CARRY:
            carried = field[high]
        else:
            pairs.append((field[low].id, field[high].id))
    return pairs, bye, carried


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
