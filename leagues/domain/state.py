"""A competition stream folded into plain values.

:class:`CompetitionState` is what every decision checks against and what the
projections and selectors read; :meth:`CompetitionState.competition` gives the pure
core's :class:`~leagues.core.competition.Competition`, so the platform, a competition
file and an auditor's re-derivation share one set of rules.  The fold trusts the
events' shape (only the builders of :mod:`leagues.domain.events` write them, each
checked against its schema) but keeps no field it does not understand, and reads every
schema version ever written.

Names and reasons people typed are kept out of the payloads by reference
(``leagues.domain.events.TYPED_FIELDS``): the fold shows them through ``texts``, a lookup
its reader made in one query (``eventstore.erasable_store.texts_of`` over
``events.typed_values``); without one a reference reads as ``""`` and a plain string (an
event stored before its field was erasable) as itself. The projections fold without it:
nothing they store holds a name.

Only *entered* entrants are in :attr:`CompetitionState.entrants` (and so in the core's
competition: paired, ranked, exported). A partnership registered by someone else is an
:class:`Invitation` until each of its two players has accepted it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Protocol

from leagues.core.competition import Competition, PairedRound
from leagues.core.entrants import Entrant
from leagues.core.pairings import ForbiddenPair, RoundPairing, forbidden_pair, round_from_dict
from leagues.core.results import Award, MatchResult, Side

from . import events as ev
from .settings import CompetitionSettings

#: A typed field's stored value -> its text (``eventstore.erasable_store.TextLookup``).
TextOf = Callable[[object], str]


def unresolved(value: object) -> str:
    """A typed value read with no lookup: a plain string as itself, a reference as ``""``."""
    return value if isinstance(value, str) else ""


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
    # As the event holds it (text or reference): the entrant it becomes refers to the
    # same text rather than copying it out.
    stored_name: object = ""


@dataclass(frozen=True, slots=True)
class OpenPartnership:
    """A player who came in by the competition's invitation link, waiting for a partner
    (``digest``: their partner link's, see ``events.partnership_opened``)."""

    id: str
    player: str
    digest: str


@dataclass(frozen=True, slots=True)
class Invitation:
    """A partnership registered by someone else, waiting for its players' answers.

    ``entrant`` is the entrant it becomes (its ``joined_round`` is the one planned: a
    late entrant's, or 1); ``awaiting`` the players (of its two) who have not accepted.
    """

    entrant: Entrant
    awaiting: frozenset[str]


@dataclass(frozen=True, slots=True)
class ResultInfo:
    """What a result event says beyond the core's :class:`MatchResult`."""

    source: str  # "table", "scoresheet", "organiser", "forfeit", "correction"
    table_id: str | None = None
    organiser: int | None = None
    reason: str = ""
    scoresheet: dict[str, Any] | None = None
    hands: int | None = None

    @property
    def typed_in(self) -> bool:
        """Entered by an organiser (a result, a scoresheet or a correction), not played
        at one of the competition's tables: it needs both sides' confirmation."""
        return self.source in ("organiser", "scoresheet", "correction")


@dataclass(frozen=True, slots=True)
class ForbiddenInfo:
    """Who forbade a pair to meet, and why (the typed reason, resolved)."""

    organiser: int
    reason: str


@dataclass(frozen=True, slots=True)
class Override:
    """A round whose pairing the organiser replaced: the ``computed`` pairing (the one
    ``RoundPaired`` committed to, which still verifies), who replaced it and why."""

    computed: RoundPairing
    organiser: int
    reason: str


def _entrant(data: Mapping[str, Any], name: str, joined_round: int = 1) -> Entrant:
    players = data["players"]
    return Entrant(
        id=str(data["entrant_id"]),
        players=(str(players[0]), str(players[1])),
        reserve=None if data.get("reserve") is None else str(data["reserve"]),
        rating=int(data.get("rating", 0)),
        name=name,
        joined_round=joined_round,
    )


def _site_rated(type_: str, version: int, data: Mapping[str, Any]) -> bool:
    """Whether a result counts for the site ratings pool as recorded (a confirmation may
    make a typed-in one count later). v2: the event says so. v1 said only "not flagged",
    so a v1 result counts when it was played at a table by the entrants' own players."""
    if data.get("forfeited_by") is not None or data.get("bot_substitute"):
        return False
    if version >= 2:
        return bool(data.get("rated", False))
    return (
        type_ == ev.MATCH_RESULT_RECORDED
        and bool(data.get("rated", True))
        and data.get("source") == "table"
    )


def _result(
    type_: str, version: int, data: Mapping[str, Any], sequence: int, corrects: str | None = None
) -> MatchResult:
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
        sequence=sequence,
        forfeited_by=data.get("forfeited_by"),
        no_show=bool(data.get("no_show", False)),
        bot_substitute=bool(data.get("bot_substitute", False)),
        corrects=corrects,
        rated=_site_rated(type_, version, data),
    )


