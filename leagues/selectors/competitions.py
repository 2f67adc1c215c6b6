"""Competition reads; nothing here writes (what-if included)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.db.models import F

from eventstore.reading import stream_versions
from games.engine.rules import RulesError
from leagues.core.competition_csv import competition_csv
from leagues.core.competition_file import competition_document
from leagues.core.errors import LeagueError
from leagues.core.results import effective_results
from leagues.core.tiebreaks import check_tiebreaks
from leagues.core.whatif import compare, not_comparable_summary
from leagues.domain import schedule
from leagues.domain.events import competition_stream_id
from leagues.domain.pools import SITE_POOL
from leagues.domain.state import CompetitionState
from leagues.models import Competition, OfficialStandings, PlayerRating
from leagues.projections import standings_document
from leagues.services.results import outcome
from leagues.services.streams import load, parse_id
from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from scoring.services.presets import resolve, rules_from_mapping
from scoring.services.rescoring import MAX_TABLES, rescore

from .players import usernames_of

STATUSES = ("registration", "running", "finished")
MAX_LISTED = 100
MAX_OFFSET = 100_000
# The most recently changed unfinished competitions a player's next matches are looked for in.
MAX_NEXT_MATCHES = 20


def state_of(competition_id: object) -> CompetitionState:
    state = load(competition_id)
    if not state.exists:
        raise LeagueError("unknown_competition", "There is no such competition.")
    return state


def list_competitions(
    *, status: str | None = None, limit: int = 50, offset: int = 0
) -> dict[str, Any]:
    """One page of competitions, newest first (the read model written with the events)."""
    if status is not None and status not in STATUSES:
        raise LeagueError("invalid", f"status is one of {', '.join(STATUSES)}.")
    if not 1 <= limit <= MAX_LISTED:
        raise LeagueError("invalid", f"limit is a whole number from 1 to {MAX_LISTED}.")
    if not 0 <= offset <= MAX_OFFSET:
        raise LeagueError("invalid", f"offset is a whole number from 0 to {MAX_OFFSET}.")
    rows = Competition.objects.order_by("-created_at", "id")
    if status is not None:
        rows = rows.filter(status=status)
    page = list(rows[offset : offset + limit + 1])
    return {
        "competitions": [
            {
                "id": str(row.id),
                "name": row.name,
                "kind": row.kind,
                "league_id": str(row.league_id) if row.league_id else None,
                "season": row.season,
                "division": row.division,
                "status": row.status,
                "version": row.version,
                "created_at": row.created_at.isoformat(),
                "updated_at": row.updated_at.isoformat(),
            }
            for row in page[:limit]
        ],
        "next_offset": offset + limit if len(page) > limit else None,
    }


def overview(competition_id: object) -> dict[str, Any]:
    state = state_of(competition_id)
    assert state.settings is not None
    invited = [i.entrant for i in state.invitations.values()]
    named = [*state.entrants.values(), *invited]
    player_ids = [p for e in named for p in (*e.players, e.reserve)]
    player_ids += [into for subs in state.substitutions.values() for _, _, into in subs]
    next_round = state.last_round + 1
    checked_in = state.checked_in.get(next_round, set())
    return {
        "id": state.competition_id,
        "version": state.version,
        "settings": state.settings.as_payload(),
        "next_round": next_round,
        "entrants": [
            {
                "id": e.id,
                "name": e.name,
                # entered: paired and ranked; invited: waiting for its players to accept.
                "status": "invited" if e.id in state.invitations else "entered",
                "awaiting": state.awaiting(e.id),
                "players": list(e.players),
                "reserve": e.reserve,
                "joined_round": e.joined_round,
                "withdrawn_after_round": e.withdrawn_after_round,
                # Who plays the next round (substitutions applied), and its check-in.
                "playing": list(
                    state.players_in(e.id, next_round) if e.id in state.entrants else e.players
                ),
                "checked_in": e.id in checked_in,
            }
            for e in named
        ],
        "proposals": [
            {"id": p.id, "player": p.player, "partner": p.partner} for p in state.proposals.values()
        ],
        "players": usernames_of(player_ids),
        "rounds": state.last_round,
        "stage": state.stage,
        "finished": state.finished,
    }


def pairings(competition_id: object) -> list[dict[str, Any]]:
    state = state_of(competition_id)
    by_board = {(r.round, r.board): r for r in effective_results(state.results)}
    rounds = []
    for paired in state.rounds:
        tables = state.tables.get(paired.number, {})
        rounds.append(
            {
                "round": paired.number,
                "stage": paired.stage + 1,
                "commitment": paired.commitment,
                "seed": paired.seed,
                "started": paired.number in state.started,
                "closed": paired.number in state.closed,
                **_schedule_of(state, paired.number),
                "byes": list(paired.pairing.byes),
                "matches": [
                    {
                        **p.as_dict(),
                        "table_id": tables.get(p.board),
                        "result": _result(state, by_board.get((paired.number, p.board))),
                        "arrived": arrivals(state, paired.number).get(p.board, []),
                        "no_show": state.no_show_of(paired.number, p.board),
                    }
                    for p in paired.pairing.matches
                ],
            }
        )
    return rounds


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat()


def _schedule_of(state: CompetitionState, number: int) -> dict[str, Any]:
    return {
        "starts_at": _iso(schedule.round_start(state, number)),
        "opened_at": state.opened_at.get(number),
        "grace_ends_at": _iso(schedule.grace_deadline(state, number)),
    }


def arrivals(state: CompetitionState, number: int) -> dict[int, list[str]]:
    """Board -> the seats whose players have arrived at the table, in seat order."""
    out: dict[int, list[str]] = {}
    for board, here in state.arrived.get(number, {}).items():
        seating = state.seating(number, board)
        out[board] = [seat for seat, player in seating.items() if player in here]
    return out


def _result(state: CompetitionState, result: Any) -> dict[str, Any] | None:
    if result is None:
        return None
    info = state.result_info[result.id]
    return {
        "id": result.id,
        "points": {"north_south": result.north_south_points, "east_west": result.east_west_points},
        "winner": result.winner,
        "forfeited_by": result.forfeited_by,
        "no_show": result.no_show,
        "bot_substitute": result.bot_substitute,
        "corrects": result.corrects,
        # Where the result came from (table, scoresheet, organiser, forfeit, correction)
        # and the organiser's reason for a correction or forfeit.
        "source": info.source,
        "reason": info.reason,
        # Whether it counts for the site ratings, and who confirmed a typed-in one (side
        # -> player): it counts once a player of each side has.
        "rated": result.rated,
        "confirmed_by": state.confirmations.get(result.id, {}),
    }


def confirmations(state: CompetitionState, result_id: str) -> dict[str, Any]:
    """A result's confirmations (side -> player) and whether it counts for the ratings."""
    result = state.result_of(result_id)
    return {
        "result_id": result_id,
        "confirmed_by": state.confirmations.get(result_id, {}),
        "rated": bool(result and result.rated),
    }


