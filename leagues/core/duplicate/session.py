"""A duplicate competition as plain values: settings, rounds of boards and seatings,
board results, and what follows from them alone (the next round, the standings).

The competition file (``leagues.core.competition_file``, docs/formats.md) reads into
these, and ``manage.py standings`` / ``manage.py pair`` compute from them with the rest
of this package; the shapes use the names the platform's events use (``board``,
``dealer``, ``seed_hash``, ``seed``, ``table``, ``north_south``, ``east_west``,
``bids``, ``tricks``, ``score``), so an export can write them as they are.

**Partnership slots.** A movement seats partnership slots 1..2T (``movements``). Which
entrant is which slot is fixed once, by round 1: ``pair`` draws it for round 1 (the
seeded draw of lots over the entrant ids, or the entrants' order in the file for
``slots: as_listed``, which a teams-of-four match needs: entrants 1 and 2 are team 1),
and every later round is the movement's next round under the same slots. A file whose
seatings are not one movement under one assignment of slots is refused.

**Comparison groups.** A board's results are compared among the tables that held it in
the same direction in the same group: in a teams-of-four competition the two tables of one
match (table ``2m-1``, the open room, and ``2m``, the closed room), whichever the
seating; otherwise every table of the round (the whole field plays every board of its
round at the same time). In a plain Mitchell the North-South and East-West partnerships
are two fields, ranked apart; with the arrow switch and in teams of four, one.

**Team matches** (``team_matches``): in teams of four, team A of match ``m`` is the open
room's North-South partnership and the closed room's East-West one, team B the other two;
each board gives team A ``imps(open net - closed net)`` (``board_scoring.team_match``),
the team with more IMPs wins the match (equal: a draw), and the standings rank first by
the team match points each partnership's matches gave (2 a win, 1 a draw), then as below.
A movement-seated file's match is its two rounds (the halves) under fixed slots; a
stage-seated round is one match per pair of tables, its teams whoever the stages seated
there that round.

**Stage seating** (``DuplicateSettings.seating == "stages"``, the platform's): the
competition's stages pair each round's matches, match ``t`` is table ``t`` and plays every
board of the round (numbered from 1 in each round, from the boards' own round seed:
``stage_round_boards``, ``stage_seating``); the standings share a rank on equal totals (no
tie-breaks), as the platform's ``GET .../duplicate`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.engine.deal import seed_commitment
from games.engine.rules import Rules
from games.engine.seats import SEAT_NAMES

from ..errors import LeagueError
from ..lots import lot
from .board_scoring import (
    TeamMatchScore,
    imps,
    imps_against_field,
    matchpoints,
    score_board,
    team_match,
    top,
)
from .boards import MAX_BOARDS, board_seed, dealer_of, round_commitment
from .movements import Schedule, Seating, mitchell, movement, teams_of_four
from .par import BoardPar

SCALES = ("matchpoints", "imps")
SLOT_ORDERS = ("lots", "as_listed")
#: How a file's rounds are seated (docs/formats.md): ``movement``, the movement's
#: schedule (boards numbered through the session); ``stages``, the competition's stage
#: engine pairs each round's matches, match ``t`` is table ``t`` and plays every board of
#: the round, numbered from 1 in each round (what the platform does).
SEATINGS = ("movement", "stages")
#: Tie-breaks of a duplicate standings table (the primary scale is left out of its own list).
DUPLICATE_TIEBREAKS = ("matchpoints", "imps", "tops", "lots")
MAX_ROUNDS = MAX_BOARDS  # a round has at least one board, and a session at most 64
SLOT_DOMAIN = "duplicate-slots"


@dataclass(frozen=True, slots=True)
class DuplicateSettings:
    """What a duplicate competition pins: movement, size, boards a round, scale, rules."""

    movement: str
    tables: int
    rounds: int
    boards_per_round: int
    scale: str = "matchpoints"
    rules: Rules = field(default_factory=Rules)
    rules_spec: Any = "standard"
    tiebreaks: tuple[str, ...] = ()
    slots: str = "lots"
    seating: str = "movement"

    @property
    def stage_seated(self) -> bool:
        return self.seating == "stages"

    @property
    def boards(self) -> int:
        return self.rounds * self.boards_per_round

    @property
    def partnerships(self) -> int:
        return 2 * self.tables

    def effective_tiebreaks(self, scale: str | None = None) -> tuple[str, ...]:
        return check_duplicate_tiebreaks(self.tiebreaks or None, scale or self.scale)

    def as_dict(self) -> dict[str, Any]:
        if self.stage_seated:
            # The stages pin the rounds and the pairings the tables; no slots, and the
            # standings share places on ties as the platform's do (no tie-breaks).
            return {
                "seating": self.seating,
                "movement": self.movement,
                "boards_per_round": self.boards_per_round,
                "scale": self.scale,
                "rules": self.rules_spec,
            }
        return {
            "movement": self.movement,
            "tables": self.tables,
            "rounds": self.rounds,
            "boards_per_round": self.boards_per_round,
            "scale": self.scale,
            "rules": self.rules_spec,
            "tiebreaks": list(self.tiebreaks),
            "slots": self.slots,
        }


def check_duplicate_tiebreaks(names: Sequence[str] | None, scale: str) -> tuple[str, ...]:
    """The tie-break order for ``scale``: default the other scale, then tops, then lots."""
    if names is None:
        names = [other for other in SCALES if other != scale] + ["tops"]
    checked: list[str] = []
    for name in names:
        if name not in DUPLICATE_TIEBREAKS:
            raise LeagueError(
                "unknown_tiebreak",
                f"{name!r} is not a duplicate tie-break; they are "
                f"{', '.join(DUPLICATE_TIEBREAKS)}.",
            )
        if name == scale:
            raise LeagueError(
                "unknown_tiebreak", f"{name!r} is the scale itself; it cannot break its ties."
            )
        if name in checked:
            raise LeagueError("unknown_tiebreak", f"{name!r} is listed twice.")
        checked.append(name)
    if "lots" in checked:
        checked.remove("lots")
    return (*checked, "lots")


def session_schedule(settings: DuplicateSettings) -> Schedule:
    """The whole movement: ``rounds`` rounds of ``boards_per_round`` boards at ``tables``
    tables (boards numbered 1..rounds x boards_per_round through the session)."""
    total = settings.boards
    if total > MAX_BOARDS:
        raise LeagueError(
            "bad_movement",
            f"{settings.rounds} rounds of {settings.boards_per_round} boards are {total} "
            f"boards; a session has at most {MAX_BOARDS}.",
        )
    if settings.movement == "teams_of_four":
        if settings.rounds != 2:
            raise LeagueError(
                "bad_movement",
                f"A teams-of-four match is two rounds (the halves), not {settings.rounds}.",
            )
        return teams_of_four(settings.tables, total)
    if settings.movement in ("mitchell", "mitchell_arrow_switch"):
        return mitchell(
            settings.tables,
            total,
            settings.rounds,
            arrow_switch=settings.movement == "mitchell_arrow_switch",
        )
    movement(settings.movement)  # refuses an unknown name, naming those offered
    raise LeagueError("unknown_movement", f"movement {settings.movement!r} is not offered.")


def round_boards(schedule: Schedule, number: int) -> list[int]:
    """The board numbers movement round ``number`` plays, in order."""
    return sorted({s.board for s in schedule if s.round == number})


def stage_round_boards(round_seed: str, count: int) -> tuple[RoundBoard, ...]:
    """A stage-seated round's boards 1..count from its boards' round seed, committed
    (seed hidden) as the platform's ``BoardsCommitted`` lists them."""
    return tuple(
        RoundBoard(n, dealer_of(n), seed_commitment(board_seed(round_seed, n)))
        for n in range(1, count + 1)
    )