@dataclass(slots=True)
class DuplicateRound:
    """A duplicate round's boards as its events say: committed, results, par, revealed.

    ``results`` and ``pars`` are folded as soon as they are recorded; what may be *shown*
    of them before the boards are revealed is the selectors' business
    (``leagues.selectors.duplicate``): nothing.
    """

    number: int
    round_commitment: str
    movement: str
    boards: list[dict[str, Any]]
    results: list[dict[str, Any]] = field(default_factory=list)
    pars: dict[int, dict[str, Any]] = field(default_factory=dict)
    par_versions: dict[int, str] = field(default_factory=dict)
    round_seed: str | None = None
    revealed: dict[int, dict[str, Any]] = field(default_factory=dict)
    # How many of its board results an organiser corrected (BoardResultCorrected); a
    # corrected result in ``results`` carries ``corrected`` (by whom, why).
    corrections: int = 0

    @property
    def is_revealed(self) -> bool:
        """Whether the round seed is out (``BoardsRevealed``: every board, bound to it)."""
        return self.round_seed is not None

    def board_revealed(self, board: int) -> bool:
        """Whether board ``board`` is out: alone (``BoardRevealed``) or with its round."""
        return board in self.revealed

    @property
    def board_numbers(self) -> list[int]:
        return [int(board["board"]) for board in self.boards]

    def par_net(self, board: int) -> Fraction | None:
        """Board ``board``'s par net (par North-South minus East-West, averaged over the
        plays; exact), or None without a par yet. Whether it may be shown is not asked."""
        published = self.pars.get(board)
        if published is None:
            return None
        plays = len(published["plays"])
        return Fraction(published["north_south_total"] - published["east_west_total"], plays)