def official_standings(competition_id: object) -> dict[str, Any]:
    """The projection's document; computed from the stream while the projector catches up."""
    cid = parse_id(competition_id)
    row = OfficialStandings.objects.filter(competition_id=cid).first()
    state = state_of(cid)
    if row is not None and row.version == state.version:
        return {**row.document, "projected": True}
    return {**standings_document(state), "projected": False}


def what_if(
    competition_id: object, *, tiebreaks: list[str] | None = None, rules: object = None
) -> dict[str, Any]:
    """The standings under other tie-breaks and/or other rules, and who moves by how much;
    under other rules, the results that are not comparable (``not_comparable``) stand as
    played.  Reads events only."""
    state = state_of(competition_id)
    competition = state.competition()
    official = competition.standings()
    order = check_tiebreaks(tiebreaks) if tiebreaks is not None else None
    answer: dict[str, Any] = {"comparable": True, "tiebreaks": list(order or official.tiebreaks)}
    if rules is not None:
        try:
            resolved = resolve(rules)
        except RulesError as error:
            raise LeagueError("bad_rules", str(error)) from None
        assert state.settings is not None
        pinned = rules_from_mapping(dict(state.settings.rules.snapshot))
        changed = [
            name
            for name, value in resolved.rules.to_dict().items()
            if pinned.to_dict().get(name) != value
        ]
        answer["rules_changed"] = changed
        results, tables_rescored, incomparable = rescored_results(state, resolved.rules.to_dict())
        competition = replace(competition, results=tuple(results))
        answer["tables_rescored"] = tables_rescored
        answer["not_comparable"] = incomparable
        if incomparable:
            # One policy with the replay page (scoring.core.replay.comparability): only the
            # tables where a played move would be refused are not comparable; their
            # results stand as played, each named with the replay's own sentence.
            answer["comparable"] = False
            answer["reason"] = not_comparable_summary(
                [(m["round"], m["board"]) for m in incomparable]
            )
    alternative = competition.standings(order)
    return {
        **answer,
        "standings": alternative.as_dict(),
        "moves": compare(official, alternative).as_dict(),
    }


