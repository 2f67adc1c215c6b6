"""A competition's settings as one typed value: everything ``CompetitionCreated`` pins.

:class:`CompetitionSettings` is what the decisions, services, selectors and projections
read (``state.settings``), never the raw payload; :meth:`CompetitionSettings.core` is
the pure core's :class:`~leagues.core.competition.Settings` (what a competition file
carries too). A ``CompetitionCreated`` of any age folds into it: a field an older
payload lacks takes the value competitions had before the field existed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from leagues.core.competition import Settings
from leagues.core.results import MatchFormat, MatchPoints
from leagues.core.stages import Stage

Kind = Literal["tournament", "season"]
KINDS: tuple[Kind, ...] = ("tournament", "season")
ROUND_ROBIN_ORDERS = ("lots", "as_listed")
KNOCKOUT_SEEDINGS = ("rating", "manual")
BOT_LEVELS = ("easy", "normal", "hard")
POINTS_FIELDS = ("win", "draw", "loss", "bye", "late_join", "forfeit_loss")
DEFAULT_GRACE_MINUTES = 10
#: Duplicate play (docs/leagues.md, "Duplicate competitions"): the movements offered and
#: the scales a duplicate competition ranks by.
DUPLICATE_MOVEMENTS = ("teams_of_four", "mitchell", "mitchell_arrow_switch")
DUPLICATE_SCALES = ("matchpoints", "imps")
MAX_BOARDS_PER_ROUND = 36  # a long bridge session; each board is ~5 minutes of play
MAX_PAR_PLAYS = 8  # Hard costs about a second of one core a play (docs/benchmarks.md)
DEFAULT_PAR_PLAYS = 4


@dataclass(frozen=True, slots=True)
class DuplicateSettings:
    """A duplicate competition: every table of a round deals the round's boards.

    ``boards_per_round`` boards a round (each table's game is that many hands),
    ``movement`` how the round's tables are seated and compared, ``scale`` what the
    standings add up (matchpoints or IMPs), ``par_plays`` the seeded plays of the pinned
    par level a board's par averages. The organiser chooses them at creation.
    """

    boards_per_round: int
    movement: str = "mitchell"
    scale: str = "matchpoints"
    par_plays: int = DEFAULT_PAR_PLAYS

    @classmethod
    def from_payload(cls, data: Mapping[str, Any] | None) -> DuplicateSettings | None:
        if not data:
            return None
        return cls(
            boards_per_round=int(data["boards_per_round"]),
            movement=str(data.get("movement", "mitchell")),
            scale=str(data.get("scale", "matchpoints")),
            par_plays=int(data.get("par_plays", DEFAULT_PAR_PLAYS)),
        )

    def as_payload(self) -> dict[str, Any]:
        return {
            "boards_per_round": self.boards_per_round,
            "movement": self.movement,
            "scale": self.scale,
            "par_plays": self.par_plays,
        }


@dataclass(frozen=True, slots=True)
class RulesPin:
    """The rule preset *version* a competition pins: its name, version, the overrides
    the organiser gave and the full rules snapshot (what every table and scoresheet of
    the competition is played and scored under)."""

    preset: str
    version: int | None
    overrides: Mapping[str, Any] = field(default_factory=dict)
    snapshot: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> RulesPin:
        version = data.get("version")
        return cls(
            preset=str(data.get("preset", "standard")),
            version=None if version is None else int(version),
            overrides=dict(data.get("overrides") or {}),
            snapshot=dict(data.get("snapshot") or {}),
        )

    def as_payload(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "version": self.version,
            "overrides": dict(self.overrides),
            "snapshot": dict(self.snapshot),
        }

    @property
    def table_spec(self) -> dict[str, Any]:
        """The rules a table is created with: the preset and the overrides."""
        return {"preset": self.preset, **self.overrides}


def _moment(value: object) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) and value else None


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


@dataclass(frozen=True, slots=True)
class CompetitionSettings:
    """What a competition pins at creation (docs/leagues.md says what each one does)."""

    competition_id: str
    name: str
    organisers: tuple[int, ...]
    rules: RulesPin
    lots_seed: str
    kind: Kind = "tournament"
    league_id: str | None = None
    season: str | None = None
    division: str | None = None
    match_format: MatchFormat = field(default_factory=MatchFormat)
    match_points: MatchPoints = field(default_factory=MatchPoints)
    tiebreaks: tuple[str, ...] = ()
    engines: Mapping[str, int] = field(default_factory=dict)
    stages: tuple[Stage, ...] = ()
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
    duplicate: DuplicateSettings | None = None

    @property
    def core(self) -> Settings:
        """The pure core's settings (standings, pairings, a competition file)."""
        return Settings(
            id=self.competition_id,
            name=self.name,
            stages=self.stages,
            match_points=self.match_points,
            match_format=self.match_format,
            tiebreaks=self.tiebreaks,
            lots_seed=self.lots_seed,
            round_robin_order=self.round_robin_order,
            knockout_seeding=self.knockout_seeding,
        )

    @property
    def bots_play(self) -> bool:
        """Bots play every seat (an all-bot competition has no presence and no ratings)."""
        return self.bot_level is not None

    def round_start(self, number: int) -> datetime | None:
        """The start time set for round ``number``, if any."""
        if 1 <= number <= len(self.round_starts):
            return self.round_starts[number - 1]
        return None

    @classmethod
    def from_payload(cls, data: Mapping[str, Any]) -> CompetitionSettings:
        """The settings a ``CompetitionCreated`` payload pins (any schema version)."""
        stages = tuple(
            Stage(
                kind=s["kind"],
                rounds=int(s.get("rounds", 0)),
                advance=s.get("advance"),
                double=bool(s.get("double", False)),
                reset=bool(s.get("reset", False)),
            )
            for s in data["stages"]
        )
        level = data.get("bot_level")
        return cls(
            competition_id=str(data["competition_id"]),
            name=str(data.get("name", "")),
            kind="season" if data.get("kind") == "season" else "tournament",
            league_id=data.get("league_id") or None,
            season=data.get("season") or None,
            division=data.get("division") or None,
            organisers=tuple(int(user) for user in data.get("organisers", [])),
            rules=RulesPin.from_payload(data.get("rules") or {}),
            match_format=MatchFormat((data.get("match_format") or {}).get("fixed_hands")),
            match_points=MatchPoints(**data["match_points"]),
            tiebreaks=tuple(data["tiebreaks"]),
            lots_seed=str(data["lots_seed"]),
            engines={str(k): int(v) for k, v in (data.get("engines") or {}).items()},
            stages=stages,
            round_robin_order=str(data.get("round_robin_order", "lots")),
            knockout_seeding=str(data.get("knockout_seeding", "rating")),
            registration_closes_at=_moment(data.get("registration_closes_at")),
            late_join_until_round=int(data.get("late_join_until_round", 0)),
            check_in=bool(data.get("check_in", False)),
            round_starts=tuple(_moment(t) for t in data.get("round_starts") or []),
            grace_minutes=int(data.get("grace_minutes", DEFAULT_GRACE_MINUTES)),
            bots_for_no_shows=bool(data.get("bots_for_no_shows", False)),
            bot_level=str(level) if level else None,
            spectator_delay_tricks=int(data.get("spectator_delay_tricks", 0)),
            # Before CompetitionCreated v3 no competition was duplicate.
            duplicate=DuplicateSettings.from_payload(data.get("duplicate")),
        )

    def as_payload(self) -> dict[str, Any]:
        """The ``CompetitionCreated`` payload (and the overview's ``settings``)."""
        return {
            "competition_id": self.competition_id,
            "name": self.name,
            "kind": self.kind,
            "league_id": self.league_id,
            "season": self.season,
            "division": self.division,
            "organisers": list(self.organisers),
            "rules": self.rules.as_payload(),
            "match_format": {"fixed_hands": self.match_format.fixed_hands},
            "match_points": {key: getattr(self.match_points, key) for key in POINTS_FIELDS},
            "tiebreaks": list(self.tiebreaks),
            "lots_seed": self.lots_seed,
            "engines": dict(self.engines),
            "stages": [stage.as_dict() for stage in self.stages],
            "round_robin_order": self.round_robin_order,
            "knockout_seeding": self.knockout_seeding,
            "registration_closes_at": _iso(self.registration_closes_at),
            "late_join_until_round": self.late_join_until_round,
            "check_in": self.check_in,
            "round_starts": [_iso(t) for t in self.round_starts],
            "grace_minutes": self.grace_minutes,
            "bots_for_no_shows": self.bots_for_no_shows,
            "bot_level": self.bot_level,
            "spectator_delay_tricks": self.spectator_delay_tricks,
            "duplicate": None if self.duplicate is None else self.duplicate.as_payload(),
        }
