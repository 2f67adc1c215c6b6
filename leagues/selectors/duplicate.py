"""What anyone may see of a duplicate competition's boards: the round's board list, a
board's traveller, and the standings by matchpoints or IMPs (docs/leagues.md,
"Duplicate competitions").

Secrecy: a board's results, par and cards are shown only once every table of the round
has finished it *and* the round's boards are revealed (``BoardsRevealed``); before that a
board shows its number, dealer and commitment only, and its traveller is refused in
words. The standings add up revealed boards only. Everything is computed here from the
events with ``leagues.core.duplicate.board_scoring`` (no stored document to go stale).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from games.engine.cards import names_in
from games.engine.rules import rules_from_spec
from games.engine.seats import SEAT_NAMES
from games.services.errors import CommandRejected
from games.services.table_state import reading_state
from leagues.core.duplicate.board_scoring import score_board, traveller, would_rank
from leagues.core.duplicate.boards import dealer_of, derive_board
from leagues.core.duplicate.par import BoardPar, fraction_text
from leagues.core.duplicate.session import (
    BoardResult,
    DuplicateState,
    RoundBoard,
    duplicate_standings,
    group_of,
    stage_seating,
)
from leagues.core.duplicate.session import DuplicateRound as FileRound
from leagues.core.duplicate.session import DuplicateSettings as FileDuplicateSettings
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions.duplicate import (
    board_finished,
    board_shown,
    duplicate_round,
    require_duplicate,
    shown_board,
)
from leagues.domain.settings import DUPLICATE_SCALES
from leagues.domain.state import CompetitionState, DuplicateRound
from leagues.services.streams import load

from .players import usernames_of


def _par_of(found: DuplicateRound, board: int) -> dict[str, Any] | None:
    published = found.pars.get(board)
    if published is None or not found.board_revealed(board):
        return None
    plays = len(published["plays"])
    ns = Fraction(published["north_south_total"], plays)
    ew = Fraction(published["east_west_total"], plays)
    return {
        **published,
        "bot_version": found.par_versions.get(board),
        "north_south": fraction_text(ns),
        "east_west": fraction_text(ew),
        "net": fraction_text(ns - ew),
    }


def round_boards(competition_id: object, round_number: int) -> dict[str, Any]:
    """A round's boards: each one's commitment, and once revealed its seed, deck and par."""
    state = load(competition_id)
    found = duplicate_round(state, round_number)
    boards = []
    for board in found.boards:
        number = int(board["board"])
        shown = board_shown(found, state, number)
        boards.append(
            {
                **(found.revealed[number] if shown else board),
                "finished": board_finished(state, round_number, number),
                "revealed": shown,
                "par": _par_of(found, number) if shown else None,
                "hands": _hands(found, number) if shown else None,
            }
        )
    return {
        "round": round_number,
        "movement": found.movement,
        "round_commitment": found.round_commitment,
        "round_seed": found.round_seed,
        "boards": boards,
    }


def _hands(found: DuplicateRound, board: int) -> dict[str, list[str]]:
    """A revealed board's four hands face up, by seat, re-derived from its seed."""
    masks = derive_board(str(found.revealed[board]["seed"]), board).hands
    return {SEAT_NAMES[seat]: names_in(mask) for seat, mask in enumerate(masks)}


def board_traveller(competition_id: object, round_number: int, board: int) -> dict[str, Any]:
    """Board ``board``'s traveller: every table's bids, tricks and score, matchpoints and
    IMPs against the field, and par; a corrected line says by whom and why
    (``corrected``). Refused while any table may still play it."""
    state = load(competition_id)
    found = shown_board(state, round_number, board, what="its traveller is shown")
    answer = _traveller(found, board)
    organisers = [
        str(line["corrected"]["organiser"]) for line in answer["tables"] if line["corrected"]
    ]
    names = usernames_of(organisers) if organisers else {}
    for line in answer["tables"]:
        if line["corrected"]:
            by = str(line["corrected"]["organiser"])
            line["corrected"] = {**line["corrected"], "by": names.get(by, by)}
    return answer


