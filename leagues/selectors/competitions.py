"""Competition reads; nothing here writes (what-if included)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from django.db.models import F

from eventstore.reading import stream_version, stream_versions
from games.engine.rules import RulesError
from games.models import Table
from leagues.core.competition import Competition as CoreCompetition
from leagues.core.competition_csv import competition_csv
from leagues.core.competition_file import competition_document
from leagues.core.errors import LeagueError
from leagues.core.pairings import forbidden_meetings
from leagues.core.results import SIDES, effective_results, match_outcome, match_rules
from leagues.core.tiebreaks import check_tiebreaks
from leagues.core.whatif import compare, not_comparable_summary
from leagues.domain import events as ev
from leagues.domain import schedule
from leagues.domain.decisions.results import can_advance
from leagues.domain.pools import SITE_POOL, SKILL_POOL
from leagues.domain.state import CompetitionState
from leagues.models import Competition, OfficialStandings, PlayerRating, SkillRating
from leagues.projections import standings_document
from leagues.services.streams import load, parse_id
from scoring.core.scoresheet import ScoresheetError, score_scoresheet
from scoring.services.presets import resolve, rules_from_mapping
from scoring.services.rescoring import MAX_TABLES, rescore

from . import duplicate as duplicate_reads
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
    player_ids += [w.player for w in state.open_partnerships.values()]
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
        # Came in by the invitation link, waiting for a partner (docs/leagues.md).
        "waiting": [{"id": w.id, "player": w.player} for w in state.open_partnerships.values()],
        "players": usernames_of(player_ids),
        "rounds": state.last_round,
        "stage": state.stage,
        # Whether ``POST .../stages/advance`` would be accepted now.
        "can_advance": can_advance(state),
        "finished": state.finished,
        # The pairs kept apart (ids sorted): part of every engine input from now on.
        "forbidden_pairs": [list(pair) for pair in sorted(state.forbidden)],
    }


def forbidden_pairs(competition_id: object, user_id: int | None) -> dict[str, Any]:
    """The pairs kept apart; who forbade each and why only for the competition's
    organisers (a reason may be about a family: it is not public)."""
    state = state_of(competition_id)
    return forbidden_pairs_of(state, user_id is not None and user_id in state.organisers)


def forbidden_pairs_of(state: CompetitionState, organiser: bool) -> dict[str, Any]:
    """:func:`forbidden_pairs` of a folded state (``organiser``: with who and why)."""
    names = usernames_of([str(info.organiser) for info in state.forbidden.values()])
    return {
        "forbidden_pairs": [
            {
                "entrants": list(pair),
                **(
                    {
                        "reason": info.reason,
                        "organiser": names.get(str(info.organiser), str(info.organiser)),
                    }
                    if organiser
                    else {}
                ),
            }
            for pair, info in sorted(state.forbidden.items())
        ]
    }


def manual_of(state: CompetitionState, number: int) -> dict[str, Any] | None:
    """A round whose pairing the organiser replaced: by whom (username) and why."""
    override = state.overrides.get(number)
    if override is None:
        return None
    by = usernames_of([str(override.organiser)]).get(str(override.organiser))
    return {"by": by or str(override.organiser), "reason": override.reason}


def stages(competition_id: object) -> dict[str, Any]:
    """Each stage: its settings, rounds and progress, and a knockout's bracket."""
    state = state_of(competition_id)
    assert state.settings is not None
    competition = state.competition()
    upcoming = competition.next_stage()
    out = []
    for index, spec in enumerate(state.settings.stages):
        numbers = [r.number for r in state.rounds if r.stage == index]
        if index < state.stage or (numbers and upcoming > index):
            status = "complete"
        elif numbers:
            status = "in_play"
        else:
            status = "waiting"
        bracket = None
        if spec.kind == "knockout" and index <= state.stage:
            bracket = _bracket(state, index, drawn=bool(numbers))
        out.append(
            {
                "number": index + 1,
                **spec.as_dict(),
                "status": status,
                "round_numbers": numbers,
                "bracket": bracket,
            }
        )
    return {
        "current": state.stage + 1,
        "can_advance": can_advance(state),
        "finished": state.finished,
        "stages": out,
    }


