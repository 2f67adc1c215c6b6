"""The competition's spec and settings: what an organiser asks for, checked field by
field (:class:`CompetitionSpec`), and ``CompetitionCreated`` pinning it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventstore.records import NewEvent
from leagues.core import knockout, round_robin, swiss
from leagues.core.results import MAX_FIXED_HANDS, MatchFormat, MatchPoints
from leagues.core.stages import STAGE_KINDS, Stage, check_stages
from leagues.core.tiebreaks import DEFAULT_TIEBREAKS, check_tiebreaks

from .. import events as ev
from .. import parsing as p
from ..settings import (
    BOT_LEVELS,
    DEFAULT_GRACE_MINUTES,
    DEFAULT_PAR_PLAYS,
    DUPLICATE_MOVEMENTS,
    DUPLICATE_SCALES,
    KINDS,
    KNOCKOUT_SEEDINGS,
    MAX_BOARDS_PER_ROUND,
    MAX_PAR_PLAYS,
    POINTS_FIELDS,
    ROUND_ROBIN_ORDERS,
    CompetitionSettings,
    DuplicateSettings,
    Kind,
    RulesPin,
)

MAX_ROUND_STARTS = 64
MAX_GRACE_MINUTES = 240
MAX_ORGANISERS = 20
MAX_LABEL = 64  # a season's or division's name, and a league id
ENGINE_VERSIONS = {
    swiss.ENGINE: swiss.ENGINE_VERSION,
    round_robin.ENGINE: round_robin.ENGINE_VERSION,
    knockout.ENGINE: knockout.ENGINE_VERSION,
}
DEFAULT_STAGES = ({"kind": "swiss", "rounds": 5},)


def _stages(value: object) -> tuple[Stage, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise p.refuse("bad_stages", "stages is a list of {kind, rounds, advance, ...}.")
    stages = []
    for index, raw in enumerate(value, start=1):
        if not isinstance(raw, Mapping) or raw.get("kind") not in STAGE_KINDS:
            raise p.refuse("bad_stages", f"stage {index}: kind is one of {', '.join(STAGE_KINDS)}.")
        advance = raw.get("advance")
        stages.append(
            Stage(
                kind=raw["kind"],
                rounds=p.whole(raw.get("rounds", 0), f"stage {index} rounds", 0, 64),
                advance=None
                if advance is None
                else p.whole(advance, f"stage {index} advance", 2, 4096),
                double=p.flag(raw.get("double", False), f"stage {index} double"),
                reset=p.flag(raw.get("reset", False), f"stage {index} reset"),
            )
        )
    return check_stages(stages)


def _match_points(value: object) -> MatchPoints:
    if not isinstance(value, Mapping):
        raise p.refuse("bad_match_points", 'match_points is an object like {"win": 2}.')
    unknown = sorted(str(k) for k in value if k not in POINTS_FIELDS)
    if unknown:
        raise p.refuse("bad_match_points", f"match_points has {', '.join(POINTS_FIELDS)}.")
    return MatchPoints(**{str(k): v for k, v in value.items()})


def _choice(value: object, what: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise p.refuse("invalid", f"{what} is {' or '.join(choices)}.")
    return str(value)


def _organisers(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list | tuple)
        or len(value) > MAX_ORGANISERS
        or not all(isinstance(u, int) and not isinstance(u, bool) and u > 0 for u in value)
    ):
        raise p.refuse("invalid", f"organisers is a list of at most {MAX_ORGANISERS} user ids.")
    return tuple(value)


SPEC_FIELDS = frozenset(
    {
        "name",
        "kind",
        "stages",
        "match_points",
        "fixed_hands",
        "tiebreaks",
        "round_robin_order",
        "knockout_seeding",
        "registration_closes_at",
        "late_join_until_round",
        "check_in",
        "round_starts",
        "grace_minutes",
        "bots_for_no_shows",
        "bot_level",
        "spectator_delay_tricks",
        "league_id",
        "season",
        "division",
        "rules",
        "organisers",
        "duplicate",
    }
)
DUPLICATE_FIELDS = frozenset({"boards_per_round", "movement", "scale", "par_plays"})


def _duplicate(
    value: object, fixed: int | None, stages: tuple[Stage, ...]
) -> DuplicateSettings | None:
    """The duplicate settings as given (null: not a duplicate competition)."""
    if value is None:
        return None
    spec = p.body_of(value, "duplicate")
    p.known_fields(spec, DUPLICATE_FIELDS)
    boards = p.whole(
        spec.get("boards_per_round"), "duplicate.boards_per_round", 1, MAX_BOARDS_PER_ROUND
    )
    if fixed is not None and fixed != boards:
        raise p.refuse(
            "invalid",
            "A duplicate competition's tables play one hand a board: leave fixed_hands out "
            f"or make it {boards}.",
        )
    if any(stage.kind == "knockout" for stage in stages):
        raise p.refuse(
            "invalid",
            "A duplicate competition has no knockout stage (a level knockout match would "
            "need a hand beyond the round's boards).",
        )
    return DuplicateSettings(
        boards_per_round=boards,
        movement=_choice(
            spec.get("movement", "mitchell"), "duplicate.movement", DUPLICATE_MOVEMENTS
        ),
        scale=_choice(spec.get("scale", "matchpoints"), "duplicate.scale", DUPLICATE_SCALES),
        par_plays=p.whole(
            spec.get("par_plays", DEFAULT_PAR_PLAYS), "duplicate.par_plays", 1, MAX_PAR_PLAYS
        ),
    )


@dataclass(frozen=True, slots=True)
class CompetitionSpec:
    """A new competition as its organiser asks for it (``POST /api/competitions``).

    ``rules`` is the preset spec as given (a name, or ``{"preset": ..., overrides}``): the
    service resolves and pins it; ``organisers`` are the organisers besides the creator.
    """

    name: str
    kind: Kind = "tournament"
    stages: tuple[Stage, ...] = ()
    match_points: MatchPoints = MatchPoints()
    match_format: MatchFormat = MatchFormat()
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    round_robin_order: str = "lots"
    knockout_seeding: str = "rating"
    registration_closes_at: datetime | None = None
    late_join_until_round: int = 0
    check_in: bool = False
    round_starts: tuple[datetime | None, ...] = ()
    grace_minutes: int = DEFAULT_GRACE_MINUTES
    bots_for_no_shows: bool = False
    bot_level: str | None = None
    spectator_delay_tricks: int = 0
    league_id: str | None = None
    season: str | None = None
    division: str | None = None
    rules: object = None
    organisers: tuple[int, ...] = ()
    duplicate: DuplicateSettings | None = None

    @classmethod
    def parse(cls, body: object) -> CompetitionSpec:
        """The spec from a request body; every field checked, refusals name the field."""
        spec = p.body_of(body, "A competition")
        p.known_fields(spec, SPEC_FIELDS)
        fixed = spec.get("fixed_hands")
        tiebreaks = spec.get("tiebreaks", list(DEFAULT_TIEBREAKS))
        if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
            raise p.refuse("unknown_tiebreak", "tiebreaks is a list of tie-break names.")
        starts = spec.get("round_starts", [])
        if not isinstance(starts, list) or len(starts) > MAX_ROUND_STARTS:
            raise p.refuse(
                "invalid", f"round_starts is a list of at most {MAX_ROUND_STARTS} times."
            )
        level = spec.get("bot_level")
        if level is not None and level not in BOT_LEVELS:
            raise p.refuse("invalid", f"bot_level is one of {', '.join(BOT_LEVELS)}, or null.")
        name = p.name(spec.get("name"), "name")
        kind = _choice(spec.get("kind", "tournament"), "kind", KINDS)
        stages = _stages(spec.get("stages", list(DEFAULT_STAGES)))
        points = _match_points(spec.get("match_points", {}))
        fixed_hands = None if fixed is None else p.whole(fixed, "fixed_hands", 1, MAX_FIXED_HANDS)
        duplicate = _duplicate(spec.get("duplicate"), fixed_hands, stages)
        if duplicate is not None:
            fixed_hands = duplicate.boards_per_round
        return cls(
            name=name,
            kind="season" if kind == "season" else "tournament",
            stages=stages,
            match_points=points,
            match_format=MatchFormat(fixed_hands),
            tiebreaks=check_tiebreaks(tiebreaks),
            round_robin_order=_choice(
                spec.get("round_robin_order", "lots"), "round_robin_order", ROUND_ROBIN_ORDERS
            ),
            knockout_seeding=_choice(
                spec.get("knockout_seeding", "rating"), "knockout_seeding", KNOCKOUT_SEEDINGS
            ),
            registration_closes_at=p.moment(
                spec.get("registration_closes_at"), "registration_closes_at"
            ),
            late_join_until_round=p.whole(
                spec.get("late_join_until_round", 0), "late_join_until_round", 0, 64
            ),
            check_in=p.flag(spec.get("check_in", False), "check_in"),
            round_starts=tuple(p.moment(t, f"round_starts[{i}]") for i, t in enumerate(starts)),
            grace_minutes=p.whole(
                spec.get("grace_minutes", DEFAULT_GRACE_MINUTES),
                "grace_minutes",
                0,
                MAX_GRACE_MINUTES,
            ),
            bots_for_no_shows=p.flag(spec.get("bots_for_no_shows", False), "bots_for_no_shows"),
            bot_level=None if level is None else str(level),
            spectator_delay_tricks=p.whole(
                spec.get("spectator_delay_tricks", 0), "spectator_delay_tricks", 0, 13
            ),
            league_id=p.optional_text(spec.get("league_id"), "league_id", MAX_LABEL),
            season=p.optional_text(spec.get("season"), "season", MAX_LABEL),
            division=p.optional_text(spec.get("division"), "division", MAX_LABEL),
            rules=spec.get("rules"),
            organisers=_organisers(spec.get("organisers", [])),
            duplicate=duplicate,
        )


def decide_create(
    competition_id: str,
    spec: CompetitionSpec,
    *,
    organisers: Sequence[int],
    rules: RulesPin,
    lots_seed: str,
    actor: Mapping[str, Any],
    named: Sequence[object] = (),
) -> list[NewEvent]:
    """``CompetitionCreated``: the spec pinned, with its organisers (the creator first),
    rules and lots seed. Its name is erasable by its creator and by ``named``."""
    if not 1 <= len(organisers) <= MAX_ORGANISERS:
        raise p.refuse("invalid", f"A competition has 1 to {MAX_ORGANISERS} organisers.")
    settings = CompetitionSettings(
        competition_id=competition_id,
        name=spec.name,
        kind=spec.kind,
        league_id=spec.league_id,
        season=spec.season,
        division=spec.division,
        organisers=tuple(int(user) for user in organisers),
        rules=rules,
        match_format=spec.match_format,
        match_points=spec.match_points,
        tiebreaks=spec.tiebreaks,
        lots_seed=lots_seed,
        engines=dict(ENGINE_VERSIONS),
        stages=spec.stages,
        round_robin_order=spec.round_robin_order,
        knockout_seeding=spec.knockout_seeding,
        registration_closes_at=spec.registration_closes_at,
        late_join_until_round=spec.late_join_until_round,
        check_in=spec.check_in,
        round_starts=spec.round_starts,
        grace_minutes=spec.grace_minutes,
        bots_for_no_shows=spec.bots_for_no_shows,
        bot_level=spec.bot_level,
        spectator_delay_tricks=spec.spectator_delay_tricks,
        duplicate=spec.duplicate,
    )
    payload = settings.as_payload()
    # Typed by its creator; a division's default name also holds its league's name,
    # typed by ``named`` (the league's creator).
    payload["name"] = ev.typed(settings.name, ev.typist(actor), named)
    return [ev.competition_created(payload, actor)]