def stage_seating(matches: Sequence[tuple[int, str, str]], count: int) -> list[TableSeating]:
    """A stage-seated round's seating: match ``(table, north_south, east_west)`` at its
    table for every board 1..count (every table plays every board of the round)."""
    return [
        TableSeating(table, board, north_south, east_west)
        for table, north_south, east_west in sorted(matches)
        for board in range(1, count + 1)
    ]


@dataclass(frozen=True, slots=True)
class RoundBoard:
    """A board as a round publishes it: ``seed`` is None until revealed."""

    board: int
    dealer: int
    seed_hash: str
    seed: str | None = None
    #: The board's par once revealed (the platform's ``BoardParComputed``), or None.
    par: BoardPar | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "dealer": SEAT_NAMES[self.dealer],
            "seed_hash": self.seed_hash,
            "seed": self.seed,
            # Written only with a par, so a file without one is as it always was.
            **({"par": self.par.as_dict()} if self.par is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class TableSeating:
    """Who sits which way at ``table`` for ``board`` (entrant ids)."""

    table: int
    board: int
    north_south: str
    east_west: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "board": self.board,
            "north_south": self.north_south,
            "east_west": self.east_west,
        }


@dataclass(frozen=True, slots=True)
class DuplicateRound:
    """``commitment``/``seed``: a stage-seated round's boards' round seed (the platform's
    ``BoardsCommitted.round_commitment``, ``BoardsRevealed.round_seed``); in movement
    seating the round's own commitment and seed are the boards' (on the paired round)."""

    number: int
    boards: tuple[RoundBoard, ...]
    seating: tuple[TableSeating, ...]
    commitment: str = ""
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One table's play of one board: bids (with blind flags) and tricks by seat, and the
    board score (``board_scoring.score_board``) of each side."""

    round: int
    table: int
    board: int
    north_south: str
    east_west: str
    bids: tuple[int, int, int, int]
    blind: tuple[bool, bool, bool, bool]
    tricks: tuple[int, int, int, int]
    score_ns: int
    score_ew: int
    #: An organiser corrected this result after the table played it (the platform's
    #: ``BoardResultCorrected``): the file holds the corrected bids and tricks.
    corrected: bool = False

    @property
    def net(self) -> int:
        return self.score_ns - self.score_ew

    def bids_dict(self) -> dict[str, int | str]:
        return {
            name: ("blind_nil" if blind else "nil" if bid == 0 else bid)
            for name, bid, blind in zip(SEAT_NAMES, self.bids, self.blind, strict=True)
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "board": self.board,
            "north_south": self.north_south,
            "east_west": self.east_west,
            "bids": self.bids_dict(),
            "tricks": dict(zip(SEAT_NAMES, self.tricks, strict=True)),
            "score": {"north_south": self.score_ns, "east_west": self.score_ew},
            # Written only when true, so a file without corrections is as it always was.
            **({"corrected": True} if self.corrected else {}),
        }


def board_result(
    rules: Rules,
    round_number: int,
    seating: TableSeating,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
) -> BoardResult:
    """A table's result scored on its own (``score_board``)."""
    scored = score_board(rules, bids, blind, tricks)
    return BoardResult(
        round_number,
        seating.table,
        seating.board,
        seating.north_south,
        seating.east_west,
        (bids[0], bids[1], bids[2], bids[3]),
        (blind[0], blind[1], blind[2], blind[3]),
        (tricks[0], tricks[1], tricks[2], tricks[3]),
        scored.north_south.points,
        scored.east_west.points,
    )


