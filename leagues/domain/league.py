"""The league aggregate: its stream folded (:class:`LeagueState`), the requests that
change it (:class:`LeagueSpec`, :class:`SeasonRequest`), the decisions, and promotion
and relegation between a season's divisions (pure).

A league is the stream ``league-<uuid>``: ``LeagueCreated``, then ``SeasonAdded`` per
season (its divisions and their competitions) and ``DivisionsAssigned`` when a season's
divisions came from the previous season's final standings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from eventstore.records import NewEvent

from . import events as ev
from . import parsing as p
from .state import EventLike, TextOf, unresolved

MAX_DIVISIONS = 16
MAX_SEASON_NAME = 64
MAX_DIVISION_NAME = 64
MAX_ORGANISERS = 20
MAX_MOVES = 64

Actor = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Season:
    season: str
    divisions: dict[str, str]  # division -> competition id
    assigned: dict[str, list[str]] | None = None  # division -> entrant ids (promotion)

    def as_dict(self) -> dict[str, Any]:
        return {"season": self.season, "divisions": dict(self.divisions)}


@dataclass(slots=True)
class LeagueState:
    league_id: str = ""
    version: int = 0
    name: str = ""
    organisers: tuple[int, ...] = ()
    seasons: list[Season] = field(default_factory=list)

    @classmethod
    def fold(
        cls, league_id: str, events: Iterable[EventLike], texts: TextOf = unresolved
    ) -> LeagueState:
        """``texts``: the league's name is typed text (as in ``CompetitionState.fold``)."""
        state = cls(league_id=league_id)
        for event in events:
            if event.type == ev.LEAGUE_CREATED:
                state.name = texts(event.data["name"])
                state.organisers = tuple(int(u) for u in event.data["organisers"])
            elif event.type == ev.SEASON_ADDED:
                state.seasons.append(
                    Season(str(event.data["season"]), dict(event.data["divisions"]))
                )
            elif event.type == ev.DIVISIONS_ASSIGNED:
                season = state.season(str(event.data["season"]))
                if season is not None:
                    index = state.seasons.index(season)
                    state.seasons[index] = Season(
                        season.season, season.divisions, dict(event.data["divisions"])
                    )
            state.version = event.version
        return state

    @property
    def exists(self) -> bool:
        return self.version > 0

    def season(self, name: str) -> Season | None:
        return next((s for s in self.seasons if s.season == name), None)

    def view(self) -> dict[str, Any]:
        """The league as the API shows it."""
        return {
            "id": self.league_id,
            "name": self.name,
            "organisers": list(self.organisers),
            "seasons": [season.as_dict() for season in self.seasons],
        }


def require_league(state: LeagueState) -> LeagueState:
    if not state.exists:
        raise p.refuse("unknown_league", "There is no such league.")
    return state


def require_league_organiser(state: LeagueState, user_id: int | None, what: str) -> None:
    """Only the league's organisers act for it (``what``: the act, for the message)."""
    require_league(state)
    if user_id is None or user_id not in state.organisers:
        raise p.refuse("not_league_organiser", f"Only this league's organisers can {what}.")


# ---------------------------------------------------------------- requests


@dataclass(frozen=True, slots=True)
class LeagueSpec:
    """A new league: its name and the organisers besides its creator."""

    name: str
    organisers: tuple[int, ...] = ()

    @classmethod
    def parse(cls, body: object) -> LeagueSpec:
        fields = p.body_of(body)
        p.known_fields(fields, ("name", "organisers"))
        extra = fields.get("organisers", [])
        if (
            not isinstance(extra, list)
            or len(extra) > MAX_ORGANISERS
            or not all(type(u) is int and u > 0 for u in extra)
        ):
            raise p.refuse("invalid", f"organisers is a list of at most {MAX_ORGANISERS} user ids.")
        return cls(name=p.name(fields.get("name"), "name"), organisers=tuple(extra))


@dataclass(frozen=True, slots=True)
class PromotionRequest:
    """Fill the divisions from season ``source``'s final standings: ``up`` entrants of
    each division go up one, ``down`` go down one."""

    source: str
    up: int = 1
    down: int = 1

    @classmethod
    def parse(cls, value: object) -> PromotionRequest:
        if not isinstance(value, Mapping):
            raise p.refuse("invalid", 'promote is {"from": SEASON, "up": N, "down": N}.')
        p.known_fields(value, ("from", "up", "down"))
        source = value.get("from")
        if not isinstance(source, str):
            raise p.refuse("invalid", "promote.from is the name of an earlier season.")
        up, down = value.get("up", 1), value.get("down", 1)
        if (
            type(up) is not int
            or type(down) is not int
            or not (0 <= up <= MAX_MOVES and 0 <= down <= MAX_MOVES)
        ):
            raise p.refuse("invalid", f"up and down are whole numbers from 0 to {MAX_MOVES}.")
        return cls(source=source, up=up, down=down)


