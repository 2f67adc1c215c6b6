"""A competition stream folded into plain values.

:class:`CompetitionState` is what every decision checks against and what the
projections and selectors read; :meth:`CompetitionState.competition` gives the pure
core's :class:`~leagues.core.competition.Competition`, so the platform, a competition
file and an auditor's re-derivation share one set of rules.  The fold trusts the
events' shape (only :mod:`leagues.domain.decisions` writes them) but keeps no field it
does not understand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from leagues.core.competition import Competition, PairedRound, Settings
from leagues.core.entrants import Entrant
from leagues.core.pairings import round_from_dict
from leagues.core.results import Award, MatchFormat, MatchPoints, MatchResult, Side
from leagues.core.stages import Stage

from . import events as ev


class EventLike(Protocol):
    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def data(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Proposal:
    id: str
    player: str
    partner: str
    name: str


@dataclass(frozen=True, slots=True)
class ResultInfo:
    """What a result event says beyond the core's :class:`MatchResult`."""

    source: str  # "table", "scoresheet", "organiser", "forfeit", "correction"
    table_id: str | None = None
    organiser: int | None = None
    reason: str = ""
    scoresheet: dict[str, Any] | None = None
    hands: int | None = None


def settings_of(data: Mapping[str, Any]) -> Settings:
    """The core settings a ``CompetitionCreated`` payload pins."""
    return Settings(
        id=str(data["competition_id"]),
        name=str(data.get("name", "")),
        stages=tuple(
            Stage(
                kind=s["kind"],
                rounds=int(s.get("rounds", 0)),
                advance=s.get("advance"),
                double=bool(s.get("double", False)),
                reset=bool(s.get("reset", False)),
            )
            for s in data["stages"]
        ),
        match_points=MatchPoints(**data["match_points"]),
        match_format=MatchFormat(data["match_format"].get("fixed_hands")),
        tiebreaks=tuple(data["tiebreaks"]),
        lots_seed=str(data["lots_seed"]),
        round_robin_order=str(data.get("round_robin_order", "lots")),
        knockout_seeding=str(data.get("knockout_seeding", "rating")),
    )


def _entrant(data: Mapping[str, Any], joined_round: int = 1) -> Entrant:
    players = data["players"]
    return Entrant(
        id=str(data["entrant_id"]),
        players=(str(players[0]), str(players[1])),
        reserve=None if data.get("reserve") is None else str(data["reserve"]),
        rating=int(data.get("rating", 0)),
        name=str(data.get("name", "")),
        joined_round=joined_round,
    )


def _result(version: int, data: Mapping[str, Any], corrects: str | None = None) -> MatchResult:
    points = data.get("points") or {"north_south": 0, "east_west": 0}
    winner: Side | None = data.get("winner")
    return MatchResult(
        id=str(data["result_id"]),
        round=int(data["round"]),
        board=int(data["board"]),
        north_south=str(data["north_south"]),
        east_west=str(data["east_west"]),
        north_south_points=int(points["north_south"]),
        east_west_points=int(points["east_west"]),
        winner=winner,
        sequence=version,
        forfeited_by=data.get("forfeited_by"),
        no_show=bool(data.get("no_show", False)),
        bot_substitute=bool(data.get("bot_substitute", False)),
        corrects=corrects,
        rated=bool(data.get("rated", True)),
    )