@dataclass(frozen=True, slots=True)
class DuplicateState:
    """A duplicate competition's settings, published rounds and board results."""

    settings: DuplicateSettings
    rounds: tuple[DuplicateRound, ...] = ()
    results: tuple[BoardResult, ...] = ()

    def schedule(self) -> Schedule:
        return session_schedule(self.settings)


# --- slots ------------------------------------------------------------------------------


def drawn_slots(entrants: Sequence[str], lots_seed: str, order: str) -> dict[int, str]:
    """Slot -> entrant for round 1: the draw of lots over the ids, or the file's order."""
    if order == "as_listed":
        listed = list(entrants)
    else:
        listed = sorted(entrants, key=lambda entrant: lot(lots_seed, SLOT_DOMAIN, entrant))
    return {slot: entrant for slot, entrant in enumerate(listed, start=1)}


def slots_from_round(
    schedule: Schedule, seating: Sequence[TableSeating]
) -> tuple[dict[int, str], int | None, str | None]:
    """The slot assignment round 1's ``seating`` implies, or the index of the first
    seating that no single assignment explains and why."""
    movement_round = {(s.table, s.board): s for s in schedule if s.round == 1}
    slots: dict[int, str] = {}
    for index, seat in enumerate(seating):
        planned = movement_round.get((seat.table, seat.board))
        if planned is None:
            return slots, index, f"round 1 has no table {seat.table} for board {seat.board}."
        for slot, entrant in (
            (planned.north_south, seat.north_south),
            (planned.east_west, seat.east_west),
        ):
            if slots.setdefault(slot, entrant) != entrant:
                return (
                    slots,
                    index,
                    (
                        f"the movement seats partnership {slot} here, which is {slots[slot]!r} "
                        f"elsewhere in round 1, not {entrant!r}."
                    ),
                )
    return slots, None, None