@dataclass(slots=True)
class CompetitionState:
    """Everything a competition's events say, as of ``version``."""

    version: int = 0
    head_hash: str | None = None
    settings: CompetitionSettings | None = None
    entrants: dict[str, Entrant] = field(default_factory=dict)
    invitations: dict[str, Invitation] = field(default_factory=dict)
    # Players who agreed to play here: registered themselves, proposed or confirmed a
    # partnership, or accepted an invitation (as a player, reserve or substitute).
    consented: set[str] = field(default_factory=set)
    proposals: dict[str, Proposal] = field(default_factory=dict)
    # The live invitation link: (link id, digest of its secret); None: none or revoked.
    entry_link: tuple[str, str] | None = None
    open_partnerships: dict[str, OpenPartnership] = field(default_factory=dict)
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
    # result id -> side -> the player who confirmed it (ResultConfirmed)
    confirmations: dict[str, dict[str, str]] = field(default_factory=dict)
    awards: list[Award] = field(default_factory=list)
    no_shows: list[dict[str, Any]] = field(default_factory=list)
    stage: int = 0
    finished: bool = False
    # The pairs the organiser forbade to meet (ids sorted), and the set as each round
    # was paired (what its engine input was built from).
    forbidden: dict[ForbiddenPair, ForbiddenInfo] = field(default_factory=dict)
    forbidden_at: dict[int, tuple[ForbiddenPair, ...]] = field(default_factory=dict)
    # round -> the organiser's override of its pairing (RoundPairingOverridden)
    overrides: dict[int, Override] = field(default_factory=dict)
    # round -> its boards (a duplicate competition's rounds only)
    duplicate: dict[int, DuplicateRound] = field(default_factory=dict)
    # The typed fields' texts (see the module); set before events that refer to new
    # texts are applied.
    texts: TextOf = unresolved

    @classmethod
    def fold(cls, events: Iterable[EventLike], texts: TextOf = unresolved) -> CompetitionState:
        state = cls(texts=texts)
        for event in events:
            state.apply(event)
        return state

    @property
    def exists(self) -> bool:
        return self.settings is not None

    @property
    def competition_id(self) -> str:
        return "" if self.settings is None else self.settings.competition_id

    @property
    def organisers(self) -> list[int]:
        return [] if self.settings is None else list(self.settings.organisers)

    def apply(self, event: EventLike) -> None:
        handler = _HANDLERS.get(event.type)
        if handler is not None:
            handler(self, event.type, getattr(event, "schema_version", 1), event)
        self.version = event.version
        stored_hash = getattr(event, "hash", None)
        self.head_hash = stored_hash if isinstance(stored_hash, str) else None

    # ------------------------------------------------------------ reading

    def competition(self) -> Competition:
        """The core value: seeds revealed for closed rounds only."""
        if self.settings is None:
            raise ValueError("the competition has no CompetitionCreated event")
        return Competition(
            self.settings.core,
            tuple(self.entrants.values()),
            tuple(self.rounds),
            tuple(self.results),
            tuple(self.awards),
            forbidden=tuple(sorted(self.forbidden)),
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
        """The entrant (or invitation) the player is in: as a registered player or
        reserve, or as anyone who came in as its substitute (a player is in one entrant
        of a competition)."""
        for entrant in (*self.entrants.values(), *(i.entrant for i in self.invitations.values())):
            if player in (*entrant.players, entrant.reserve):
                return entrant.id
        for entrant_id, changes in self.substitutions.items():
            if any(into == player for _, _, into in changes):
                return entrant_id
        return None

    def partnership_of(self, player: str) -> OpenPartnership | None:
        """The open partnership (waiting for a partner) the player came in with, if any."""
        for partnership in self.open_partnerships.values():
            if partnership.player == player:
                return partnership
        return None

    def awaiting(self, entrant_id: str) -> list[str]:
        """The people named in the entrant (or invitation) whose answer is awaited: its
        players until they accept, then a reserve or substitute who has not."""
        invitation = self.invitations.get(entrant_id)
        entrant = invitation.entrant if invitation else self.entrants.get(entrant_id)
        if entrant is None:
            return []
        named = [*entrant.players, *([entrant.reserve] if entrant.reserve else [])]
        named += [into for _, _, into in self.substitutions.get(entrant_id, [])]
        return [p for p in dict.fromkeys(named) if p not in self.consented]

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


def _created(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    state.settings = CompetitionSettings.from_payload(
        {**data, "name": state.texts(data.get("name", ""))}
    )


def _enter(state: CompetitionState, entrant: Entrant, sequence: int) -> None:
    state.entrants[entrant.id] = entrant
    for missed in range(1, entrant.joined_round):
        state.awards.append(
            Award(f"late_join:{missed}:{entrant.id}", missed, entrant.id, "late_join", sequence)
        )


def _registered(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    late = type_ == ev.ENTRANT_LATE_JOINED
    entrant = _entrant(
        data,
        state.texts(data.get("name", "")),
        joined_round=int(data["joined_round"]) if late else 1,
    )
    named = [*entrant.players, *([entrant.reserve] if entrant.reserve else [])]
    invited = {str(p) for p in data.get("invited", [])}  # v1: nobody (entered at once)
    state.consented.update(p for p in named if p not in invited)
    awaiting = frozenset(invited & set(entrant.players))
    if awaiting:
        state.invitations[entrant.id] = Invitation(entrant, awaiting)
    else:
        _enter(state, entrant, event.version)
    if data.get("proposal_id"):
        state.proposals.pop(str(data["proposal_id"]), None)
        state.open_partnerships.pop(str(data["proposal_id"]), None)


def _accepted(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    player = str(data["player"])
    state.consented.add(player)
    invitation = state.invitations.get(str(data["entrant_id"]))
    if invitation is None:
        return
    if data.get("joined_round") is None:
        state.invitations[invitation.entrant.id] = replace(
            invitation, awaiting=invitation.awaiting - {player}
        )
        return
    del state.invitations[invitation.entrant.id]
    _enter(
        state, replace(invitation.entrant, joined_round=int(data["joined_round"])), event.version
    )


def _declined(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    entrant_id, player = str(event.data["entrant_id"]), str(event.data["player"])
    invitation = state.invitations.get(entrant_id)
    if invitation is not None and player in invitation.entrant.players:
        del state.invitations[entrant_id]
    elif invitation is not None and invitation.entrant.reserve == player:
        state.invitations[entrant_id] = replace(
            invitation, entrant=replace(invitation.entrant, reserve=None)
        )
    elif entrant_id in state.entrants and state.entrants[entrant_id].reserve == player:
        state.entrants[entrant_id] = replace(state.entrants[entrant_id], reserve=None)


def _proposed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    state.proposals[str(data["proposal_id"])] = Proposal(
        str(data["proposal_id"]),
        str(data["player"]),
        str(data["partner"]),
        state.texts(data.get("name", "")),
        data.get("name", ""),
    )


def _confirmed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.proposals.pop(str(event.data["proposal_id"]), None)


def _withdrawn(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    entrant_id = str(event.data["entrant_id"])
    if state.invitations.pop(entrant_id, None) is not None:
        return  # an invitation withdrawn before it was accepted: it never played
    state.entrants[entrant_id] = replace(
        state.entrants[entrant_id], withdrawn_after_round=int(event.data["after_round"])
    )


def _substituted(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    state.substitutions.setdefault(str(data["entrant_id"]), []).append(
        (int(data["from_round"]), str(data["player_out"]), str(data["player_in"]))
    )


def _checked_in(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.checked_in.setdefault(int(event.data["round"]), set()).add(str(event.data["entrant_id"]))


def _paired(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
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
    state.forbidden_at[pairing.number] = tuple(sorted(state.forbidden))
    _award_byes(state, pairing)


def _award_byes(state: CompetitionState, pairing: RoundPairing) -> None:
    for entrant in pairing.byes:
        # A round robin keeps a withdrawn entrant's slot: its bye there is worth nothing.
        if state.entrants[entrant].active_in(pairing.number):
            state.awards.append(Award(f"bye:{pairing.number}:{entrant}", pairing.number, entrant))


def _overridden(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    """The organiser's pairing is the round's from here (standings, the next rounds'
    histories, tables); the computed one is kept for verification."""
    data = event.data
    pairing = round_from_dict(data["pairing"])
    number = pairing.number
    paired = state.rounds[number - 1]
    earlier = state.overrides.get(number)
    state.overrides[number] = Override(
        computed=paired.pairing if earlier is None else earlier.computed,
        organiser=int(data["organiser"]),
        reason=state.texts(data.get("reason", "")),
    )
    state.rounds[number - 1] = replace(paired, pairing=pairing)
    prefix = f"bye:{number}:"
    state.awards = [a for a in state.awards if not a.id.startswith(prefix)]
    _award_byes(state, pairing)


def _forbidden(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    first, second = (str(x) for x in event.data["entrants"])
    pair = forbidden_pair(first, second)
    if type_ == ev.FORBIDDEN_PAIR_ADDED:
        state.forbidden[pair] = ForbiddenInfo(
            int(event.data["organiser"]), state.texts(event.data.get("reason", ""))
        )
    else:
        state.forbidden.pop(pair, None)


def _started(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    number = int(data["round"])
    state.started.add(number)
    state.tables[number] = {int(t["board"]): str(t["table_id"]) for t in data["tables"]}
    if data.get("opened_at"):
        state.opened_at[number] = str(data["opened_at"])


def _arrived(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    boards = state.arrived.setdefault(int(event.data["round"]), {})
    boards.setdefault(int(event.data["board"]), set()).add(str(event.data["player"]))


_SOURCES = {
    ev.MATCH_RESULT_RECORDED: "organiser",
    ev.MATCH_FORFEITED: "forfeit",
    ev.RESULT_CORRECTED: "correction",
}


def _result_event(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    corrects = str(data["corrects"]) if type_ == ev.RESULT_CORRECTED else None
    state.results.append(_result(type_, version, data, event.version, corrects))
    organiser = data.get("organiser")
    state.result_info[str(data["result_id"])] = ResultInfo(
        # A correction's source is "correction" whatever it says; a result's is its own.
        source=str(data.get("source", _SOURCES[type_]))
        if type_ == ev.MATCH_RESULT_RECORDED
        else _SOURCES[type_],
        table_id=data.get("table_id"),
        organiser=None if organiser is None else int(organiser),
        reason=state.texts(data.get("reason", "")),
        scoresheet=data.get("scoresheet"),
        hands=data.get("hands"),
    )


def _result_confirmed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    result_id = str(data["result_id"])
    state.confirmations.setdefault(result_id, {})[str(data["side"])] = str(data["player"])
    if data.get("rated"):
        state.results = [
            replace(result, rated=True) if result.id == result_id else result
            for result in state.results
        ]


def _no_show(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.no_shows.append(dict(event.data))


def _closed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    number = int(event.data["round"])
    state.closed.add(number)
    state.rounds[number - 1] = replace(state.rounds[number - 1], seed=str(event.data["seed"]))


def _stage_advanced(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.stage = int(event.data["stage"])


def _finished(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.finished = True


def _link_issued(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.entry_link = (str(event.data["link_id"]), str(event.data["digest"]))


def _link_revoked(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    if state.entry_link is not None and state.entry_link[0] == str(event.data["link_id"]):
        state.entry_link = None


def _partnership_opened(
    state: CompetitionState, type_: str, version: int, event: EventLike
) -> None:
    data = event.data
    player = str(data["player"])
    state.consented.add(player)
    state.open_partnerships[str(data["partnership_id"])] = OpenPartnership(
        str(data["partnership_id"]), player, str(data["digest"])
    )


def _partner_joined(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.consented.add(str(event.data["partner"]))


def _partnership_closed(
    state: CompetitionState, type_: str, version: int, event: EventLike
) -> None:
    state.open_partnerships.pop(str(event.data["partnership_id"]), None)


def _boards_committed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    data = event.data
    number = int(data["round"])
    state.duplicate[number] = DuplicateRound(
        number=number,
        round_commitment=str(data["round_commitment"]),
        movement=str(data["movement"]),
        boards=[dict(board) for board in data["boards"]],
    )


def _board_result(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    state.duplicate[int(event.data["round"])].results.append(dict(event.data))


def _board_corrected(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    """The table's result on the board becomes the correction's (the recorded one stays in
    the stream); ``corrected`` says by whom, why and which correction it is."""
    data = event.data
    found = state.duplicate[int(data["round"])]
    key = (int(data["table"]), int(data["board"]))
    corrected = {
        **{k: data[k] for k in _BOARD_RESULT_KEYS},
        "corrected": {
            "correction": int(data["correction"]),
            "organiser": int(data["organiser"]),
            "reason": state.texts(data["reason"]),
        },
    }
    found.results = [
        corrected if (int(r["table"]), int(r["board"])) == key else r for r in found.results
    ]
    found.corrections += 1


_BOARD_RESULT_KEYS = (
    "round",
    "board",
    "table",
    "table_id",
    "north_south",
    "east_west",
    "bids",
    "blind",
    "tricks",
    "score",
)


def _board_par(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    found = state.duplicate[int(event.data["round"])]
    board = int(event.data["par"]["board"])
    found.pars[board] = dict(event.data["par"])
    found.par_versions[board] = str(event.data["bot_version"])


def _boards_revealed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    found = state.duplicate[int(event.data["round"])]
    found.round_seed = str(event.data["round_seed"])
    found.revealed = {int(board["board"]): dict(board) for board in event.data["boards"]}


def _board_revealed(state: CompetitionState, type_: str, version: int, event: EventLike) -> None:
    found = state.duplicate[int(event.data["round"])]
    board = {key: value for key, value in event.data.items() if key != "round"}
    found.revealed[int(board["board"])] = board


_HANDLERS = {
    ev.BOARDS_COMMITTED: _boards_committed,
    ev.BOARD_RESULT_RECORDED: _board_result,
    ev.BOARD_PAR_COMPUTED: _board_par,
    ev.BOARD_RESULT_CORRECTED: _board_corrected,
    ev.BOARDS_REVEALED: _boards_revealed,
    ev.BOARD_REVEALED: _board_revealed,
    ev.COMPETITION_CREATED: _created,
    ev.ENTRANT_REGISTERED: _registered,
    ev.ENTRANT_LATE_JOINED: _registered,
    ev.INVITATION_ACCEPTED: _accepted,
    ev.INVITATION_DECLINED: _declined,
    ev.PARTNERSHIP_PROPOSED: _proposed,
    ev.PARTNERSHIP_CONFIRMED: _confirmed,
    ev.ENTRANT_WITHDRAWN: _withdrawn,
    ev.ENTRANT_SUBSTITUTED: _substituted,
    ev.ENTRANT_CHECKED_IN: _checked_in,
    ev.ROUND_PAIRED: _paired,
    ev.ROUND_STARTED: _started,
    ev.MATCH_RESULT_RECORDED: _result_event,
    ev.MATCH_FORFEITED: _result_event,
    ev.RESULT_CORRECTED: _result_event,
    ev.RESULT_CONFIRMED: _result_confirmed,
    ev.NO_SHOW_RECORDED: _no_show,
    ev.PLAYER_ARRIVED: _arrived,
    ev.ROUND_CLOSED: _closed,
    ev.STAGE_ADVANCED: _stage_advanced,
    ev.FORBIDDEN_PAIR_ADDED: _forbidden,
    ev.FORBIDDEN_PAIR_REMOVED: _forbidden,
    ev.ROUND_PAIRING_OVERRIDDEN: _overridden,
    ev.COMPETITION_FINISHED: _finished,
    ev.ENTRY_LINK_ISSUED: _link_issued,
    ev.ENTRY_LINK_REVOKED: _link_revoked,
    ev.PARTNERSHIP_OPENED: _partnership_opened,
    ev.PARTNER_JOINED: _partner_joined,
    ev.PARTNERSHIP_CLOSED: _partnership_closed,
}