@dataclass(slots=True)
class CompetitionState:
    """Everything a competition's events say, as of ``version``."""

    version: int = 0
    head_hash: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    settings: Settings | None = None
    entrants: dict[str, Entrant] = field(default_factory=dict)
    proposals: dict[str, Proposal] = field(default_factory=dict)
    checked_in: dict[int, set[str]] = field(default_factory=dict)
    # entrant -> [(from_round, player_out, player_in)]
    substitutions: dict[str, list[tuple[int, str, str]]] = field(default_factory=dict)
    rounds: list[PairedRound] = field(default_factory=list)
    tables: dict[int, dict[int, str]] = field(default_factory=dict)
    started: set[int] = field(default_factory=set)
    # round -> when its tables opened (ISO; absent for a v1 RoundStarted)
    opened_at: dict[int, str] = field(default_factory=dict)
    # round -> board -> the players who arrived at the table (PlayerArrived)
    arrived: dict[int, dict[int, set[str]]] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)
    results: list[MatchResult] = field(default_factory=list)
    result_info: dict[str, ResultInfo] = field(default_factory=dict)
    awards: list[Award] = field(default_factory=list)
    no_shows: list[dict[str, Any]] = field(default_factory=list)
    stage: int = 0
    finished: bool = False

    @classmethod
    def fold(cls, events: Iterable[EventLike]) -> CompetitionState:
        state = cls()
        for event in events:
            state.apply(event)
        return state

    @property
    def exists(self) -> bool:
        return self.settings is not None

    @property
    def competition_id(self) -> str:
        return "" if self.settings is None else self.settings.id

    @property
    def organisers(self) -> list[int]:
        return [int(user) for user in self.config.get("organisers", [])]

    def apply(self, event: EventLike) -> None:
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            handler(self, event.version, event.data)
        self.version = event.version
        stored_hash = getattr(event, "hash", None)
        self.head_hash = stored_hash if isinstance(stored_hash, str) else None

    # ------------------------------------------------------------ reading

    def competition(self) -> Competition:
        """The core value: seeds revealed for closed rounds only."""
        if self.settings is None:
            raise ValueError("the competition has no CompetitionCreated event")
        return Competition(
            self.settings,
            tuple(self.entrants.values()),
            tuple(self.rounds),
            tuple(self.results),
            tuple(self.awards),
        )

    @property
    def last_round(self) -> int:
        return self.rounds[-1].number if self.rounds else 0

    def paired_round(self, number: int) -> PairedRound | None:
        if 1 <= number <= len(self.rounds):
            return self.rounds[number - 1]
        return None

    def reported_boards(self, number: int) -> set[int]:
        return {r.board for r in self.results if r.round == number}

    def result_of(self, result_id: str) -> MatchResult | None:
        for result in self.results:
            if result.id == result_id:
                return result
        return None

    def entrant_of_player(self, player: str) -> str | None:
        """The entrant the player is in: as a registered player or reserve, or as anyone
        who came in as its substitute (a player is in one entrant of a competition)."""
        for entrant in self.entrants.values():
            people = (*entrant.players, entrant.reserve)
            if player in people:
                return entrant.id
        for entrant_id, changes in self.substitutions.items():
            if any(into == player for _, _, into in changes):
                return entrant_id
        return None

    def seating(self, round_number: int, board: int) -> dict[str, str]:
        """The player of each seat of a match: North-South entrant's players at north and
        south, East-West's at east and west (how ``services.tables`` seats them)."""
        paired = self.paired_round(round_number)
        pairing = (
            None
            if paired is None
            else next((p for p in paired.pairing.matches if p.board == board), None)
        )
        if pairing is None:
            return {}
        ns = self.players_in(pairing.north_south, round_number)
        ew = self.players_in(pairing.east_west, round_number)
        return {"north": ns[0], "east": ew[0], "south": ns[1], "west": ew[1]}

    def no_show_of(self, round_number: int, board: int) -> dict[str, Any] | None:
        for record in self.no_shows:
            if int(record["round"]) == round_number and int(record["board"]) == board:
                return record
        return None

    def players_in(self, entrant_id: str, round_number: int) -> tuple[str, str]:
        """Who plays for the entrant in ``round_number`` (substitutions applied in order)."""
        first, second = self.entrants[entrant_id].players
        for from_round, out, into in self.substitutions.get(entrant_id, []):
            if from_round <= round_number:
                if first == out:
                    first = into
                elif second == out:
                    second = into
        return first, second


# ---------------------------------------------------------------- handlers


