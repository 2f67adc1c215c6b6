"""League use cases: create a league, add a season (one competition per division,
optionally filled by promotion and relegation from the previous season).

The league aggregate (its fold, requests and decisions) is :mod:`leagues.domain.league`;
this module folds, lets it decide and appends, as the competition use cases do.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import transaction

from leagues.core.errors import LeagueError
from leagues.domain.decisions import CompetitionSpec, EntrantRequest
from leagues.domain.league import (
    LeagueSpec,
    LeagueState,
    PromotionRequest,
    SeasonRequest,
    check_new_season,
    decide_add_season,
    decide_create_league,
    promote,
    require_league,
)
from leagues.domain.parsing import MAX_NAME
from leagues.models import League

from .competitions import create_competition
from .registration import register_entrant
from .streams import actor_of, append_league, load, load_league, user_id_of


def create_league(user: Any, spec: LeagueSpec) -> dict[str, Any]:
    owner = user_id_of(user)
    if owner is None:
        raise LeagueError("not_signed_in", "Sign in to create a league.")
    league_id = str(uuid.uuid4())
    events, organisers = decide_create_league(spec, owner=owner, actor=actor_of(user))
    with transaction.atomic():
        append_league(league_id, 0, events)
        League.objects.create(
            id=league_id, name=spec.name, organisers=list(organisers), version=len(events)
        )
    return load_league(league_id).view()


def league_view(league_id: object) -> dict[str, Any]:
    return require_league(load_league(league_id)).view()


def add_season(user: Any, league_id: object, request: SeasonRequest) -> dict[str, Any]:
    """A season: one competition per division (``competition`` holds their settings);
    with ``promote: {"from": SEASON, "up": N, "down": N}`` the divisions are filled from
    that season's final standings (the same partnerships invited again: each player
    accepts the new season as they accepted the last)."""
    league = load_league(league_id)
    check_new_season(league, request, user_id_of(user))
    moves = None
    if request.promote is not None:
        moves = _promotion(league, request.promote)
    # One transaction: a refused registration (or another season added first) leaves
    # no competition of this season behind.
    with transaction.atomic():
        created: dict[str, str] = {}
        for division in request.divisions:
            spec = CompetitionSpec.parse(
                {
                    # A division's competition is named for its league, season and division
                    # unless the settings name it.
                    "name": f"{league.name} {request.season}: {division}"[:MAX_NAME],
                    **request.competition,
                    "kind": "season",
                    "league_id": league.league_id,
                    "season": request.season,
                    "division": division,
                    "organisers": list(league.organisers),
                }
            )
            # The default name holds the league's, typed by its creator (erasable by both).
            created[division] = create_competition(
                user, spec, named=league.organisers[:1]
            ).competition_id
        assigned = None
        if moves is not None:
            assigned = {}
            for division, entrants in zip(request.divisions, moves, strict=True):
                for entrant in entrants:
                    register_entrant(user, created[division], entrant)
                assigned[division] = [e.entrant_id for e in entrants]
        events = decide_add_season(
            league,
            request,
            user_id=user_id_of(user),
            competitions=created,
            assigned=assigned,
            actor=actor_of(user),
        )
        append_league(league.league_id, league.version, events)
        League.objects.filter(id=league.league_id).update(version=league.version + len(events))
    return load_league(league.league_id).view()


def _promotion(league: LeagueState, promotion: PromotionRequest) -> list[list[EntrantRequest]]:
    """Each new division's entrants (as registration requests), from the final standings
    of the season promoted from (withdrawn entrants do not carry over)."""
    previous = league.season(promotion.source)
    assert previous is not None  # check_new_season refused a season that is not there
    orders: list[list[str]] = []
    entrants: dict[str, EntrantRequest] = {}
    for competition_id in previous.divisions.values():
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
            entrants[entrant_id] = EntrantRequest(
                entrant_id=e.id, players=e.players, reserve=e.reserve, name=e.name
            )
    return [
        [entrants[e] for e in division]
        for division in promote(orders, promotion.up, promotion.down)
    ]