def seating_of(schedule: Schedule, number: int, slots: Mapping[int, str]) -> list[TableSeating]:
    """Movement round ``number`` with entrants in the slots, by table then board."""
    planned: list[Seating] = sorted(
        (s for s in schedule if s.round == number), key=lambda s: (s.table, s.board)
    )
    return [
        TableSeating(s.table, s.board, slots[s.north_south], slots[s.east_west]) for s in planned
    ]


@dataclass(frozen=True, slots=True)
class NextDuplicateRound:
    number: int
    boards: tuple[RoundBoard, ...]
    seating: tuple[TableSeating, ...]
    commitment: str
    seed: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "boards": [
                {"board": b.board, "dealer": SEAT_NAMES[b.dealer], "seed_hash": b.seed_hash}
                for b in self.boards
            ],
            "seating": [s.as_dict() for s in self.seating],
            "commitment": self.commitment,
            "seed": self.seed,
        }


def pair_next_duplicate_round(
    state: DuplicateState, entrants: Sequence[str], lots_seed: str, round_seed: str
) -> NextDuplicateRound:
    """The next round: its boards (committed from ``round_seed``) and its seating."""
    settings = state.settings
    schedule = state.schedule()
    if state.rounds:
        last = state.rounds[-1]
        done = {(r.table, r.board) for r in state.results if r.round == last.number}
        missing = [s for s in last.seating if (s.table, s.board) not in done]
        if missing:
            first = missing[0]
            raise LeagueError(
                "round_not_closed",
                f"Round {last.number} still has boards without a result (table "
                f"{first.table} board {first.board}); close it first.",
            )
    number = len(state.rounds) + 1
    if number > settings.rounds:
        raise LeagueError(
            "competition_finished", "Every round of the duplicate movement is paired."
        )
    if state.rounds:
        slots, _, _ = slots_from_round(schedule, state.rounds[0].seating)
    else:
        slots = drawn_slots(entrants, lots_seed, settings.slots)
    boards = tuple(
        RoundBoard(n, dealer_of(n), seed_commitment(board_seed(round_seed, n)))
        for n in round_boards(schedule, number)
    )
    return NextDuplicateRound(
        number,
        boards,
        tuple(seating_of(schedule, number, slots)),
        round_commitment(round_seed),
        round_seed,
    )


# --- standings --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ComparedResult:
    """A board result with what its comparison group gives each side."""

    result: BoardResult
    group: int
    top: int
    matchpoints_ns: int
    imps_ns: int
    #: North-South's IMPs against the board's par (None: the file has no par for it).
    par_imps_ns: int | None = None

    @property
    def matchpoints_ew(self) -> int:
        return self.top - self.matchpoints_ns

    def as_dict(self) -> dict[str, Any]:
        r = self.result
        return {
            "table": r.table,
            "group": self.group,
            "north_south": r.north_south,
            "east_west": r.east_west,
            "bids": r.bids_dict(),
            "tricks": dict(zip(SEAT_NAMES, r.tricks, strict=True)),
            "score": {"north_south": r.score_ns, "east_west": r.score_ew},
            "net": r.net,
            "matchpoints": {"north_south": self.matchpoints_ns, "east_west": self.matchpoints_ew},
            "imps": {"north_south": self.imps_ns, "east_west": -self.imps_ns},
            # As the platform's traveller: North-South's IMPs against par (with a par).
            **({} if self.par_imps_ns is None else {"imps_against_par": self.par_imps_ns}),
        }