def _bracket(state: CompetitionState, stage: int, *, drawn: bool) -> dict[str, Any] | None:
    """The bracket of a knockout stage (bounded: ``MAX_KNOCKOUT_ENTRANTS`` entrants), each
    match with where its sides come from, who they are (``""``: a bye; ``None``: not
    known yet), its winner and the round and board it was played in."""
    try:
        bracket, resolved = state.competition().bracket(stage)
    except LeagueError:
        return None  # no bracket to draw yet (fewer than two entrants)
    played = {
        p.match: {"round": paired.number, "board": p.board}
        for paired in state.rounds
        if paired.stage == stage
        for p in paired.pairing.matches
    }
    by_id = {m.id: m for m in resolved.matches}

    def side(source: Any, entrant: str | None) -> dict[str, Any]:
        return {
            "from": source.kind,
            "seed": source.seed or None,
            "match": source.match or None,
            "entrant": entrant,
        }

    return {
        # False before the stage's first round is paired: the bracket as it would be drawn.
        "drawn": drawn,
        "size": bracket.size,
        "double": bracket.double,
        "reset": bracket.reset,
        "seeds": list(bracket.seeds),
        "matches": [
            {
                "id": match.id,
                "part": match.stage,
                "round": match.round,
                "top": side(match.top, by_id[match.id].top),
                "bottom": side(match.bottom, by_id[match.id].bottom),
                "winner": by_id[match.id].winner,
                "needed": by_id[match.id].needed,
                "played": played.get(match.id),
            }
            for match in bracket.matches
        ],
        "champion": resolved.champion,
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
                # Forbidden pairs that meet: only when no pairing without them existed
                # (or the organiser's override paired them).
                "forbidden_meetings": [
                    list(pair)
                    for pair in forbidden_meetings(
                        paired.pairing, state.forbidden_at.get(paired.number, ())
                    )
                ],
                "manual": manual_of(state, paired.number),
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


def round_tables(competition_id: object, number: int) -> dict[str, Any]:
    """A round's tables and whether each exists yet: a round is recorded as started
    (``RoundStarted``) before its tables are created, so a page asks this before reading
    a table (docs/leagues.md "Tables and results"). Not tagged for 304: a table's
    creation moves no competition version."""
    state = state_of(competition_id)
    if state.paired_round(number) is None:
        raise LeagueError("unknown_round", f"Round {number} has not been paired.")
    tables = state.tables.get(number, {})
    made = {
        str(table_id)
        for table_id in Table.objects.filter(id__in=list(tables.values())).values_list(
            "id", flat=True
        )
    }
    return {
        "round": number,
        "started": number in state.started,
        "tables": [
            {"board": board, "table_id": table_id, "ready": table_id in made}
            for board, table_id in sorted(tables.items())
        ],
    }


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
    """Every result rescored under ``rules`` with the competition's match format (a fixed
    number of hands is the competition's, not the preset's: ``match_rules``): tables
    through the rescoring service, scoresheets through the calculator, each read by
    ``match_outcome`` as the table's own game is; forfeits and typed-in results as they
    were. Also how many tables the rescoring service rescored, and the results that are
    not comparable under ``rules`` (kept as played): ``{result_id, round, board,
    table_id, reason}``."""
    assert state.settings is not None
    match_format = state.settings.match_format
    under = {
        knockout: {**rules, **match_rules(match_format, knockout=knockout)}
        for knockout in (False, True)
    }
    knockout_of = {r.id: _is_knockout(state, r.round, r.board) for r in state.results}
    tables = {
        r.id: state.result_info[r.id].table_id
        for r in state.results
        if state.result_info[r.id].table_id and r.forfeited_by is None
    }
    rescored: dict[str, dict[str, Any]] = {}
    tables_rescored = 0
    for knockout, table_rules in under.items():
        ids = [t for rid, t in tables.items() if t and knockout_of[rid] == knockout]
        for start in range(0, len(ids), MAX_TABLES):
            for item in rescore(ids[start : start + MAX_TABLES], table_rules):
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
        final: tuple[tuple[int, int], int | None, int | None] | None = None
        if info.table_id and info.table_id in rescored:
            item = rescored[info.table_id]
            if not item["comparable"]:
                not_comparable(result, info.table_id, item["reason"])
                continue
            totals = item["totals"]
            winner = item["winner"]
            final = (
                (totals["north_south"], totals["east_west"]),
                None if winner is None else SIDES.index(winner),
                item["finished_after_hand"],
            )
        elif info.scoresheet is not None:
            sheet_rules = under[knockout_of[result.id]]
            try:
                sheet = score_scoresheet({"rules": sheet_rules, "hands": info.scoresheet["hands"]})
            except ScoresheetError as error:
                not_comparable(result, None, f"Not comparable: {error.message}")
                continue
            ledger = sheet.ledger
            totals_of = (ledger.totals[0], ledger.totals[1])
            final = (totals_of, ledger.winner, ledger.finished_after_hand)
        if final is None:
            results.append(result)
            continue
        outcome = match_outcome(*final)
        if outcome is not None:
            points, winner_side = outcome.points, outcome.winner
        else:
            # The game would not have ended within the hands played (a higher target, or a
            # tie the played hands did not break): the side ahead wins, and level totals
            # keep the result as played.
            (ns, ew), _, _ = final
            points = {"north_south": ns, "east_west": ew}
            winner_side = result.winner if ns == ew else ("north_south" if ns > ew else "east_west")
        results.append(
            replace(
                result,
                north_south_points=points["north_south"],
                east_west_points=points["east_west"],
                winner=winner_side,
            )
        )
    return results, tables_rescored, incomparable


def _is_knockout(state: CompetitionState, number: int, board: int) -> bool:
    paired = state.paired_round(number)
    matches = () if paired is None else paired.pairing.matches
    return any(m.board == board and m.match for m in matches)


def next_match(competition_id: object, player: str) -> dict[str, Any]:
    """The player's next (or current) match and its table; ``{"entrant": None, "match":
    None}`` for a player who plays in no entrant here (the organiser, a spectator signed
    in): the competition page asks on every refresh, and a question with no match to
    answer is not an error."""
    state = state_of(competition_id)
    if state.entrant_of_player(player) is None:
        return {"entrant": None, "match": None}
    return _next_match(state, player)


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


def _exported(competition_id: object) -> CoreCompetition:
    """The competition as its file holds it: a duplicate one with its boards and board
    results as far as they may be shown (``duplicate.file_state``)."""
    state = state_of(competition_id)
    return replace(state.competition(), duplicate=duplicate_reads.file_state(state))


def export_json(competition_id: object) -> dict[str, Any]:
    competition = _exported(competition_id)
    return competition_document(competition, competition.standings())


def export_csv(competition_id: object) -> tuple[str, str]:
    """(file name, text): the whole competition as one CSV, a ``record`` column per row,
    usernames beside the player ids (docs/formats.md)."""
    competition = _exported(competition_id)
    players = [p for e in competition.entrants for p in (*e.players, e.reserve) if p]
    text = competition_csv(competition, competition.standings(), usernames_of(players))
    safe_id = "".join(
        c for c in competition.settings.id if (c.isascii() and c.isalnum()) or c == "-"
    )
    return f"competition-{safe_id}.csv", text


def ratings_of_player(player: str) -> list[dict[str, Any]]:
    """One player's rating in every pool that rates them (the site's and each league's),
    then their duplicate skill (``pool`` ``skill``; ``matches``: its boards) if they have one."""
    rows = PlayerRating.objects.filter(player=player).order_by("pool")
    found = [
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
    skill = SkillRating.objects.filter(player=player).first()
    if skill is not None:
        found.append(
            {
                "pool": SKILL_POOL,
                "player": skill.player,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "ordinal": skill.conservative,
                "matches": skill.boards,
            }
        )
    return found


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
    names = usernames_of(r.player for r in rows)
    return [
        {
            "player": r.player,
            # null for an erased account: the ratings page says "a former player".
            "username": names.get(r.player),
            "mu": r.mu,
            "sigma": r.sigma,
            "ordinal": r.ordinal,
            "matches": r.matches,
        }
        for r in rows
    ]


def competition_version(competition_id: object) -> int:
    """The competition stream's version (one indexed read; 0: no such competition): what
    its polled reads are tagged with (``services.api.etags``)."""
    return stream_version(ev.competition_stream_id(parse_id(competition_id)))


def competition_versions(competition_ids: Sequence[str]) -> dict[str, int]:
    """The stream version of each of these competitions, in one query (the live sockets'
    safety sweep); competitions without events are left out."""
    streams = {ev.competition_stream_id(cid): cid for cid in competition_ids}
    versions = stream_versions(list(streams))
    return {streams[stream]: version for stream, version in versions.items()}