def _traveller(found: DuplicateRound, board: int) -> dict[str, Any]:
    """Every table's line on ``board``, compared within its group (``session.group_of``:
    a teams-of-four round's team match, tables ``2m-1`` and ``2m``; otherwise the whole
    round), the same comparison the competition file's ``compared`` makes."""
    results = sorted((r for r in found.results if int(r["board"]) == board), key=_table)
    par = _par_of(found, board)
    par_net = None if par is None else found.par_net(board)
    groups: dict[int, list[Mapping[str, Any]]] = {}
    for r in results:
        groups.setdefault(group_of(found.movement, _table(r)), []).append(r)
    lines: dict[int, dict[str, Any]] = {}
    for group, members in groups.items():
        nets = [
            (_table(r), 0, 0, int(r["score"]["north_south"]) - int(r["score"]["east_west"]))
            for r in members
        ]
        for line in traveller(nets, par_net):
            lines[line.table] = {**line.as_dict(), "group": group}
    return {
        "round": found.number,
        "board": board,
        "par": par,
        "tables": [
            {
                **lines[_table(r)],
                "table_id": r["table_id"],
                "north_south": r["north_south"],
                "east_west": r["east_west"],
                "bids": r["bids"],
                "blind": r["blind"],
                "tricks": r["tricks"],
                "score": r["score"],
                # An organiser's correction of this line (BoardResultCorrected): which,
                # by whom, why; null for the result as the table played it.
                "corrected": r.get("corrected"),
            }
            for r in results
        ],
    }


def _table(result: Mapping[str, Any]) -> int:
    return int(result["table"])


def standings(competition_id: object, scale: str | None = None) -> dict[str, Any]:
    """The duplicate standings: each entrant's total on the competition's scale (or, a
    what-if, on ``scale``), over the boards that may be shown, best first; ties share a
    place. Both totals are given, so a what-if is the same answer sorted otherwise. A
    teams-of-four competition ranks first by team match points (``team``: matches won,
    drawn, lost, and their points) and lists its ``team_matches``.

    Computed by the competition file's own scorer on the export's view of the events
    (:func:`file_state`, ``session.duplicate_standings``), so ``manage.py standings`` on
    the export gives this very table."""
    state = load(competition_id)
    settings = require_duplicate(state)
    chosen = settings.scale if scale is None else scale
    if chosen not in DUPLICATE_SCALES:
        raise LeagueError(
            "invalid", f"scale is one of {', '.join(DUPLICATE_SCALES)}, not {chosen!r}."
        )
    as_file = file_state(state)
    assert as_file is not None
    entrants = list(state.entrants)
    entrants += sorted(
        {e for r in as_file.results for e in (r.north_south, r.east_west)} - set(entrants)
    )
    table = duplicate_standings(as_file, entrants, "", chosen)
    rows: list[dict[str, Any]] = []
    for row in table.rows:
        name = state.entrants[row.entrant].name if row.entrant in state.entrants else row.entrant
        entry = {
            "place": row.rank,
            "entrant": row.entrant,
            "name": name,
            "matchpoints": row.matchpoints,
            "imps": row.imps,
            "boards": row.boards,
        }
        if row.team is not None:
            entry["team"] = dict(row.team)
        rows.append(entry)
    answer: dict[str, Any] = {"scale": chosen, "official": chosen == settings.scale, "rows": rows}
    if table.team_matches is not None:
        answer["team_matches"] = [match.as_dict() for match in table.team_matches]
    return answer


def file_state(state: CompetitionState) -> DuplicateState | None:
    """A duplicate competition as the competition file holds it (``seating: "stages"``,
    docs/formats.md): each round's boards with their ``seed_hash`` (the events'
    ``commitment``), seeds and board results only of the boards that may be shown (the
    round revealed and the board finished everywhere); an open round, its commitments."""
    if state.settings is None or state.settings.duplicate is None:
        return None
    pinned = state.settings.duplicate
    rules_spec = dict(state.settings.rules.snapshot) or state.settings.rules.table_spec
    settings = FileDuplicateSettings(
        movement=pinned.movement,
        tables=0,
        rounds=0,
        boards_per_round=pinned.boards_per_round,
        scale=pinned.scale,
        rules=rules_from_spec(rules_spec),
        rules_spec=rules_spec,
        seating="stages",
    )
    rounds: list[FileRound] = []
    results: list[BoardResult] = []
    for number in sorted(state.duplicate):
        found = state.duplicate[number]
        paired = state.paired_round(number)
        matches = [] if paired is None else paired.pairing.matches
        shown = {n for n in found.board_numbers if board_shown(found, state, n)}
        boards = tuple(
            RoundBoard(
                int(board["board"]),
                dealer_of(int(board["board"])),
                str(board["commitment"]),
                str(found.revealed[int(board["board"])]["seed"])
                if int(board["board"]) in shown
                else None,
                _file_par(found, int(board["board"])) if int(board["board"]) in shown else None,
            )
            for board in found.boards
        )
        seating = stage_seating(
            [(m.board, m.north_south, m.east_west) for m in matches], len(found.boards)
        )
        rounds.append(
            FileRound(
                number,
                boards,
                tuple(seating),
                found.round_commitment,
                found.round_seed if found.is_revealed else None,
            )
        )
        for r in sorted(found.results, key=lambda r: (int(r["table"]), int(r["board"]))):
            if int(r["board"]) not in shown:
                continue
            results.append(
                BoardResult(
                    number,
                    int(r["table"]),
                    int(r["board"]),
                    str(r["north_south"]),
                    str(r["east_west"]),
                    _four(r["bids"], int),
                    _four(r["blind"], bool),
                    _four(r["tricks"], int),
                    int(r["score"]["north_south"]),
                    int(r["score"]["east_west"]),
                    corrected="corrected" in r,
                )
            )
    return DuplicateState(settings, tuple(rounds), tuple(results))


