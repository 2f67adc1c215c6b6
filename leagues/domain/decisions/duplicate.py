"""A duplicate round's boards: committed when it starts, each table's boards recorded when
every table is done, revealed then, and each board's par (docs/leagues.md, "Duplicate
competitions").

The platform seats a duplicate round as its pairing says: the round's match ``t`` (in
board order) is table ``t``, its North-South entrant North-South for every board. The
movement decides how the tables are grouped and what a board is compared with:
``teams_of_four`` groups tables ``2m-1`` and ``2m`` into team match ``m`` (so it needs an
even number of tables, as ``leagues.core.duplicate.movements.teams_of_four`` says), and
each table's match result is its team match's (:func:`team_result`); the Mitchells
compare every table of the round. Every table deals every board of the round,
in order (the barometer style of ``movements``), from the round's secret seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from eventstore.records import NewEvent
from games.engine.rules import Rules
from leagues.core.duplicate.board_scoring import score_board, team_match
from leagues.core.duplicate.boards import (
    Board,
    board_seed,
    derive_board,
    derive_boards,
    round_commitment,
)
from leagues.core.duplicate.movements import movement
from leagues.core.duplicate.par import Par
from leagues.core.duplicate.session import group_of
from leagues.core.duplicate.skill import PlayersOnBoard
from leagues.core.errors import LeagueError
from scoring.core.scoresheet import ScoresheetError, read_hand

from .. import events as ev
from .. import parsing as p
from ..pools import SITE_POOL, pools_fed
from ..state import CompetitionState, DuplicateRound
from .guards import require
from .results import people_of

Actor = Mapping[str, Any]


def require_duplicate(state: CompetitionState) -> Any:
    """The competition's duplicate settings, or a refusal in words."""
    settings = require(state)
    if settings.duplicate is None:
        raise LeagueError("not_duplicate", "This competition is not a duplicate competition.")
    return settings.duplicate


def duplicate_round(state: CompetitionState, number: int) -> DuplicateRound:
    """Round ``number``'s boards, or a refusal in words."""
    require_duplicate(state)
    found = state.duplicate.get(number)
    if found is None:
        raise LeagueError("unknown_round", f"Round {number} has no boards (not started yet).")
    return found


def round_boards(state: CompetitionState, round_seed: str) -> tuple[Board, ...]:
    """The boards a round seed gives under the competition's settings."""
    return derive_boards(round_seed, require_duplicate(state).boards_per_round)


def decide_boards_committed(
    state: CompetitionState, *, round_number: int, round_seed: str, tables: int, actor: Actor
) -> list[NewEvent]:
    """``BoardsCommitted`` for a round about to start with ``tables`` tables (the movement
    checked against them first: a refusal records nothing)."""
    settings = require_duplicate(state)
    movement(settings.movement)(tables, settings.boards_per_round)  # refuses a bad count
    if round_number in state.duplicate:
        raise LeagueError("round_started", f"Round {round_number}'s boards are committed already.")
    boards = round_boards(state, round_seed)
    return [
        ev.boards_committed(
            round_number=round_number,
            round_commitment=round_commitment(round_seed),
            boards=[board.public_dict() for board in boards],
            movement=settings.movement,
            actor=actor,
        )
    ]


def decide_board_results(
    state: CompetitionState,
    *,
    round_number: int,
    table: int,
    table_id: str,
    rules: Rules,
    boards: Sequence[Mapping[str, Any]],
    actor: Actor,
) -> list[NewEvent]:
    """One ``BoardResultRecorded`` per board a table played (``boards``: per hand, the
    bids, blind flags and tricks by seat, North first), each scored on its own."""
    found = duplicate_round(state, round_number)
    paired = state.paired_round(round_number)
    match = next((m for m in paired.pairing.matches if m.board == table), None) if paired else None
    if match is None:
        raise LeagueError("unknown_board", f"Round {round_number} has no table {table}.")
    if len(boards) != len(found.boards):
        raise LeagueError(
            "boards_unfinished",
            f"Table {table} played {len(boards)} of the round's {len(found.boards)} boards.",
        )
    out = []
    for number, played in enumerate(boards, start=1):
        out += _board_result(
            found, round_number, number, table, table_id, match, rules, played, actor
        )
    return out