def rescored_results(
    state: CompetitionState, rules: dict[str, Any]
) -> tuple[list[Any], int, list[dict[str, Any]]]:
    """Every result rescored under ``rules`` (tables through the rescoring service,
    scoresheets through the calculator; forfeits and typed-in results as they were), how
    many tables the rescoring service rescored, and the results that are not comparable
    under ``rules`` (kept as played): ``{result_id, round, board, table_id, reason}``."""
    assert state.settings is not None
    fixed = state.settings.match_format.fixed_hands
    tables = {
        r.id: state.result_info[r.id].table_id
        for r in state.results
        if state.result_info[r.id].table_id and r.forfeited_by is None
    }
    ids = [t for t in tables.values() if t]
    rescored: dict[str, dict[str, Any]] = {}
    tables_rescored = 0
    for start in range(0, len(ids), MAX_TABLES):
        for item in rescore(ids[start : start + MAX_TABLES], rules):
            rescored[item["table_id"]] = item
            tables_rescored += 1
    results = []
    incomparable: list[dict[str, Any]] = []

    def not_comparable(result: Any, table_id: Any, reason: str) -> None:
        incomparable.append(
            {
                "result_id": result.id,
                "round": result.round,
                "board": result.board,
                "table_id": None if table_id is None else str(table_id),
                "reason": reason,
            }
        )
        results.append(result)

    for result in state.results:
        info = state.result_info[result.id]
        totals: dict[str, int] | None = None
        winner = result.winner
        if (
            info.table_id
            and info.table_id in rescored
            and not rescored[info.table_id]["comparable"]
        ):
            not_comparable(result, info.table_id, rescored[info.table_id]["reason"])
            continue
        if info.table_id and info.table_id in rescored:
            item = rescored[info.table_id]
            hands = item["hands"]
            if fixed is not None and len(hands) >= fixed:
                hand = hands[fixed - 1]
                totals = {side: hand[side]["total"] for side in ("north_south", "east_west")}
                ledger_winner = None
            else:
                totals = dict(item["totals"])
                ledger_winner = item["winner"]
            winner = outcome(totals, ledger_winner, fixed)
        elif info.scoresheet is not None:
            try:
                sheet = score_scoresheet({"rules": rules, "hands": info.scoresheet["hands"]})
            except ScoresheetError as error:
                not_comparable(result, None, f"Not comparable: {error.message}")
                continue
            ledger = sheet.ledger
            totals = {"north_south": ledger.totals[0], "east_west": ledger.totals[1]}
            ledger_winner = (
                None if ledger.winner is None else ("north_south", "east_west")[ledger.winner]
            )
            winner = outcome(totals, ledger_winner, fixed)
        if totals is None:
            results.append(result)
            continue
        if winner is None and fixed is None:
            # Nobody reached the other target within the hands played: the side ahead wins,
            # and level totals keep the result as played.
            if totals["north_south"] != totals["east_west"]:
                winner = max(("north_south", "east_west"), key=lambda side: totals[side])
            else:
                winner = result.winner
        results.append(
            replace(
                result,
                north_south_points=totals["north_south"],
                east_west_points=totals["east_west"],
                winner=winner,
            )
        )
    return results, tables_rescored, incomparable