def _created(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.config = dict(data)
    state.settings = settings_of(data)


def _registered(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.entrants[str(data["entrant_id"])] = _entrant(data)
    if data.get("proposal_id"):
        state.proposals.pop(str(data["proposal_id"]), None)


def _proposed(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.proposals[str(data["proposal_id"])] = Proposal(
        str(data["proposal_id"]), str(data["player"]), str(data["partner"]), str(data["name"])
    )


def _confirmed(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.proposals.pop(str(data["proposal_id"]), None)


def _withdrawn(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    entrant_id = str(data["entrant_id"])
    state.entrants[entrant_id] = replace(
        state.entrants[entrant_id], withdrawn_after_round=int(data["after_round"])
    )


def _late_joined(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    entrant = _entrant(data, joined_round=int(data["joined_round"]))
    state.entrants[entrant.id] = entrant
    for missed in range(1, entrant.joined_round):
        state.awards.append(
            Award(f"late_join:{missed}:{entrant.id}", missed, entrant.id, "late_join", version)
        )


def _substituted(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.substitutions.setdefault(str(data["entrant_id"]), []).append(
        (int(data["from_round"]), str(data["player_out"]), str(data["player_in"]))
    )


def _checked_in(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.checked_in.setdefault(int(data["round"]), set()).add(str(data["entrant_id"]))


def _paired(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    pairing = round_from_dict(data["pairing"])
    state.rounds.append(
        PairedRound(
            pairing=pairing,
            stage=int(data["stage"]),
            input=dict(data["input"]),
            commitment=str(data["commitment"]),
            results_version=int(data["results_version"]),
        )
    )
    for entrant in pairing.byes:
        # A round robin keeps a withdrawn entrant's slot: its bye there is worth nothing.
        if state.entrants[entrant].active_in(pairing.number):
            state.awards.append(Award(f"bye:{pairing.number}:{entrant}", pairing.number, entrant))


def _started(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    number = int(data["round"])
    state.started.add(number)
    state.tables[number] = {int(t["board"]): str(t["table_id"]) for t in data["tables"]}
    if data.get("opened_at"):
        state.opened_at[number] = str(data["opened_at"])


def _arrived(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    boards = state.arrived.setdefault(int(data["round"]), {})
    boards.setdefault(int(data["board"]), set()).add(str(data["player"]))


def _info(data: Mapping[str, Any], source: str) -> ResultInfo:
    organiser = data.get("organiser")
    return ResultInfo(
        source=str(data.get("source", source)),
        table_id=data.get("table_id"),
        organiser=None if organiser is None else int(organiser),
        reason=str(data.get("reason", "")),
        scoresheet=data.get("scoresheet"),
        hands=data.get("hands"),
    )


def _recorded(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.results.append(_result(version, data))
    state.result_info[str(data["result_id"])] = _info(data, "organiser")


def _forfeited(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.results.append(_result(version, data))
    state.result_info[str(data["result_id"])] = _info(data, "forfeit")


def _no_show(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.no_shows.append(dict(data))


def _corrected(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.results.append(_result(version, data, corrects=str(data["corrects"])))
    state.result_info[str(data["result_id"])] = _info(data, "correction")


def _closed(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    number = int(data["round"])
    state.closed.add(number)
    state.rounds[number - 1] = replace(state.rounds[number - 1], seed=str(data["seed"]))


def _stage_advanced(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.stage = int(data["stage"])


def _finished(state: CompetitionState, version: int, data: Mapping[str, Any]) -> None:
    state.finished = True


_HANDLERS = {
    ev.COMPETITION_CREATED: _created,
    ev.ENTRANT_REGISTERED: _registered,
    ev.PARTNERSHIP_PROPOSED: _proposed,
    ev.PARTNERSHIP_CONFIRMED: _confirmed,
    ev.ENTRANT_WITHDRAWN: _withdrawn,
    ev.ENTRANT_LATE_JOINED: _late_joined,
    ev.ENTRANT_SUBSTITUTED: _substituted,
    ev.ENTRANT_CHECKED_IN: _checked_in,
    ev.ROUND_PAIRED: _paired,
    ev.ROUND_STARTED: _started,
    ev.MATCH_RESULT_RECORDED: _recorded,
    ev.MATCH_FORFEITED: _forfeited,
    ev.NO_SHOW_RECORDED: _no_show,
    ev.PLAYER_ARRIVED: _arrived,
    ev.RESULT_CORRECTED: _corrected,
    ev.ROUND_CLOSED: _closed,
    ev.STAGE_ADVANCED: _stage_advanced,
    ev.COMPETITION_FINISHED: _finished,
}