def decide_board_result(
    state: CompetitionState,
    *,
    round_number: int,
    board: int,
    table: int,
    table_id: str,
    rules: Rules,
    played: Mapping[str, Any],
    actor: Actor,
) -> list[NewEvent]:
    """``BoardResultRecorded`` for one board a table has finished (``played``: its bids,
    blind flags and tricks by seat, North first), as soon as that hand is scored there;
    nothing if that table's board is recorded already."""
    found = duplicate_round(state, round_number)
    paired = state.paired_round(round_number)
    match = next((m for m in paired.pairing.matches if m.board == table), None) if paired else None
    if match is None:
        raise LeagueError("unknown_board", f"Round {round_number} has no table {table}.")
    if board not in found.board_numbers:
        raise LeagueError("unknown_board", f"Round {round_number} has no board {board}.")
    return _board_result(found, round_number, board, table, table_id, match, rules, played, actor)


def _board_result(
    found: DuplicateRound,
    round_number: int,
    number: int,
    table: int,
    table_id: str,
    match: Any,
    rules: Rules,
    played: Mapping[str, Any],
    actor: Actor,
) -> list[NewEvent]:
    if any(int(r["table"]) == table and int(r["board"]) == number for r in found.results):
        return []
    score = score_board(rules, played["bids"], played["blind"], played["tricks"])
    return [
        ev.board_result_recorded(
            round_number=round_number,
            board=number,
            table=table,
            table_id=table_id,
            north_south=match.north_south,
            east_west=match.east_west,
            bids=played["bids"],
            blind=played["blind"],
            tricks=played["tricks"],
            score={
                "north_south": score.north_south.points,
                "east_west": score.east_west.points,
            },
            actor=actor,
        )
    ]


def team_result(
    state: CompetitionState, round_number: int, table: int
) -> tuple[dict[str, int], str | None] | None:
    """A teams-of-four table's match result: its team match's (tables ``2m-1``, the open
    room, and ``2m``, the closed room; ``session.team_matches``), seen from the table.

    Team A is the open room's North-South and the closed room's East-West partnership,
    so every table seats one partnership of each team: the table's ``points`` are the
    IMPs of the team its North-South partnership belongs to and of the other
    (``board_scoring.team_match``: each board's open-room net minus the closed room's,
    converted by the IMP table), and its ``winner`` the side whose team has more (equal:
    a draw). None for another movement, or before both rooms have every board recorded.
    """
    settings = require_duplicate(state)
    found = state.duplicate.get(round_number)
    if settings.movement != "teams_of_four" or found is None:
        return None
    match = group_of(settings.movement, table)
    open_room, closed_room = 2 * match - 1, 2 * match
    nets = {
        (int(r["table"]), int(r["board"])): int(r["score"]["north_south"])
        - int(r["score"]["east_west"])
        for r in found.results
    }
    rooms = [((open_room, b), (closed_room, b)) for b in found.board_numbers]
    if not all(o in nets and c in nets for o, c in rooms):
        return None
    score = team_match([(nets[o], nets[c]) for o, c in rooms])
    ns, ew = (score.team_a, score.team_b) if table == open_room else (score.team_b, score.team_a)
    winner = None if ns == ew else "north_south" if ns > ew else "east_west"
    return {"north_south": ns, "east_west": ew}, winner


def decide_reveal(
    state: CompetitionState, *, round_number: int, round_seed: str, actor: Actor
) -> list[NewEvent]:
    """``BoardsRevealed`` once every table of the round has recorded every board (nothing
    while one is still playing; nothing twice)."""
    found = duplicate_round(state, round_number)
    if found.is_revealed or not round_finished(state, round_number):
        return []
    if round_commitment(round_seed) != found.round_commitment:
        raise LeagueError("seed_mismatch", "The kept round seed does not match its commitment.")
    boards = round_boards(state, round_seed)
    return [
        ev.boards_revealed(
            round_number=round_number,
            round_seed=round_seed,
            boards=[board.revealed_dict() for board in boards],
            actor=actor,
        )
    ]


