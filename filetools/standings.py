"""``standings FILE [--tiebreaks a,b] [--format json|table]``: a competition file's
standings (docs/formats.md, "Competition files")."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from collections.abc import Mapping
from typing import Any, TextIO

from leagues.core.competition import Competition
from leagues.core.duplicate.session import (
    SCALES,
    DuplicateStandings,
    duplicate_standings,
    travellers,
)
from leagues.core.errors import LeagueError
from leagues.core.standings import Standings

from .competition_input import read_competition_file
from .errors import ToolError
from .tool import FileTool


def add_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="competition file (the JSON export)")
    parser.add_argument("--tiebreaks", help="comma-separated tie-break order")
    parser.add_argument("--format", choices=("json", "table"), default="table")
    parser.add_argument(
        "--scale",
        choices=SCALES,
        help="a duplicate competition's scale (default: the one the file pins): what-if",
    )


def run(options: Mapping[str, Any], stdin: TextIO, width: int | None) -> str:
    competition = read_competition_file(options["file"])
    tiebreaks = None
    if options.get("tiebreaks") is not None:
        tiebreaks = [t for t in options["tiebreaks"].split(",") if t]
    if competition.duplicate is not None:
        return duplicate_text(competition, options, tiebreaks)
    if options.get("scale") is not None:
        raise ToolError("--scale: only a duplicate competition has a scale.")
    try:
        standings = competition.standings(tiebreaks)
    except LeagueError as error:
        raise ToolError(f"--tiebreaks: {error.message}") from None
    if options["format"] == "json":
        return json.dumps(standings.as_dict(), indent=2) + "\n"
    return table_text(standings)


def table_text(standings: Standings) -> str:
    # A column per declared tie-break, so the table shows why tied entrants are ordered as
    # they are; lots (always last) has no value to show.
    shown = [name for name in standings.tiebreaks if name != "lots"]
    width = {name: max(len(name), 6) for name in shown}
    lines = [
        f"{'#':>3}  {'entrant':<24} {'MP':>4} {'GP':>7} {'diff':>7}"
        + "".join(f" {name:>{width[name]}}" for name in shown)
    ]
    for row in standings.rows:
        values = {name: row.tiebreaks.get(name) for name in shown}
        lines.append(
            f"{row.rank:>3}  {row.entrant:<24} {row.match_points:>4} {row.game_points:>7} "
            f"{row.point_differential:>7}"
            + "".join(
                f" {'-' if values[name] is None else values[name]:>{width[name]}}" for name in shown
            )
            + ("  (withdrawn)" if row.withdrawn else "")
        )
    return "".join(f"{line}\n" for line in lines)


def duplicate_text(
    competition: Competition, options: Mapping[str, Any], tiebreaks: list[str] | None
) -> str:
    """A duplicate competition's standings (and, as JSON, every board's traveller)."""
    state = competition.duplicate
    assert state is not None
    try:
        standings = duplicate_standings(
            state,
            [e.id for e in competition.entrants],
            competition.settings.lots_seed,
            options.get("scale"),
            tiebreaks,
        )
    except LeagueError as error:
        raise ToolError(f"--tiebreaks: {error.message}") from None
    if options["format"] == "json":
        document = {**standings.as_dict(), "travellers": travellers(state)}
        return json.dumps(document, indent=2) + "\n"
    return duplicate_table_text(standings)


def duplicate_table_text(standings: DuplicateStandings) -> str:
    """Every figure a tie-break reads is a column (matchpoints, IMPs, tops); in teams of
    four the team matches won, drawn and lost and their points come first; with a file
    that carries par, the IMPs against par too (``par``: shown, never ranked by)."""
    teams = standings.team_matches is not None
    with_par = any(row.par_imps is not None for row in standings.rows)
    head = f"{'won':>3} {'drawn':>5} {'lost':>4} {'pts':>3}  " if teams else ""
    lines = [
        f"{'#':>3}  {'entrant':<24} {head}{'field':<11} {'boards':>6} {'MP':>5} {'%':>6} "
        f"{'IMPs':>5} {'tops':>4}" + (f" {'par':>5}" if with_par else "")
    ]
    for row in standings.rows:
        team = row.team or {}
        figures = (
            f"{team.get('won', 0):>3} {team.get('drawn', 0):>5} {team.get('lost', 0):>4} "
            f"{team.get('points', 0):>3}  "
            if teams
            else ""
        )
        lines.append(
            f"{row.rank:>3}  {row.entrant:<24} {figures}{row.field:<11} {row.boards:>6} "
            f"{row.matchpoints:>5} {float(row.percent):>6.2f} {row.imps:>5} {row.tops:>4}"
            + (f" {row.par_imps if row.par_imps is not None else '-':>5}" if with_par else "")
        )
    return "".join(f"{line}\n" for line in lines)


TOOL = FileTool(
    name="standings",
    help="Standings of a competition file (the export format), without the database.",
    add_arguments=add_arguments,
    run=run,
)