def group_of(movement_name: str, table: int) -> int:
    """A table's comparison group: its team match ``m`` (tables ``2m-1``, ``2m``: the open
    and the closed room) in a teams-of-four competition, whichever the seating (the
    platform compares the same way, docs/leagues.md "Duplicate competitions"), else the
    whole field (0)."""
    return (table + 1) // 2 if movement_name == "teams_of_four" else 0


def compared(state: DuplicateState) -> list[ComparedResult]:
    """Every board result with its matchpoints and IMPs against its group."""
    groups: dict[tuple[int, int, int], list[BoardResult]] = {}
    for result in state.results:
        settings = state.settings
        key = (result.round, result.board, group_of(settings.movement, result.table))
        groups.setdefault(key, []).append(result)
    pars = board_pars(state)
    out: list[ComparedResult] = []
    for (number, board, group), members in sorted(groups.items()):
        members.sort(key=lambda r: r.table)
        nets = [r.net for r in members]
        ceiling = top(len(nets))
        par = pars.get((number, board))
        for r, mp, diff in zip(members, matchpoints(nets), imps_against_field(nets), strict=True):
            against = None if par is None else imps(r.net - par.net)
            out.append(ComparedResult(r, group, ceiling, mp, diff, against))
    return out


def board_pars(state: DuplicateState) -> dict[tuple[int, int], BoardPar]:
    """(round, board) -> the board's par, for the boards the file gives one."""
    return {(r.number, b.board): b.par for r in state.rounds for b in r.boards if b.par is not None}


def travellers(state: DuplicateState) -> list[dict[str, Any]]:
    """Each board's traveller: every table's result on it, compared with its group."""
    lines: dict[tuple[int, int], list[ComparedResult]] = {}
    for line in compared(state):
        lines.setdefault((line.result.round, line.result.board), []).append(line)
    return [
        {"round": rnd, "board": board, "lines": [line.as_dict() for line in found]}
        for (rnd, board), found in sorted(lines.items())
    ]


