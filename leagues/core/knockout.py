"""Knockout brackets: single and double elimination, standard seeding, optional reset.

The bracket is drawn whole at the start, as on paper: ``P`` (the next power of two
at or above the entrant count) slots in the standard seeding order (1 v P, then the
halves mirrored: 1, 8, 4, 5, 2, 7, 3, 6 for eight), seeds above the entrant count
being byes.  So the byes go to the top seeds and are spread evenly: each half (and
each quarter...) of the bracket holds the same number of byes, ±1, and no first-round
match is bye against bye.

Double elimination adds a losers' bracket: round 1's losers meet each other, then
each winners' round drops its losers in (in reverse order every other round, so two
entrants that just met are kept apart), and the losers' champion meets the winners'
champion in the grand final.  With ``reset`` a second final is played when the
losers' champion wins the first (then both have lost once).

Each match names where its two sides come from (a seed, or the winner or loser of an
earlier match); :func:`resolve` plays the byes through and says which matches are
ready, given the winners so far.

Version 2 adds the organiser's forbidden pairs to the input.  Only round 1 can avoid
them: its lower halves (seeds ``P/2+1`` to ``n``, one seeding band: every one of them
is drawn against a top-half seed) may be swapped among the slots facing a top-half
entrant, so a forbidden first-round match is redrawn with the fewest seeds moved
(the fewest forbidden meetings first, then the smallest total move).  The byes stay
with the top seeds and the top half stays where the standard order puts it, so two top
seeds the byes bring together in round 1, or a pair that meets later in the bracket,
are not kept apart (the round says they met).  With nothing forbidden in round 1, version 2 draws
exactly the bracket of version 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import networkx as nx

from .errors import LeagueError
from .lots import lot
from .pairings import ForbiddenPair, Pairing, RoundPairing, forbidden_among, forbidden_pair

ENGINE = "knockout"
ENGINE_VERSION = 2
# The first version whose input carries the forbidden pairs.
FORBIDDEN_FROM = 2
ENGINE_VERSIONS = (1, ENGINE_VERSION)
MAX_KNOCKOUT_ENTRANTS = 1024
SEEDINGS = ("rating", "manual")

SourceKind = Literal["seed", "winner", "loser"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where one side of a match comes from: seed ``n`` (1-based), or a match's winner/loser."""

    kind: SourceKind
    seed: int = 0
    match: str = ""


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket: id (``W2-1``, ``L3-2``, ``GF``, ``GF2``) and its two sides."""

    id: str
    stage: Literal["winners", "losers", "final"]
    round: int
    top: Source
    bottom: Source


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole bracket; ``seeds[k]`` is seed ``k+1``'s entrant."""

    seeds: tuple[str, ...]
    size: int
    double: bool
    reset: bool
    matches: tuple[BracketMatch, ...]

    def match(self, match_id: str) -> BracketMatch:
        for candidate in self.matches:
            if candidate.id == match_id:
                return candidate
        raise LeagueError("unknown_match", f"The bracket has no match {match_id!r}.")


BYE = ""  # the entrant of an empty slot; never a valid entrant id


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match's sides (an entrant, ``BYE``, or ``None`` while unknown) and its outcome."""

    id: str
    top: str | None
    bottom: str | None
    winner: str | None
    loser: str | None
    needed: bool = True

    @property
    def ready(self) -> bool:
        """Both sides are entrants and the match has no winner yet."""
        return (
            self.needed
            and self.winner is None
            and self.top not in (None, BYE)
            and self.bottom not in (None, BYE)
        )


@dataclass(frozen=True, slots=True)
class BracketState:
    matches: tuple[MatchState, ...]
    champion: str | None

    def ready(self) -> list[MatchState]:
        return [state for state in self.matches if state.ready]


def seeding_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order: 1, 8, 4, 5, 2, 7, 3, 6 for ``size`` 8."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def bracket_size(entrant_count: int) -> int:
    size = 1
    while size < entrant_count:
        size *= 2
    return size


def seed_order(
    entrant_ids: Sequence[str],
    ratings: Mapping[str, int],
    seed: str,
    seeding: str = "rating",
) -> list[str]:
    """The entrants as seeds 1, 2, ...: by rating (ties by the draw of lots), or as listed."""
    if seeding not in SEEDINGS:
        raise LeagueError(
            "bad_seeding", f"seeding {seeding!r} is not one of {', '.join(SEEDINGS)}."
        )
    if seeding == "manual":
        return list(entrant_ids)
    return sorted(entrant_ids, key=lambda e: (-ratings.get(e, 0), lot(seed, ENGINE, e), e))