def decide_board_reveal(
    state: CompetitionState, *, round_number: int, board: int, round_seed: str, actor: Actor
) -> list[NewEvent]:
    """``BoardRevealed`` for board ``board`` once every table of the round has recorded
    it (nothing while a table may still play it; nothing once it is out, alone or with
    its round). Only that board's seed and deck: the round seed and the other boards'
    stay secret (a board seed is a one-way hash of the round seed, ``boards.py``)."""
    found = duplicate_round(state, round_number)
    if board not in found.board_numbers:
        raise LeagueError("unknown_board", f"Round {round_number} has no board {board}.")
    if found.board_revealed(board) or not board_finished(state, round_number, board):
        return []
    if round_commitment(round_seed) != found.round_commitment:
        raise LeagueError("seed_mismatch", "The kept round seed does not match its commitment.")
    derived = derive_board(board_seed(round_seed, board), board)
    committed = next(b for b in found.boards if int(b["board"]) == board)
    if derived.commitment != committed["commitment"]:
        raise LeagueError("seed_mismatch", f"Board {board}'s seed does not match its commitment.")
    return [
        ev.board_revealed(round_number=round_number, board=derived.revealed_dict(), actor=actor)
    ]


def round_finished(state: CompetitionState, round_number: int) -> bool:
    """Whether every table of the round has a result on every board."""
    found = state.duplicate.get(round_number)
    if found is None:
        return False
    tables = set(state.tables.get(round_number, {}))
    played = {(int(r["table"]), int(r["board"])) for r in found.results}
    return bool(tables) and all((t, b) in played for t in tables for b in found.board_numbers)


def board_finished(state: CompetitionState, round_number: int, board: int) -> bool:
    """Whether every table of the round has played ``board``."""
    found = state.duplicate.get(round_number)
    if found is None:
        return False
    tables = set(state.tables.get(round_number, {}))
    played = {int(r["table"]) for r in found.results if int(r["board"]) == board}
    return bool(tables) and tables <= played


def board_shown(found: DuplicateRound, state: CompetitionState, board: int) -> bool:
    """Whether a board's results may be shown: finished everywhere and revealed (alone,
    ``BoardRevealed``, or with its round, ``BoardsRevealed``)."""
    return found.board_revealed(board) and board_finished(state, found.number, board)


def shown_board(
    state: CompetitionState, round_number: int, board: int, *, what: str
) -> DuplicateRound:
    """The round of a board that may be shown, or a refusal in words: no such board
    (``unknown_board``), or one some table may still play (``board_open``: ``what`` is
    what waits for it, e.g. "its traveller is shown")."""
    found = duplicate_round(state, round_number)
    if board not in found.board_numbers:
        raise LeagueError("unknown_board", f"Round {round_number} has no board {board}.")
    if not board_shown(found, state, board):
        raise LeagueError(
            "board_open",
            f"Board {board} of round {round_number} is still being played at some table: "
            f"{what} once every table has finished it and it is revealed.",
        )
    return found


def skill_boards(
    state: CompetitionState, round_number: int
) -> list[tuple[int, list[PlayersOnBoard], Fraction | None]]:
    """What the duplicate skill rating learns from a round: per board (in order), every
    table whose play is consented as the site ratings pool takes it (``pools_fed``: the
    table's match result played by the entrants' own players, no bot substitute, no bot
    competition), each partnership as its players that round, and the board's par net.
    Nothing until the round is closed and its boards revealed (an open round teaches
    nothing)."""
    found = state.duplicate.get(round_number)
    settings = state.settings
    if found is None or settings is None or not found.is_revealed:
        return []
    if round_number not in state.closed:
        return []
    consented = {
        result.board
        for result in state.results
        if result.round == round_number
        and result.corrects is None
        and SITE_POOL in pools_fed(settings, result)
    }
    boards = []
    for board in found.board_numbers:
        tables = [
            PlayersOnBoard(
                state.players_in(str(r["north_south"]), round_number),
                state.players_in(str(r["east_west"]), round_number),
                int(r["score"]["north_south"]) - int(r["score"]["east_west"]),
            )
            for r in sorted(found.results, key=lambda r: int(r["table"]))
            if int(r["board"]) == board and int(r["table"]) in consented
        ]
        if tables:
            boards.append((board, tables, found.par_net(board)))
    return boards