@dataclass(frozen=True, slots=True)
class SeasonRequest:
    """A new season: its name, its divisions (top first), the settings of each
    division's competition (checked as a :class:`~.decisions.CompetitionSpec` once the
    league fills in its own fields), and an optional promotion."""

    season: str
    divisions: tuple[str, ...] = ("main",)
    competition: Mapping[str, Any] = field(default_factory=dict)
    promote: PromotionRequest | None = None

    @classmethod
    def parse(cls, body: object) -> SeasonRequest:
        fields = p.body_of(body)
        p.known_fields(fields, ("season", "divisions", "competition", "promote"))
        divisions = fields.get("divisions", ["main"])
        if (
            not isinstance(divisions, list)
            or not 1 <= len(divisions) <= MAX_DIVISIONS
            or not all(isinstance(d, str) and 1 <= len(d) <= MAX_DIVISION_NAME for d in divisions)
        ):
            raise p.refuse("invalid", f"divisions is a list of 1 to {MAX_DIVISIONS} names.")
        if len(set(divisions)) != len(divisions):
            raise p.refuse("invalid", "divisions names each division once.")
        competition = fields.get("competition", {})
        if not isinstance(competition, Mapping):
            raise p.refuse("invalid", "competition is an object of competition settings.")
        promotion = fields.get("promote")
        return cls(
            season=p.name(fields.get("season"), "season", MAX_SEASON_NAME),
            divisions=tuple(p.text(d, "divisions[]", MAX_DIVISION_NAME) for d in divisions),
            competition=dict(competition),
            promote=None if promotion is None else PromotionRequest.parse(promotion),
        )


# ---------------------------------------------------------------- decisions


def decide_create_league(
    spec: LeagueSpec, *, owner: int, actor: Actor
) -> tuple[list[NewEvent], tuple[int, ...]]:
    """``LeagueCreated``: the creator is the first organiser."""
    organisers = (owner, *[u for u in spec.organisers if u != owner])
    name = ev.typed(spec.name, ev.typist(actor))
    return [ev.league_created(name=name, organisers=organisers, actor=actor)], organisers


def check_new_season(state: LeagueState, request: SeasonRequest, user_id: int | None) -> None:
    """Refuse a season before anything of it is created: not an organiser, a season name
    used already, a promotion from a season that is not there or has other divisions."""
    require_league_organiser(state, user_id, "add a season")
    if state.season(request.season) is not None:
        raise p.refuse("invalid", f"Season {request.season!r} exists already.")
    if request.promote is not None:
        previous = state.season(request.promote.source)
        if previous is None:
            raise p.refuse(
                "invalid", f"There is no season {request.promote.source!r} to promote from."
            )
        if len(previous.divisions) != len(request.divisions):
            raise p.refuse(
                "invalid",
                f"The previous season had {len(previous.divisions)} divisions, "
                f"not {len(request.divisions)}.",
            )


def decide_add_season(
    state: LeagueState,
    request: SeasonRequest,
    *,
    user_id: int | None,
    competitions: Mapping[str, str],
    assigned: Mapping[str, Sequence[str]] | None,
    actor: Actor,
) -> list[NewEvent]:
    """``SeasonAdded`` (division -> its competition), with ``DivisionsAssigned`` when the
    divisions were filled by promotion."""
    check_new_season(state, request, user_id)
    out = [ev.season_added(season=request.season, divisions=competitions, actor=actor)]
    if assigned is not None:
        out.append(ev.divisions_assigned(season=request.season, divisions=assigned, actor=actor))
    return out


def promote(divisions: Sequence[Sequence[str]], up: int, down: int) -> list[list[str]]:
    """Next season's divisions from this season's final orders (top division first): the
    first ``up`` of each division but the top go up one, the last ``down`` of each but the
    bottom go down one; everyone else stays.  Orders inside a division are kept."""
    count = len(divisions)
    moved: list[list[str]] = [[] for _ in range(count)]
    for index, order in enumerate(divisions):
        for place, entrant in enumerate(order):
            target = index
            if index > 0 and place < up:
                target = index - 1
            elif index < count - 1 and place >= len(order) - down:
                target = index + 1
            moved[target].append(entrant)
    return moved
