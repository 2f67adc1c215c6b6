"""Leagues: a name, organisers and seasons (each division of a season is a competition).

A league is a small stream ``league-<uuid>``: ``LeagueCreated``, then ``SeasonAdded`` per
season (its divisions and their competitions) and ``DivisionsAssigned`` when a season's
divisions came from the previous season's final standings (promotion/relegation).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from eventstore.reading import read_stream
from eventstore.recorder import append
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import MAX_NAME, checked_name
from leagues.domain.league import promote
from leagues.models import League

from . import competitions
from .streams import actor_of, load, parse_id, user_id_of

MAX_DIVISIONS = 16
MAX_SEASON_NAME = 64


def _fold(league_id: str) -> tuple[dict[str, Any], int]:
    events = read_stream(ev.league_stream_id(league_id))
    if not events:
        raise LeagueError("unknown_league", "There is no such league.")
    view: dict[str, Any] = {"id": league_id, "seasons": []}
    for event in events:
        if event.type == ev.LEAGUE_CREATED:
            view.update(name=event.data["name"], organisers=event.data["organisers"])
        elif event.type == ev.SEASON_ADDED:
            view["seasons"].append(dict(event.data))
    return view, len(events)


def create_league(user: Any, body: Mapping[str, Any]) -> dict[str, Any]:
    owner = user_id_of(user)
    if owner is None:
        raise LeagueError("not_signed_in", "Sign in to create a league.")
    name = checked_name(body.get("name"), "name")
    extra = body.get("organisers", [])
    if not isinstance(extra, list) or not all(type(u) is int for u in extra) or len(extra) > 20:
        raise LeagueError("invalid", "organisers is a list of at most 20 user ids.")
    league_id = str(uuid.uuid4())
    organisers = [owner, *[u for u in extra if u != owner]]
    with transaction.atomic():
        append(
            ev.league_stream_id(league_id),
            0,
            [ev.event(ev.LEAGUE_CREATED, {"name": name, "organisers": organisers}, actor_of(user))],
        )
        League.objects.create(id=league_id, name=name, organisers=organisers, version=1)
    return _fold(league_id)[0]


def league_view(league_id: object) -> dict[str, Any]:
    return _fold(parse_id(league_id, "league"))[0]


def add_season(user: Any, league_id: object, body: Mapping[str, Any]) -> dict[str, Any]:
    """A season: one competition per division (``competition`` holds their settings);
    with ``promote: {"from": SEASON, "up": N, "down": N}`` the divisions are filled from
    that season's final standings (the same partnerships registered again)."""
    lid = parse_id(league_id, "league")
    view, version = _fold(lid)
    if user_id_of(user) not in view["organisers"]:
        raise LeagueError("not_organiser", "Only this league's organisers can add a season.")
    season = checked_name(body.get("season"), "season", MAX_SEASON_NAME)
    divisions = body.get("divisions", ["main"])
    if any(s["season"] == season for s in view["seasons"]):
        raise LeagueError("invalid", f"Season {season!r} exists already.")
    if (
        not isinstance(divisions, list)
        or not 1 <= len(divisions) <= MAX_DIVISIONS
        or not all(isinstance(d, str) and 1 <= len(d) <= 64 for d in divisions)
    ):
        raise LeagueError("invalid", f"divisions is a list of 1 to {MAX_DIVISIONS} names.")
    spec = body.get("competition", {})
    if not isinstance(spec, Mapping):
        raise LeagueError("invalid", "competition is an object of competition settings.")
    moves = None
    promotion = body.get("promote")
    if promotion is not None:
        moves = _promotion(view, promotion, len(divisions))
    # One transaction: a refused registration (or another season added first) leaves
    # no competition of this season behind.
    with transaction.atomic():
        created: dict[str, str] = {}
        for division in divisions:
            state = competitions.create_competition(
                user,
                {
                    # A division's competition is named for its league, season and division
                    # unless the settings name it.
                    "name": f"{view['name']} {season}: {division}"[:MAX_NAME],
                    **spec,
                    "kind": "season",
                    "league_id": lid,
                    "season": season,
                    "division": division,
                    "organisers": view["organisers"],
                },
            )
            created[division] = state.competition_id
        if moves is not None:
            for division, entrants in zip(divisions, moves, strict=True):
                for entrant in entrants:
                    competitions.register_entrant(user, created[division], **entrant)
        data = {"season": season, "divisions": created}
        new = [ev.event(ev.SEASON_ADDED, data, actor_of(user))]
        if moves is not None:
            assigned = {
                d: [e["entrant_id"] for e in m] for d, m in zip(divisions, moves, strict=True)
            }
            new.append(ev.event(ev.DIVISIONS_ASSIGNED, {"season": season, "divisions": assigned}))
        append(ev.league_stream_id(lid), version, new)
        League.objects.filter(id=lid).update(version=version + len(new))
    return _fold(lid)[0]


def _promotion(view: dict[str, Any], promotion: object, count: int) -> list[list[dict[str, Any]]]:
    if not isinstance(promotion, Mapping):
        raise LeagueError("invalid", 'promote is {"from": SEASON, "up": N, "down": N}.')
    previous = next((s for s in view["seasons"] if s["season"] == promotion.get("from")), None)
    if previous is None:
        raise LeagueError(
            "invalid", f"There is no season {promotion.get('from')!r} to promote from."
        )
    up, down = promotion.get("up", 1), promotion.get("down", 1)
    if type(up) is not int or type(down) is not int or not (0 <= up <= 64 and 0 <= down <= 64):
        raise LeagueError("invalid", "up and down are whole numbers from 0 to 64.")
    old = list(previous["divisions"].values())
    if len(old) != count:
        raise LeagueError("invalid", f"The previous season had {len(old)} divisions, not {count}.")
    orders: list[list[str]] = []
    entrants: dict[str, dict[str, Any]] = {}
    for competition_id in old:
        state = load(competition_id)
        if not state.finished:
            raise LeagueError("stage_not_complete", "The previous season is not finished.")
        order = [
            e
            for e in state.competition().standings().order()
            if state.entrants[e].withdrawn_after_round is None
        ]
        orders.append(order)
        for entrant_id in order:
            e = state.entrants[entrant_id]
            entrants[entrant_id] = {
                "entrant_id": e.id,
                "players": list(e.players),
                "reserve": e.reserve,
                "name": e.name,
            }
    return [[entrants[e] for e in division] for division in promote(orders, up, down)]
