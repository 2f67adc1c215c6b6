"""The competition as one CSV file, for spreadsheets: every record the JSON export holds.

One header row, then one row per record; the ``record`` column says which kind a row
is and the columns a kind does not use are empty.  In order: ``competition`` (its id,
name and the match-point table), ``entrant``, ``pairing`` (every match of every round,
with the id of its effective result, empty while it has none), ``bye``, ``award``
(late-join rounds), ``result`` (every result in history order: game points, match
points, flags, corrections) and ``standing`` (rank order, with one ``tb_<name>``
column per declared tie-break).  Flags are ``0``/``1``; the format is in
``docs/formats.md``.

Names beside ids: every entrant id has its entrant's name beside it (``name``,
``north_south_name``, ``east_west_name``) and every player id its username
(``player_1_username``...).  The file opens cleanly in a spreadsheet: UTF-8 with a byte
order mark (so accented names survive), and no text cell is read as a formula (see
:func:`spreadsheet_text`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from games.engine.seats import SEAT_NAMES

from .competition import Competition
from .duplicate.session import compared, duplicate_standings
from .results import effective_results
from .standings import Standings

COLUMNS = (
    "record",
    "round",
    "board",
    "match",
    "entrant",
    "name",
    "player_1",
    "player_1_username",
    "player_2",
    "player_2_username",
    "reserve",
    "reserve_username",
    "rating",
    "joined_round",
    "withdrawn_after_round",
    "north_south",
    "north_south_name",
    "east_west",
    "east_west_name",
    "ns_game_points",
    "ew_game_points",
    "ns_match_points",
    "ew_match_points",
    "winner",
    "forfeited_by",
    "no_show",
    "bot_substitute",
    "rated",
    "corrects",
    "result_id",
    "sequence",
    "rank",
    "match_points",
    "game_points",
    "game_points_against",
    "point_differential",
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "withdrawn",
)

#: Columns a duplicate competition's file adds after the others (docs/formats.md).
DUPLICATE_COLUMNS = (
    "movement",
    "tables",
    "boards_per_round",
    "scale",
    "table",
    "dealer",
    "seed_hash",
    "seed",
    "bid_north",
    "bid_east",
    "bid_south",
    "bid_west",
    "tricks_north",
    "tricks_east",
    "tricks_south",
    "tricks_west",
    "ns_score",
    "ew_score",
    "net",
    "ns_imps",
    "ew_imps",
    "field",
    "boards",
    "top",
    "percent",
    "imps",
    "tops",
    "seating",
)

Value = str | int | None
BYTE_ORDER_MARK = "\ufeff"
# What a spreadsheet reads as the start of a formula (or, tab and carriage return, as a
# cell it may trim into one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(value: Value) -> str:
    """A cell as written: a text that a spreadsheet would take for a formula gets a
    leading apostrophe (shown as text, never evaluated); numbers are written as they
    are, so ``-40`` in a points column stays a number."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _flag(value: bool) -> int:
    return int(value)


def rows(
    competition: Competition,
    standings: Standings,
    usernames: Mapping[str, str] | None = None,
) -> Iterable[dict[str, Value]]:
    """The records as column -> value (columns a record does not use are left out);
    ``usernames`` maps player ids to usernames (a player without one gets none)."""
    settings = competition.settings
    points = settings.match_points
    names = {e.id: e.name for e in competition.entrants}
    known = usernames or {}

    def username(player: str | None) -> str | None:
        return None if player is None else known.get(player)

    yield {
        "record": "competition",
        "entrant": settings.id,
        "name": settings.name,
        "match_points": (
            f"win={points.win};draw={points.draw};loss={points.loss};bye={points.bye};"
            f"late_join={points.late_join};forfeit_loss={points.forfeit_loss}"
        ),
    }
    for e in competition.entrants:
        yield {
            "record": "entrant",
            "entrant": e.id,
            "name": e.name,
            "player_1": e.players[0],
            "player_1_username": username(e.players[0]),
            "player_2": e.players[1],
            "player_2_username": username(e.players[1]),
            "reserve": e.reserve,
            "reserve_username": username(e.reserve),
            "rating": e.rating,
            "joined_round": e.joined_round,
            "withdrawn_after_round": e.withdrawn_after_round,
        }
    current = {(r.round, r.board): r.id for r in effective_results(competition.results)}
    for paired in competition.rounds:
        for p in paired.pairing.matches:
            yield {
                "record": "pairing",
                "round": paired.number,
                "board": p.board,
                "match": p.match,
                "north_south": p.north_south,
                "north_south_name": names.get(p.north_south),
                "east_west": p.east_west,
                "east_west_name": names.get(p.east_west),
                "result_id": current.get((paired.number, p.board), ""),
            }
    for award in competition.awards:
        yield {
            "record": "bye" if award.kind == "bye" else "award",
            "round": award.round,
            "entrant": award.entrant,
            "name": names.get(award.entrant),
            "match_points": points.award(award.kind),
        }
    for r in competition.results:
        ns_mp, ew_mp = r.match_points(points)
        yield {
            "record": "result",
            "round": r.round,
            "board": r.board,
            "north_south": r.north_south,
            "north_south_name": names.get(r.north_south),
            "east_west": r.east_west,
            "east_west_name": names.get(r.east_west),
            "ns_game_points": r.north_south_points,
            "ew_game_points": r.east_west_points,
            "ns_match_points": ns_mp,
            "ew_match_points": ew_mp,
            "winner": r.winner,
            "forfeited_by": r.forfeited_by,
            "no_show": _flag(r.no_show),
            "bot_substitute": _flag(r.bot_substitute),
            "rated": _flag(r.rated),
            "corrects": r.corrects,
            "result_id": r.id,
            "sequence": r.sequence,
        }
    if competition.duplicate is not None:
        yield from _duplicate_rows(competition, names)
        return
    for row in standings.rows:
        yield {
            "record": "standing",
            "rank": row.rank,
            "entrant": row.entrant,
            "name": names.get(row.entrant),
            "match_points": row.match_points,
            "game_points": row.game_points,
            "game_points_against": row.game_points_against,
            "point_differential": row.point_differential,
            "played": row.played,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
            "byes": row.byes,
            "withdrawn": _flag(row.withdrawn),
            **{f"tb_{name}": value for name, value in row.tiebreaks.items()},
        }