def _file_par(found: DuplicateRound, board: int) -> BoardPar | None:
    """A shown board's par as the file holds it (None: no par recorded yet)."""
    published = found.pars.get(board)
    if published is None:
        return None
    return BoardPar.from_published(published, found.par_versions.get(board, ""))


def _four(values: Any, kind: Any) -> Any:
    a, b, c, d = (kind(v) for v in values)
    return (a, b, c, d)


def redacted_event_data(stream_id: str, type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """A competition event's payload as the event admin may show it now: a board's par
    (``BoardParComputed``) says how the board plays, so before its board is revealed
    (alone or with its round) only its round and board are shown (``eventstore.redaction``)."""
    competition_id = ev.competition_id_of(stream_id)
    if competition_id is None or type_ != ev.BOARD_PAR_COMPUTED:
        return data
    try:
        found = load(competition_id).duplicate.get(int(data["round"]))
    except (LeagueError, KeyError, TypeError, ValueError):
        found = None
    board = data.get("par", {}).get("board") if isinstance(data.get("par"), dict) else None
    if found is not None and isinstance(board, int) and found.board_revealed(board):
        return data
    return {"round": data.get("round"), "board": board, "par": "hidden until revealed"}


#: The owner tag's kind of a board played again (``leagues.services.board_again``).
AGAIN_KIND = "board_again"


def board_again_result(
    competition_id: object, round_number: int, board: int, table_id: object
) -> dict[str, Any]:
    """Where a board played again (table ``table_id``) would have ranked among the round's
    tables on that board, from the seat its player took: ``{table_id, round, board, seat,
    finished, score?, rank?}``; ``rank`` from ``would_rank`` (matchpoints of
    ``2 * tables``, IMPs against the field's average and against par, the place).
    404 ``unknown_table`` for a table that is not this board played again."""
    state = load(competition_id)
    found = duplicate_round(state, round_number)
    if board not in found.board_numbers or not board_shown(found, state, board):
        raise LeagueError("unknown_board", f"Round {round_number} has no revealed board {board}.")
    try:
        with reading_state(table_id) as table:
            owner = table.owner or {}
            kinds = table.seat_kinds
            game = table.game
            hand = None if game is None or not game.hands else game.hands[0]
            over = game is not None and game.ledger.finished_after_hand is not None
    except CommandRejected:  # a malformed id or no such table: the same answer
        owner, kinds, hand, over = {}, (), None, False
    wanted = {"kind": AGAIN_KIND, "id": str(state.competition_id), "round": round_number}
    if any(owner.get(key) != value for key, value in wanted.items()) or owner.get("board") != board:
        raise LeagueError(
            "unknown_table", f"That table is not board {board} of round {round_number} again."
        )
    seat = next((SEAT_NAMES[i] for i, kind in enumerate(kinds) if kind != "bot"), "north")
    answer: dict[str, Any] = {
        "table_id": str(table_id),
        "round": round_number,
        "board": board,
        "seat": seat,
        "finished": bool(over and hand is not None),
    }
    if not answer["finished"]:
        return answer
    assert hand is not None and state.settings is not None
    rules = rules_from_spec(dict(state.settings.rules.snapshot))
    score = score_board(rules, hand.bids, hand.blind, hand.tricks_won)
    lines = _traveller(found, board)
    par = lines["par"]
    par_net = None
    if par is not None:
        par_net = Fraction(par["north_south_total"] - par["east_west_total"], len(par["plays"]))
    direction = "north_south" if seat in ("north", "south") else "east_west"
    field = [int(line["net"]) for line in lines["tables"]]
    answer["score"] = score.as_dict()
    answer["rank"] = would_rank(field, score.net, direction, par_net).as_dict()
    return answer