def avoid_forbidden(seeds: Sequence[str], forbidden: frozenset[ForbiddenPair]) -> list[str]:
    """``seeds`` with the lower half's entrants reassigned so that round 1 holds the
    fewest forbidden matches, moving them as little as possible (the module docstring);
    the order itself when round 1 holds none."""
    count = len(seeds)
    size = bracket_size(count)
    order = seeding_positions(size)
    faced = [
        (order[2 * j], order[2 * j + 1])
        for j in range(size // 2)
        if order[2 * j + 1] <= count and order[2 * j] <= count
    ]

    def forbidden_between(top: int, bottom: int) -> bool:
        return forbidden_pair(seeds[top - 1], seeds[bottom - 1]) in forbidden

    if not any(forbidden_between(top, bottom) for top, bottom in faced):
        return list(seeds)
    bottoms = [bottom for _, bottom in faced]
    most_moved = len(faced) * size
    graph: nx.Graph[tuple[str, int]] = nx.Graph()
    for top, slot in faced:
        for bottom in bottoms:
            allowed = not forbidden_between(top, bottom)
            graph.add_edge(
                ("slot", slot),
                ("seed", bottom),
                weight=(most_moved + 1 if allowed else 0) + size - abs(slot - bottom),
            )
    reordered = list(seeds)
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        slot, bottom = (a[1], b[1]) if a[0] == "slot" else (b[1], a[1])
        reordered[slot - 1] = seeds[bottom - 1]
    return reordered


def build_bracket(seeds: Sequence[str], double: bool = False, reset: bool = False) -> Bracket:
    """The bracket for entrants already in seed order."""
    if len(set(seeds)) != len(seeds) or BYE in seeds:
        raise LeagueError("duplicate_entrant", "An entrant is listed twice (or has no id).")
    if not 2 <= len(seeds) <= MAX_KNOCKOUT_ENTRANTS:
        raise LeagueError(
            "bad_entrant_count", f"A knockout has 2 to {MAX_KNOCKOUT_ENTRANTS} entrants."
        )
    if reset and not double:
        raise LeagueError("bad_reset", "A grand-final reset needs double elimination.")
    size = bracket_size(len(seeds))
    levels = size.bit_length() - 1
    order = seeding_positions(size)
    matches: list[BracketMatch] = []

    def add(
        stage: Literal["winners", "losers", "final"],
        number: int,
        name: str,
        top: Source,
        bottom: Source,
    ) -> None:
        matches.append(BracketMatch(name, stage, number, top, bottom))

    for j in range(size // 2):
        add(
            "winners",
            1,
            f"W1-{j + 1}",
            Source("seed", seed=order[2 * j]),
            Source("seed", seed=order[2 * j + 1]),
        )
    for r in range(2, levels + 1):
        for j in range(size >> r):
            add(
                "winners",
                r,
                f"W{r}-{j + 1}",
                Source("winner", match=f"W{r - 1}-{2 * j + 1}"),
                Source("winner", match=f"W{r - 1}-{2 * j + 2}"),
            )
    if not double:
        return Bracket(tuple(seeds), size, double, reset, tuple(matches))

    if levels == 1:
        losers_champion = Source("loser", match="W1-1")
    else:
        for j in range(size // 4):
            add(
                "losers",
                1,
                f"L1-{j + 1}",
                Source("loser", match=f"W1-{2 * j + 1}"),
                Source("loser", match=f"W1-{2 * j + 2}"),
            )
        previous = 1
        for t in range(2, levels + 1):
            width = size >> t
            number = 2 * t - 2
            for j in range(width):
                dropped = width - j if t % 2 == 0 else j + 1
                add(
                    "losers",
                    number,
                    f"L{number}-{j + 1}",
                    Source("winner", match=f"L{previous}-{j + 1}"),
                    Source("loser", match=f"W{t}-{dropped}"),
                )
            previous = number
            if t < levels:
                number = 2 * t - 1
                for j in range(width // 2):
                    add(
                        "losers",
                        number,
                        f"L{number}-{j + 1}",
                        Source("winner", match=f"L{previous}-{2 * j + 1}"),
                        Source("winner", match=f"L{previous}-{2 * j + 2}"),
                    )
                previous = number
        losers_champion = Source("winner", match=f"L{previous}-1")
    add("final", 1, "GF", Source("winner", match=f"W{levels}-1"), losers_champion)
    if reset:
        add("final", 2, "GF2", Source("winner", match="GF"), Source("loser", match="GF"))
    return Bracket(tuple(seeds), size, double, reset, tuple(matches))


def resolve(bracket: Bracket, winners: Mapping[str, str]) -> BracketState:
    """Who plays where, given the winners so far (byes are played through)."""
    known = {match.id for match in bracket.matches}
    for match_id in winners:
        if match_id not in known:
            raise LeagueError("unknown_match", f"The bracket has no match {match_id!r}.")
    states: dict[str, MatchState] = {}

    def side(source: Source) -> str | None:
        if source.kind == "seed":
            return bracket.seeds[source.seed - 1] if source.seed <= len(bracket.seeds) else BYE
        earlier = states[source.match]
        return earlier.winner if source.kind == "winner" else earlier.loser

    for match in bracket.matches:
        top, bottom = side(match.top), side(match.bottom)
        needed = True
        if match.id == "GF2":
            final = states["GF"]
            needed = final.winner is not None and final.winner == final.bottom
            if final.winner is not None and not needed:
                states[match.id] = MatchState(match.id, top, bottom, final.winner, None, False)
                continue
        winner: str | None = None
        loser: str | None = None
        if top is not None and bottom is not None:
            if top == BYE or bottom == BYE:
                winner = bottom if top == BYE else top
                loser = BYE
            else:
                chosen = winners.get(match.id)
                if chosen is not None:
                    if chosen not in (top, bottom):
                        raise LeagueError(
                            "not_in_match",
                            f"{chosen!r} is not playing match {match.id} ({top} v {bottom}).",
                        )
                    winner = chosen
                    loser = bottom if chosen == top else top
        states[match.id] = MatchState(match.id, top, bottom, winner, loser, needed)
    last = states[bracket.matches[-1].id]
    champion = last.winner if last.winner not in (None, BYE) else None
    return BracketState(tuple(states.values()), champion)


def canonical_input(
    round_number: int,
    entrant_ids: Sequence[str],
    ratings: Mapping[str, int],
    winners: Mapping[str, str],
    double: bool = False,
    reset: bool = False,
    seeding: str = "rating",
    lots_seed: str | None = None,
    version: int | None = None,
    forbidden: Iterable[Iterable[str]] = (),
) -> dict[str, Any]:
    """The input a knockout round is derived from (and committed to).

    ``lots_seed`` (the competition's) breaks rating ties, so every round rebuilds the
    same bracket; without it (inputs written before it was added) the round's own seed
    does, which can reorder tied seeds between rounds.  From version 2 (``version``:
    the current one by default), ``forbidden``: the pairs that must not meet in round 1
    (the same in every round of the stage, so the bracket is drawn once).
    """
    chosen = ENGINE_VERSION if version is None else version
    document: dict[str, Any] = {
        "engine": ENGINE,
        "engine_version": chosen,
        "round": round_number,
        "entrants": [
            {"id": entrant, "rating": int(ratings.get(entrant, 0))} for entrant in entrant_ids
        ],
        "winners": dict(sorted(winners.items())),
        "double": double,
        "reset": reset,
        "seeding": seeding,
    }
    if lots_seed is not None:
        document["lots_seed"] = lots_seed
    if chosen >= FORBIDDEN_FROM:
        document["forbidden"] = [list(pair) for pair in forbidden_among(forbidden, entrant_ids)]
    return document


def drawn_bracket(document: Mapping[str, Any], seed: str) -> tuple[Bracket, BracketState]:
    """The bracket the canonical input describes, and it resolved with its winners so
    far (``seed`` breaks rating ties only for an input without ``lots_seed``)."""
    raw = list(document["entrants"])
    ids = [str(entry["id"]) for entry in raw]
    ratings = {str(entry["id"]): int(entry["rating"]) for entry in raw}
    draw = str(document.get("lots_seed", seed))
    seeds = seed_order(ids, ratings, draw, str(document.get("seeding", "rating")))
    version = document.get("engine_version", 1)
    if isinstance(version, int) and version >= FORBIDDEN_FROM:
        forbidden = frozenset(forbidden_pair(str(a), str(b)) for a, b in document["forbidden"])
        seeds = avoid_forbidden(seeds, forbidden)
    bracket = build_bracket(
        seeds, bool(document.get("double", False)), bool(document.get("reset", False))
    )
    winners = {str(k): str(v) for k, v in dict(document["winners"]).items()}
    return bracket, resolve(bracket, winners)


def bracket_state(document: Mapping[str, Any], seed: str) -> BracketState:
    """The bracket the canonical input describes, resolved with its winners so far."""
    return drawn_bracket(document, seed)[1]


def derive(document: Mapping[str, Any], seed: str) -> RoundPairing:
    """The matches ready to play, given the canonical input: the next knockout round.

    The higher slot (the better seed in round 1) sits North-South; boards follow the
    bracket order.
    """
    ready = bracket_state(document, seed).ready()
    return RoundPairing(
        number=int(document["round"]),
        matches=tuple(
            Pairing(board, str(match.top), str(match.bottom), match.id)
            for board, match in enumerate(ready, start=1)
        ),
    )