TEAM_MOVEMENT = "teams_of_four"
#: What a team match gives each of its partnerships in the team standings: 2 a win,
#: 1 a draw (equal IMPs), 0 a loss.
TEAM_MATCH_POINTS = {"won": 2, "drawn": 1, "lost": 0}


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A team-of-four match as its board results make it.

    ``match`` ``m`` is tables ``2m-1`` (the open room) and ``2m`` (the closed room);
    ``round`` is the round it was played in when stage-seated, 0 in a movement-seated
    file (whose two rounds are the one match's halves). Team A is the open room's
    North-South partnership and the closed room's East-West one, team B the other two,
    so each team holds each board once in each direction. Only boards with a result in
    both rooms count; ``boards`` lists them as ``(round, board)``, and ``score`` has
    team A's IMPs on each (``board_scoring.team_match``: the open room's net minus the
    closed room's, converted by the IMP table).
    """

    round: int
    match: int
    team_a: tuple[str, ...]
    team_b: tuple[str, ...]
    boards: tuple[tuple[int, int], ...]
    score: TeamMatchScore

    def outcome(self, entrant: str) -> str | None:
        """``won``, ``drawn`` or ``lost`` for a partnership of the match, else None."""
        side = "a" if entrant in self.team_a else "b" if entrant in self.team_b else None
        if side is None:
            return None
        winner = self.score.winner
        return "drawn" if winner is None else "won" if winner == side else "lost"

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "match": self.match,
            "tables": [2 * self.match - 1, 2 * self.match],
            "team_a": {"entrants": list(self.team_a), "imps": self.score.team_a},
            "team_b": {"entrants": list(self.team_b), "imps": self.score.team_b},
            "winner": self.score.winner,
            "boards": [
                {"round": rnd, "board": board, "imps": points}
                for (rnd, board), points in zip(self.boards, self.score.board_imps, strict=True)
            ],
        }


def team_matches(state: DuplicateState) -> list[TeamMatch]:
    """Every team-of-four match of the results, by round then match (none for another
    movement). A table whose partner room has no result on a board (an odd table out)
    plays no team match on it."""
    settings = state.settings
    if settings.movement != TEAM_MOVEMENT:
        return []
    rooms: dict[tuple[int, int], dict[tuple[int, int], dict[int, BoardResult]]] = {}
    for r in state.results:
        key = (r.round if settings.stage_seated else 0, group_of(settings.movement, r.table))
        rooms.setdefault(key, {}).setdefault((r.round, r.board), {})[r.table] = r
    out: list[TeamMatch] = []
    for (rnd, match), boards in sorted(rooms.items()):
        open_room, closed_room = 2 * match - 1, 2 * match
        played = [
            (board, tables[open_room], tables[closed_room])
            for board, tables in sorted(boards.items())
            if open_room in tables and closed_room in tables
        ]
        if not played:
            continue
        team_a = tuple(dict.fromkeys(e for _, o, c in played for e in (o.north_south, c.east_west)))
        team_b = tuple(dict.fromkeys(e for _, o, c in played for e in (o.east_west, c.north_south)))
        out.append(
            TeamMatch(
                rnd,
                match,
                team_a,
                team_b,
                tuple(board for board, _, _ in played),
                team_match([(o.net, c.net) for _, o, c in played]),
            )
        )
    return out


def team_records(matches: Sequence[TeamMatch]) -> dict[str, dict[str, int]]:
    """Each partnership's team matches won, drawn and lost, and its team match points."""
    records: dict[str, dict[str, int]] = {}
    for found in matches:
        for entrant in (*found.team_a, *found.team_b):
            outcome = found.outcome(entrant)
            assert outcome is not None
            row = records.setdefault(entrant, {"won": 0, "drawn": 0, "lost": 0, "points": 0})
            row[outcome] += 1
            row["points"] += TEAM_MATCH_POINTS[outcome]
    return records


@dataclass(frozen=True, slots=True)
class DuplicateRow:
    rank: int
    entrant: str
    field: str
    boards: int
    matchpoints: int
    top: int
    imps: int
    tops: int
    tiebreaks: dict[str, int]
    #: A teams-of-four competition's team record (``team_records``), else None.
    team: dict[str, int] | None = None
    #: IMPs against par over the entrant's boards that have one (None: no board has).
    par_imps: int | None = None

    @property
    def percent(self) -> Fraction:
        return Fraction(100 * self.matchpoints, self.top) if self.top else Fraction(0)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "field": self.field,
            "boards": self.boards,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "percent": round(float(self.percent), 2),
            "imps": self.imps,
            "tops": self.tops,
            "tiebreaks": dict(self.tiebreaks),
            **({} if self.team is None else {"team": dict(self.team)}),
            **({} if self.par_imps is None else {"imps_against_par": self.par_imps}),
        }


@dataclass(frozen=True, slots=True)
class DuplicateStandings:
    scale: str
    tiebreaks: tuple[str, ...]
    rows: tuple[DuplicateRow, ...]
    boards: int
    #: A teams-of-four competition's matches (``team_matches``), else None.
    team_matches: tuple[TeamMatch, ...] | None = None

    def order(self) -> list[str]:
        return [row.entrant for row in self.rows]

    def as_dict(self) -> dict[str, Any]:
        teams = {"team_matches": [m.as_dict() for m in self.team_matches or ()]}
        return {
            "scale": self.scale,
            "tiebreaks": list(self.tiebreaks),
            "board_results": self.boards,
            "rows": [row.as_dict() for row in self.rows],
            **(teams if self.team_matches is not None else {}),
        }


def field_of(movement_name: str, entrant: str, state: DuplicateState) -> str:
    """``north_south`` / ``east_west`` in a plain Mitchell (two fields), else ``all`` (a
    stage-seated competition is one field)."""
    if movement_name != "mitchell" or state.settings.stage_seated:
        return "all"
    for r in state.rounds:
        for seat in r.seating:
            if seat.north_south == entrant:
                return "north_south"
            if seat.east_west == entrant:
                return "east_west"
    return "all"