def _duplicate_rows(
    competition: Competition, names: Mapping[str, str]
) -> Iterable[dict[str, Value]]:
    """A duplicate competition's records: its settings, each round's boards and seating,
    every board result with its matchpoints and IMPs, and the duplicate standings."""
    state = competition.duplicate
    assert state is not None
    settings = state.settings
    yield {
        "record": "duplicate",
        "movement": settings.movement,
        # Stage-seated: the stages pin the rounds and the pairings the tables.
        "tables": None if settings.stage_seated else settings.tables,
        "round": None if settings.stage_seated else settings.rounds,
        "seating": settings.seating,
        "boards_per_round": settings.boards_per_round,
        "scale": settings.scale,
    }
    for dup_round in state.rounds:
        for board in dup_round.boards:
            yield {
                "record": "board",
                "round": dup_round.number,
                "board": board.board,
                "dealer": SEAT_NAMES[board.dealer],
                "seed_hash": board.seed_hash,
                "seed": board.seed,
            }
        for seat in dup_round.seating:
            yield {
                "record": "seating",
                "round": dup_round.number,
                "table": seat.table,
                "board": seat.board,
                "north_south": seat.north_south,
                "north_south_name": names.get(seat.north_south),
                "east_west": seat.east_west,
                "east_west_name": names.get(seat.east_west),
            }
    for line in compared(state):
        r = line.result
        yield {
            "record": "board_result",
            "round": r.round,
            "table": r.table,
            "board": r.board,
            "north_south": r.north_south,
            "north_south_name": names.get(r.north_south),
            "east_west": r.east_west,
            "east_west_name": names.get(r.east_west),
            **{f"bid_{seat}": bid for seat, bid in r.bids_dict().items()},
            **{f"tricks_{seat}": n for seat, n in zip(SEAT_NAMES, r.tricks, strict=True)},
            "ns_score": r.score_ns,
            "ew_score": r.score_ew,
            "net": r.net,
            "ns_match_points": line.matchpoints_ns,
            "ew_match_points": line.matchpoints_ew,
            "ns_imps": line.imps_ns,
            "ew_imps": -line.imps_ns,
        }
    table = duplicate_standings(
        state, [e.id for e in competition.entrants], competition.settings.lots_seed
    )
    for row in table.rows:
        yield {
            "record": "standing",
            "rank": row.rank,
            "entrant": row.entrant,
            "name": names.get(row.entrant),
            "field": row.field,
            "boards": row.boards,
            "match_points": row.matchpoints,
            "top": row.top,
            "percent": f"{float(row.percent):.2f}",
            "imps": row.imps,
            "tops": row.tops,
            # Teams of four: the team matches the partnership's side won, drew, lost.
            "wins": None if row.team is None else row.team["won"],
            "draws": None if row.team is None else row.team["drawn"],
            "losses": None if row.team is None else row.team["lost"],
        }


def competition_csv(
    competition: Competition,
    standings: Standings,
    usernames: Mapping[str, str] | None = None,
) -> str:
    """The CSV text: a byte order mark, the header, then the records (``tb_*`` columns
    follow the standings' tie-breaks; cells as :func:`spreadsheet_text` writes them)."""
    if competition.duplicate is not None:
        header = [*COLUMNS, *DUPLICATE_COLUMNS]
    else:
        header = [*COLUMNS, *(f"tb_{name}" for name in standings.tiebreaks if name != "lots")]
    out = io.StringIO()
    out.write(BYTE_ORDER_MARK)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for record in rows(competition, standings, usernames):
        writer.writerow([spreadsheet_text(record.get(c)) for c in header])
    return out.getvalue()