def decide_par(
    state: CompetitionState, *, round_number: int, par: Par, bot_version: str, actor: Actor
) -> list[NewEvent]:
    """``BoardParComputed`` for a board of the round (nothing if it has one already)."""
    found = duplicate_round(state, round_number)
    if par.board not in found.board_numbers:
        raise LeagueError("unknown_board", f"Round {round_number} has no board {par.board}.")
    if par.board in found.pars:
        return []
    return [
        ev.board_par_computed(
            round_number=round_number, par=par.as_dict(), bot_version=bot_version, actor=actor
        )
    ]


# ---------------------------------------------------------------- board corrections

BOARD_CORRECTION_FIELDS = ("table", "bids", "tricks", "reason")
#: A round has a table per match: at most half the entrants a competition takes.
MAX_TABLE = 10_000


@dataclass(frozen=True, slots=True)
class BoardCorrectionRequest:
    """An organiser's correction of one table's result on one board: the table (its
    match's number in the round), the four ``bids`` and ``tricks`` by seat as a
    scoresheet hand writes them (``{"north": 4, "east": "nil", ...}``, docs/formats.md),
    and the ``reason`` (required, 1 to 500 characters). The bids and tricks are checked
    under the competition's rules by :func:`decide_board_correction`."""

    table: int
    bids: Mapping[str, Any]
    tricks: Mapping[str, Any]
    reason: str

    @classmethod
    def parse(cls, body: object) -> BoardCorrectionRequest:
        fields = p.body_of(body)
        p.known_fields(fields, BOARD_CORRECTION_FIELDS)
        return cls(
            table=p.whole(p.required(fields, "table"), "table", 1, MAX_TABLE),
            bids=p.body_of(p.required(fields, "bids"), "bids"),
            tricks=p.body_of(p.required(fields, "tricks"), "tricks"),
            reason=p.text(p.required(fields, "reason"), "reason", p.MAX_REASON, empty=False),
        )


def decide_board_correction(
    state: CompetitionState,
    *,
    round_number: int,
    board: int,
    request: BoardCorrectionRequest,
    rules: Rules,
    organiser: int,
    actor: Actor,
) -> list[NewEvent]:
    """``BoardResultCorrected``: the table's result on the board as the organiser rules it,
    re-scored on its own under the pinned ``rules`` (the recorded result stays in the
    stream). Only a board whose results are shown (recorded at every table and revealed:
    ``board_open`` before, nothing to correct), a table that played it (``unknown_table``),
    bids and tricks a board may have (``invalid``, in words: four seats, bids 0 to 13 or
    nil/blind nil as the rules allow from 0 to 0, tricks adding up to 13), and a change
    (``no_change``)."""
    found = shown_board(state, round_number, board, what="its results may be corrected")
    recorded = next(
        (r for r in found.results if int(r["board"]) == board and int(r["table"]) == request.table),
        None,
    )
    if recorded is None:
        raise LeagueError(
            "unknown_table", f"Round {round_number} has no table {request.table} on board {board}."
        )
    try:
        hand = read_hand(rules, board, {"bids": request.bids, "tricks": request.tricks}, (0, 0))
    except ScoresheetError as error:
        message = str(error).replace(f"Hand {board}: ", "", 1)
        raise LeagueError("invalid", f"Board {board}, table {request.table}: {message}") from None
    if (list(hand.bids), list(hand.blind), list(hand.tricks)) == (
        list(recorded["bids"]),
        list(recorded["blind"]),
        list(recorded["tricks"]),
    ):
        raise LeagueError(
            "no_change",
            f"Table {request.table}'s result on board {board} already has those bids and tricks.",
        )
    score = score_board(rules, hand.bids, hand.blind, hand.tricks)
    paired = state.paired_round(round_number)
    matches = [] if paired is None else paired.pairing.matches
    match = next((m for m in matches if m.board == request.table), None)
    # Whom the reason may name: the two entrants' people (erasable by each of them).
    people = [] if match is None else people_of(state, match)
    corrections = sum(r.corrections for r in state.duplicate.values())
    return [
        ev.board_result_corrected(
            recorded=recorded,
            bids=hand.bids,
            blind=hand.blind,
            tricks=hand.tricks,
            score={"north_south": score.north_south.points, "east_west": score.east_west.points},
            correction=corrections + 1,
            organiser=organiser,
            reason=ev.typed(request.reason, ev.typist(actor), people),
            actor=actor,
        )
    ]