def duplicate_standings(
    state: DuplicateState,
    entrants: Sequence[str],
    lots_seed: str,
    scale: str | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> DuplicateStandings:
    """The table: by the scale's total (matchpoints or IMPs against the group), then each
    tie-break in turn, then the draw of lots; ranks run within each field. A teams-of-four
    competition ranks first by its team match points (``TEAM_MATCH_POINTS``), then so."""
    scale = scale or state.settings.scale
    if scale not in SCALES:
        raise LeagueError(
            "unknown_scale", f"{scale!r} is not a scale; they are {', '.join(SCALES)}."
        )
    if state.settings.stage_seated and tiebreaks:
        raise LeagueError(
            "unknown_tiebreak",
            "a stage-seated duplicate competition ranks by its scale alone, ties sharing a "
            "place (as the platform shows it); it has no tie-breaks.",
        )
    order = check_duplicate_tiebreaks(
        tiebreaks if tiebreaks is not None else (state.settings.tiebreaks or None), scale
    )
    totals = {
        e: {"boards": 0, "matchpoints": 0, "top": 0, "imps": 0, "tops": 0, "par_imps": 0}
        for e in entrants
    }
    for line in compared(state):
        r = line.result
        par = line.par_imps_ns or 0
        for entrant, mp, diff, against in (
            (r.north_south, line.matchpoints_ns, line.imps_ns, par),
            (r.east_west, line.matchpoints_ew, -line.imps_ns, -par),
        ):
            row = totals[entrant]
            row["boards"] += 1
            row["matchpoints"] += mp
            row["top"] += line.top
            row["imps"] += diff
            row["tops"] += int(line.top > 0 and mp == line.top)
            row["par_imps"] += against
    with_par = bool(board_pars(state))
    teams = state.settings.movement == TEAM_MOVEMENT
    matches = tuple(team_matches(state)) if teams else None
    records = team_records(matches or ())
    empty = {"won": 0, "drawn": 0, "lost": 0, "points": 0}
    team = {e: dict(records.get(e, empty)) for e in entrants} if teams else None

    def team_points(entrant: str) -> int:
        return 0 if team is None else team[entrant]["points"]

    def key(entrant: str) -> tuple[Any, ...]:
        values = totals[entrant]
        return (
            -team_points(entrant),
            -values[scale],
            *(-values[name] for name in order if name != "lots"),
            lot(lots_seed, entrant),
        )

    def row_of(rank: int, entrant: str, field_name: str) -> DuplicateRow:
        v = totals[entrant]
        return DuplicateRow(
            rank,
            entrant,
            field_name,
            v["boards"],
            v["matchpoints"],
            v["top"],
            v["imps"],
            v["tops"],
            {tb: v[tb] for tb in order if tb != "lots"},
            None if team is None else team[entrant],
            v["par_imps"] if with_par else None,
        )

    if state.settings.stage_seated:
        # The platform's table (``GET .../duplicate``): one field, best first; equal
        # (team points and) totals share a place, listed by id; tie-break figures shown,
        # not used.
        ranked = sorted(entrants, key=lambda e: (-team_points(e), -totals[e][scale], e))
        shared: list[DuplicateRow] = []
        for index, entrant in enumerate(ranked):
            place = index + 1
            before = ranked[index - 1] if index else None
            if before is not None and (team_points(before), totals[before][scale]) == (
                team_points(entrant),
                totals[entrant][scale],
            ):
                place = shared[-1].rank
            shared.append(row_of(place, entrant, "all"))
        return DuplicateStandings(scale, (), tuple(shared), len(state.results), matches)
    fields: dict[str, list[str]] = {}
    for entrant in entrants:
        fields.setdefault(field_of(state.settings.movement, entrant, state), []).append(entrant)
    rows: list[DuplicateRow] = []
    for name in sorted(fields, key=lambda f: ("all", "north_south", "east_west").index(f)):
        for rank, entrant in enumerate(sorted(fields[name], key=key), start=1):
            rows.append(row_of(rank, entrant, name))
    return DuplicateStandings(scale, order, tuple(rows), len(state.results), matches)