def next_match(competition_id: object, player: str) -> dict[str, Any]:
    """The player's next (or current) match and its table."""
    return _next_match(state_of(competition_id), player)


def _next_match(state: CompetitionState, player: str) -> dict[str, Any]:
    entrant = state.entrant_of_player(player)
    if entrant is None:
        raise LeagueError("unknown_player", f"Player {player!r} plays in no entrant here.")
    if entrant in state.invitations:
        # Not entered yet: nothing is paired for it; the page asks the player to answer.
        return {"entrant": entrant, "match": None, "invited": True}
    reported = {(r.round, r.board) for r in state.results}
    for paired in reversed(state.rounds):
        for pairing in paired.pairing.matches:
            if entrant in (pairing.north_south, pairing.east_west):
                if (paired.number, pairing.board) in reported:
                    return {"entrant": entrant, "match": None}
                return {
                    "entrant": entrant,
                    "match": {
                        "round": paired.number,
                        **pairing.as_dict(),
                        "table_id": state.tables.get(paired.number, {}).get(pairing.board),
                    },
                }
        if entrant in paired.pairing.byes:
            return {"entrant": entrant, "match": None, "bye": paired.number}
    return {"entrant": entrant, "match": None}


def next_matches(player: str) -> list[dict[str, Any]]:
    """The player's next match in each unfinished competition they play in (the
    :data:`MAX_NEXT_MATCHES` most recently changed), with the entrants' names."""
    rows = Competition.objects.exclude(status="finished").order_by("-updated_at", "id")
    matches = []
    for row in rows[:MAX_NEXT_MATCHES]:
        state = load(row.id)
        if not state.exists or state.entrant_of_player(player) is None:
            continue
        answer = _next_match(state, player)
        names = {}
        if answer.get("match"):
            names = {e.id: e.name for e in state.entrants.values() if e.name}
        matches.append({"competition_id": str(row.id), "name": row.name, "names": names, **answer})
    return matches


def export_json(competition_id: object) -> dict[str, Any]:
    competition = state_of(competition_id).competition()
    return competition_document(competition, competition.standings())


def export_csv(competition_id: object) -> tuple[str, str]:
    """(file name, text): the whole competition as one CSV, a ``record`` column per row,
    usernames beside the player ids (docs/formats.md)."""
    competition = state_of(competition_id).competition()
    players = [p for e in competition.entrants for p in (*e.players, e.reserve) if p]
    text = competition_csv(competition, competition.standings(), usernames_of(players))
    safe_id = "".join(
        c for c in competition.settings.id if (c.isascii() and c.isalnum()) or c == "-"
    )
    return f"competition-{safe_id}.csv", text


def ratings_of_player(player: str) -> list[dict[str, Any]]:
    """One player's rating in every pool that rates them (the site's and each league's)."""
    rows = PlayerRating.objects.filter(player=player).order_by("pool")
    return [
        {
            "pool": r.pool,
            "player": r.player,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "matches": r.matches,
        }
        for r in rows
    ]


def ratings(
    players: list[str] | None = None, limit: int = 100, pool: str = SITE_POOL
) -> list[dict[str, Any]]:
    """One pool's ratings (``leagues.domain.pools``; the site's by default), best first."""
    # Ranked in the database by the ordinal (mu - 3 sigma, PlayerRating.ordinal), so the
    # top is the top of every rated player, not of whichever rows came back first.
    query = PlayerRating.objects.filter(pool=pool).annotate(rank=F("mu") - 3.0 * F("sigma"))
    if players:
        query = query.filter(player__in=players[:limit])
    rows = list(query.order_by("-rank", "player")[:limit])
    return [
        {
            "player": r.player,
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "matches": r.matches,
        }
        for r in rows
    ]


def competition_versions(competition_ids: Sequence[str]) -> dict[str, int]:
    """The stream version of each of these competitions, in one query (the live sockets'
    safety sweep); competitions without events are left out."""
    streams = {competition_stream_id(cid): cid for cid in competition_ids}
    versions = stream_versions(list(streams))
    return {streams[stream]: version for stream, version in versions.items()}
