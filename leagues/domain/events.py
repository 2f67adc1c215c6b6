"""Competition and league events: names, schema versions, one builder each, payload checks.

Every payload is JSON the event store accepts (no floats); the catalogue with each
field is in ``docs/events.md`` (section "Leagues"). Each event has exactly one builder
here, and every builder checks its payload against the current schema
(:func:`validate_payload`: the exact field set and each field's shape), so a decision
cannot append a payload the fold does not understand. Older versions are not rebuilt,
only folded (``leagues.domain.state``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from eventstore.erasable import MAX_SUBJECTS, ErasableText, erasable, is_reference, user_subject
from eventstore.records import NewEvent

from .settings import (
    BOT_LEVELS,
    DUPLICATE_MOVEMENTS,
    DUPLICATE_SCALES,
    KINDS,
    KNOCKOUT_SEEDINGS,
    POINTS_FIELDS,
    ROUND_ROBIN_ORDERS,
)

COMPETITION_STREAM_PREFIX = "competition-"
LEAGUE_STREAM_PREFIX = "league-"

COMPETITION_CREATED = "CompetitionCreated"
ENTRANT_REGISTERED = "EntrantRegistered"
PARTNERSHIP_PROPOSED = "PartnershipProposed"
PARTNERSHIP_CONFIRMED = "PartnershipConfirmed"
INVITATION_ACCEPTED = "InvitationAccepted"
INVITATION_DECLINED = "InvitationDeclined"
ENTRANT_WITHDRAWN = "EntrantWithdrawn"
ENTRANT_LATE_JOINED = "EntrantLateJoined"
ENTRANT_SUBSTITUTED = "EntrantSubstituted"
ENTRANT_CHECKED_IN = "EntrantCheckedIn"
ROUND_PAIRED = "RoundPaired"
ROUND_STARTED = "RoundStarted"
MATCH_RESULT_RECORDED = "MatchResultRecorded"
MATCH_FORFEITED = "MatchForfeited"
NO_SHOW_RECORDED = "NoShowRecorded"
PLAYER_ARRIVED = "PlayerArrived"
RESULT_CORRECTED = "ResultCorrected"
RESULT_CONFIRMED = "ResultConfirmed"
ROUND_CLOSED = "RoundClosed"
STAGE_ADVANCED = "StageAdvanced"
FORBIDDEN_PAIR_ADDED = "ForbiddenPairAdded"
FORBIDDEN_PAIR_REMOVED = "ForbiddenPairRemoved"
ROUND_PAIRING_OVERRIDDEN = "RoundPairingOverridden"
COMPETITION_FINISHED = "CompetitionFinished"
ENTRY_LINK_ISSUED = "EntryLinkIssued"
ENTRY_LINK_REVOKED = "EntryLinkRevoked"
PARTNERSHIP_OPENED = "PartnershipOpened"
PARTNER_JOINED = "PartnerJoined"
PARTNERSHIP_CLOSED = "PartnershipClosed"
BOARDS_COMMITTED = "BoardsCommitted"
BOARDS_REVEALED = "BoardsRevealed"
BOARD_REVEALED = "BoardRevealed"
BOARD_RESULT_RECORDED = "BoardResultRecorded"
BOARD_PAR_COMPUTED = "BoardParComputed"
BOARD_RESULT_CORRECTED = "BoardResultCorrected"

LEAGUE_CREATED = "LeagueCreated"
SEASON_ADDED = "SeasonAdded"
DIVISIONS_ASSIGNED = "DivisionsAssigned"

#: The current schema version of every event type. Bumped on a changed payload; the
#: fold reads every version (docs/events.md says what each older one lacked):
#: - v2 RoundStarted: ``opened_at``, ``by``. v2 NoShowRecorded: ``seats``, ``players``,
#:   a meaningful ``bot``, ``level``.
#: - v2 EntrantRegistered / EntrantLateJoined: ``invited`` (whose answer is awaited) and
#:   an explicit ``proposal_id``; a v1 entrant was entered at once.
#: - v2 EntrantWithdrawn: ``player`` (who left; null: an organiser withdrew it).
#: - v2 MatchResultRecorded / ResultCorrected: ``rated`` means "counts for the site
#:   ratings pool" (played at a table by the entrants' own players, or confirmed by
#:   both sides). A v1 ``rated`` meant only "not flagged", so a v1 result counts for
#:   the site pool only when it came from a table.
#: - The fields of :data:`TYPED_FIELDS` (names and reasons people type) may hold a
#:   reference to an erasable text (``eventstore.erasable``) from CompetitionCreated v2,
#:   EntrantRegistered / EntrantLateJoined v3, PartnershipProposed v2,
#:   InvitationDeclined v2, EntrantWithdrawn v3, MatchForfeited v2, ResultCorrected v3
#:   and LeagueCreated v2; before, they held the text itself.
#: - v3 CompetitionCreated: ``duplicate`` (null, or a duplicate competition's settings);
#:   a v2 competition is not duplicate.
SCHEMA_VERSIONS: dict[str, int] = {
    COMPETITION_CREATED: 3,
    ENTRANT_REGISTERED: 3,
    PARTNERSHIP_PROPOSED: 2,
    PARTNERSHIP_CONFIRMED: 1,
    INVITATION_ACCEPTED: 1,
    INVITATION_DECLINED: 2,
    ENTRANT_WITHDRAWN: 3,
    ENTRANT_LATE_JOINED: 3,
    ENTRANT_SUBSTITUTED: 1,
    ENTRANT_CHECKED_IN: 1,
    ROUND_PAIRED: 1,
    ROUND_STARTED: 2,
    MATCH_RESULT_RECORDED: 2,
    MATCH_FORFEITED: 2,
    NO_SHOW_RECORDED: 2,
    PLAYER_ARRIVED: 1,
    RESULT_CORRECTED: 3,
    RESULT_CONFIRMED: 1,
    ROUND_CLOSED: 1,
    STAGE_ADVANCED: 1,
    FORBIDDEN_PAIR_ADDED: 1,
    FORBIDDEN_PAIR_REMOVED: 1,
    ROUND_PAIRING_OVERRIDDEN: 1,
    COMPETITION_FINISHED: 1,
    ENTRY_LINK_ISSUED: 1,
    ENTRY_LINK_REVOKED: 1,
    PARTNERSHIP_OPENED: 1,
    PARTNER_JOINED: 1,
    PARTNERSHIP_CLOSED: 1,
    BOARDS_COMMITTED: 1,
    BOARDS_REVEALED: 1,
    BOARD_REVEALED: 1,
    BOARD_RESULT_RECORDED: 1,
    BOARD_PAR_COMPUTED: 1,
    BOARD_RESULT_CORRECTED: 1,
    LEAGUE_CREATED: 2,
    SEASON_ADDED: 1,
    DIVISIONS_ASSIGNED: 1,
}

#: The events that carry a match result (the ones standings and ratings fold).
RESULT_EVENTS = frozenset({MATCH_RESULT_RECORDED, MATCH_FORFEITED, RESULT_CORRECTED})
SIDES = ("north_south", "east_west")
SEATS = ("north", "east", "south", "west")
RESULT_SOURCES = ("table", "scoresheet", "organiser")
OPENED_BY = ("organiser", "schedule")

Actor = Mapping[str, Any]

#: The payload fields that hold text a person typed (names, reasons). Season and division
#: names are not among them: they are the keys a league's events find its seasons and
#: divisions by (docs/events.md says why they stay).
TYPED_FIELDS: dict[str, tuple[str, ...]] = {
    COMPETITION_CREATED: ("name",),
    ENTRANT_REGISTERED: ("name",),
    ENTRANT_LATE_JOINED: ("name",),
    PARTNERSHIP_PROPOSED: ("name",),
    INVITATION_DECLINED: ("reason",),
    ENTRANT_WITHDRAWN: ("reason",),
    MATCH_FORFEITED: ("reason",),
    RESULT_CORRECTED: ("reason",),
    FORBIDDEN_PAIR_ADDED: ("reason",),
    FORBIDDEN_PAIR_REMOVED: ("reason",),
    ROUND_PAIRING_OVERRIDDEN: ("reason",),
    BOARD_RESULT_CORRECTED: ("reason",),
    LEAGUE_CREATED: ("name",),
}

#: A typed field's value as a builder takes it: an :class:`ErasableText` (kept by
#: reference when appended), a reference already stored (the same text an earlier
#: event refers to), or a plain string (empty, or the platform's own words).
Typed = str | ErasableText | Mapping[str, str]


class EventSchemaError(ValueError):
    """A payload that does not match its event type's schema (a defect, never input)."""


def competition_stream_id(competition_id: str) -> str:
    return f"{COMPETITION_STREAM_PREFIX}{competition_id}"


def league_stream_id(league_id: str) -> str:
    return f"{LEAGUE_STREAM_PREFIX}{league_id}"


def competition_id_of(stream_id: str) -> str | None:
    if stream_id.startswith(COMPETITION_STREAM_PREFIX):
        return stream_id[len(COMPETITION_STREAM_PREFIX) :]
    return None


def typist(actor: Actor | None) -> int | None:
    """The user who typed what a command carries (None: the platform wrote it)."""
    if actor is None or actor.get("kind") != "user" or actor.get("user_id") is None:
        return None
    return int(actor["user_id"])


def typed(text: str, by: int | str | None, named: Iterable[object] = ()) -> str | ErasableText:
    """Text a person typed, as a payload holds it: erasable by whoever typed it (``by``,
    a user id) and by each person it is about (``named``: player ids). Empty text, or
    text nobody typed (``by`` None: the platform's own words), stays as it is."""
    if text == "" or by is None or by == "":
        return text
    people = [str(by), *(str(p) for p in named if p is not None and p != "")]
    subjects = [user_subject(person) for person in dict.fromkeys(people)]
    return erasable(text, subjects=subjects[:MAX_SUBJECTS])


def typed_values(events: Iterable[Any]) -> Iterator[object]:
    """The values of the typed fields of ``events`` (stored or new): what a reader
    resolves in one query (``erasable_store.texts_of``)."""
    for event in events:
        for name in TYPED_FIELDS.get(event.type, ()):
            yield event.data.get(name)


def _event(type_: str, data: dict[str, Any], actor: Actor | None) -> NewEvent:
    version = SCHEMA_VERSIONS[type_]
    validate_payload(type_, version, data)
    return NewEvent(type_, data, version, {"actor": dict(actor or {"kind": "system"})})


# ---------------------------------------------------------------- competition builders


def competition_created(payload: Mapping[str, Any], actor: Actor) -> NewEvent:
    """The competition's birth: every setting it pins (``CompetitionSettings.as_payload``)."""
    return _event(COMPETITION_CREATED, dict(payload), actor)


def _entrant_fields(
    entrant_id: str,
    players: Sequence[str],
    reserve: str | None,
    name: Typed,
    rating: int,
    proposal_id: str | None,
    invited: Sequence[str],
) -> dict[str, Any]:
    return {
        "entrant_id": entrant_id,
        "players": list(players),
        "reserve": reserve,
        "name": name,
        "rating": rating,
        "proposal_id": proposal_id,
        "invited": list(invited),
    }


def entrant_registered(
    *,
    entrant_id: str,
    players: Sequence[str],
    reserve: str | None,
    name: Typed,
    rating: int,
    invited: Sequence[str],
    proposal_id: str | None = None,
    actor: Actor,
) -> NewEvent:
    """A partnership registered; ``invited``: the named players whose answer is awaited
    (none: it is entered at once)."""
    return _event(
        ENTRANT_REGISTERED,
        _entrant_fields(entrant_id, players, reserve, name, rating, proposal_id, invited),
        actor,
    )


def entrant_late_joined(
    *,
    entrant_id: str,
    players: Sequence[str],
    reserve: str | None,
    name: Typed,
    rating: int,
    invited: Sequence[str],
    joined_round: int,
    actor: Actor,
) -> NewEvent:
    """A late entrant, playing from ``joined_round`` (once every player has accepted)."""
    data = _entrant_fields(entrant_id, players, reserve, name, rating, None, invited)
    data["joined_round"] = joined_round
    return _event(ENTRANT_LATE_JOINED, data, actor)


def partnership_proposed(
    *, proposal_id: str, player: str, partner: str, name: Typed, actor: Actor
) -> NewEvent:
    return _event(
        PARTNERSHIP_PROPOSED,
        {"proposal_id": proposal_id, "player": player, "partner": partner, "name": name},
        actor,
    )


def partnership_confirmed(*, proposal_id: str, actor: Actor) -> NewEvent:
    return _event(PARTNERSHIP_CONFIRMED, {"proposal_id": proposal_id}, actor)


def invitation_accepted(
    *, entrant_id: str, player: str, joined_round: int | None, actor: Actor
) -> NewEvent:
    """A named player agreed to play; ``joined_round``: the entrant is entered by this
    answer and plays from that round (null: another player's answer is awaited)."""
    return _event(
        INVITATION_ACCEPTED,
        {"entrant_id": entrant_id, "player": player, "joined_round": joined_round},
        actor,
    )


def invitation_declined(*, entrant_id: str, player: str, reason: Typed, actor: Actor) -> NewEvent:
    """A named player refused before ever playing: the invitation is gone (a reserve's
    refusal only takes the reserve off)."""
    return _event(
        INVITATION_DECLINED,
        {"entrant_id": entrant_id, "player": player, "reason": reason},
        actor,
    )


def entrant_withdrawn(
    *, entrant_id: str, after_round: int, reason: Typed, player: str | None, actor: Actor
) -> NewEvent:
    """The entrant plays no more after ``after_round``; ``player``: the player who left
    (null: an organiser withdrew it)."""
    return _event(
        ENTRANT_WITHDRAWN,
        {"entrant_id": entrant_id, "after_round": after_round, "reason": reason, "player": player},
        actor,
    )


def entrant_substituted(
    *, entrant_id: str, player_out: str, player_in: str, from_round: int, actor: Actor
) -> NewEvent:
    return _event(
        ENTRANT_SUBSTITUTED,
        {
            "entrant_id": entrant_id,
            "player_out": player_out,
            "player_in": player_in,
            "from_round": from_round,
        },
        actor,
    )


def entrant_checked_in(*, entrant_id: str, round_number: int, actor: Actor) -> NewEvent:
    return _event(ENTRANT_CHECKED_IN, {"entrant_id": entrant_id, "round": round_number}, actor)


def round_paired(
    *,
    round_number: int,
    stage: int,
    engine: str,
    engine_version: int,
    engine_input: Mapping[str, Any],
    commitment: str,
    results_version: int,
    pairing: Mapping[str, Any],
    actor: Actor,
) -> NewEvent:
    return _event(
        ROUND_PAIRED,
        {
            "round": round_number,
            "stage": stage,
            "engine": engine,
            "engine_version": engine_version,
            "input": dict(engine_input),
            "commitment": commitment,
            "results_version": results_version,
            "pairing": dict(pairing),
        },
        actor,
    )


def round_started(
    *,
    round_number: int,
    tables: Sequence[tuple[int, str]],
    opened_at: str,
    by: str,
    actor: Actor,
) -> NewEvent:
    return _event(
        ROUND_STARTED,
        {
            "round": round_number,
            "tables": [{"board": board, "table_id": table_id} for board, table_id in tables],
            "opened_at": opened_at,
            "by": by,
        },
        actor,
    )


def player_arrived(
    *, round_number: int, board: int, player: str, seat: str, actor: Actor
) -> NewEvent:
    return _event(
        PLAYER_ARRIVED,
        {"round": round_number, "board": board, "player": player, "seat": seat},
        actor,
    )


def no_show_recorded(
    *,
    round_number: int,
    board: int,
    side: str,
    seats: Sequence[str],
    players: Sequence[str],
    bot_level: str | None,
    actor: Actor,
) -> NewEvent:
    """Seats still empty at the end of the grace time; ``bot_level``: bots take them."""
    return _event(
        NO_SHOW_RECORDED,
        {
            "round": round_number,
            "board": board,
            "side": side,
            "seats": list(seats),
            "players": list(players),
            "bot": bot_level is not None,
            "level": bot_level,
        },
        actor,
    )


def match_result_recorded(
    result: Mapping[str, Any],
    *,
    source: str,
    table_id: str | None,
    hands: int | None,
    scoresheet: Mapping[str, Any] | None,
    organiser: int | None,
    actor: Actor,
) -> NewEvent:
    """A match's result (``result``: the result fields, see ``decisions.results``)."""
    return _event(
        MATCH_RESULT_RECORDED,
        {
            **result,
            "source": source,
            "table_id": table_id,
            "hands": hands,
            "scoresheet": None if scoresheet is None else dict(scoresheet),
            "organiser": organiser,
        },
        actor,
    )


def match_forfeited(
    result: Mapping[str, Any], *, organiser: int | None, reason: Typed, actor: Actor
) -> NewEvent:
    return _event(MATCH_FORFEITED, {**result, "organiser": organiser, "reason": reason}, actor)


def result_corrected(
    result: Mapping[str, Any], *, corrects: str, organiser: int, reason: Typed, actor: Actor
) -> NewEvent:
    return _event(
        RESULT_CORRECTED,
        {**result, "corrects": corrects, "organiser": organiser, "reason": reason},
        actor,
    )


def result_confirmed(
    *, result_id: str, player: str, side: str, rated: bool, actor: Actor
) -> NewEvent:
    """A player of ``side`` confirms a typed-in result; ``rated``: with this confirmation
    it counts for the site ratings pool."""
    return _event(
        RESULT_CONFIRMED,
        {"result_id": result_id, "player": player, "side": side, "rated": rated},
        actor,
    )


def round_closed(*, round_number: int, seed: str, actor: Actor) -> NewEvent:
    return _event(ROUND_CLOSED, {"round": round_number, "seed": seed}, actor)


def stage_advanced(*, stage: int, entrants: Sequence[str], actor: Actor) -> NewEvent:
    return _event(STAGE_ADVANCED, {"stage": stage, "entrants": list(entrants)}, actor)


def forbidden_pair_added(
    *, entrants: Sequence[str], organiser: int, reason: Typed, actor: Actor
) -> NewEvent:
    """Two entrants (ids, sorted) must not meet while a pairing without them exists."""
    return _event(
        FORBIDDEN_PAIR_ADDED,
        {"entrants": list(entrants), "organiser": organiser, "reason": reason},
        actor,
    )


def forbidden_pair_removed(
    *, entrants: Sequence[str], organiser: int, reason: Typed, actor: Actor
) -> NewEvent:
    """The two entrants (ids, sorted) may meet again."""
    return _event(
        FORBIDDEN_PAIR_REMOVED,
        {"entrants": list(entrants), "organiser": organiser, "reason": reason},
        actor,
    )


def round_pairing_overridden(
    *, round_number: int, pairing: Mapping[str, Any], organiser: int, reason: Typed, actor: Actor
) -> NewEvent:
    """The organiser's own pairing replaces round ``round_number``'s (before its tables
    opened); the computed one stays in its ``RoundPaired`` and still verifies."""
    return _event(
        ROUND_PAIRING_OVERRIDDEN,
        {"round": round_number, "pairing": dict(pairing), "organiser": organiser, "reason": reason},
        actor,
    )


def competition_finished(*, order: Sequence[str], actor: Actor) -> NewEvent:
    return _event(COMPETITION_FINISHED, {"order": list(order)}, actor)


# ---------------------------------------------------------------- entry links
#
# A link's secret is never in an event (events are public to auditors): only its
# ``digest`` (SHA-256 hex of the secret, ``games.domain.table.invitation_digest``, the
# seat invitations' scheme); the secret rides in the link's URL fragment.


def entry_link_issued(*, link_id: str, digest: str, actor: Actor) -> NewEvent:
    """The competition's invitation link (one at a time: a new one replaces the old)."""
    return _event(ENTRY_LINK_ISSUED, {"link_id": link_id, "digest": digest}, actor)


def entry_link_revoked(*, link_id: str, actor: Actor) -> NewEvent:
    return _event(ENTRY_LINK_REVOKED, {"link_id": link_id}, actor)


def partnership_opened(
    *, partnership_id: str, player: str, link_id: str, digest: str, actor: Actor
) -> NewEvent:
    """A player came in by the invitation link ``link_id``: a partnership with them as
    first player, waiting for a partner who follows their own partner link (``digest``)."""
    return _event(
        PARTNERSHIP_OPENED,
        {"partnership_id": partnership_id, "player": player, "link_id": link_id, "digest": digest},
        actor,
    )


def partner_joined(*, partnership_id: str, partner: str, actor: Actor) -> NewEvent:
    """The partner followed the partner link (an ``EntrantRegistered`` follows it)."""
    return _event(PARTNER_JOINED, {"partnership_id": partnership_id, "partner": partner}, actor)


def partnership_closed(*, partnership_id: str, player: str, actor: Actor) -> NewEvent:
    """The first player left before a partner joined: the partner link works no more."""
    return _event(PARTNERSHIP_CLOSED, {"partnership_id": partnership_id, "player": player}, actor)


# ---------------------------------------------------------------- duplicate builders


def boards_committed(
    *,
    round_number: int,
    round_commitment: str,
    boards: Sequence[Mapping[str, Any]],
    movement: str,
    actor: Actor,
) -> NewEvent:
    """A duplicate round's boards before any is dealt: each board's number, dealer and
    commitment (``Board.public_dict``), and the commitment to the round seed (what each
    table of the round commits to as its deal seed). The seeds stay secret."""
    return _event(
        BOARDS_COMMITTED,
        {
            "round": round_number,
            "round_commitment": round_commitment,
            "boards": [dict(board) for board in boards],
            "movement": movement,
        },
        actor,
    )


def boards_revealed(
    *, round_number: int, round_seed: str, boards: Sequence[Mapping[str, Any]], actor: Actor
) -> NewEvent:
    """Every table of the round has finished its boards: the round seed and each board's
    seed and deck (``Board.revealed_dict``), re-derivable (``verify_round_boards``)."""
    return _event(
        BOARDS_REVEALED,
        {"round": round_number, "round_seed": round_seed, "boards": [dict(b) for b in boards]},
        actor,
    )


def board_revealed(*, round_number: int, board: Mapping[str, Any], actor: Actor) -> NewEvent:
    """Every table of the round has finished this one board: its seed and deck
    (``Board.revealed_dict``), checked by anyone against its commitment in
    ``BoardsCommitted`` (``verify_board``); the round seed and the other boards stay
    secret (a board seed is a one-way hash of the round seed)."""
    return _event(BOARD_REVEALED, {"round": round_number, **dict(board)}, actor)


def board_result_recorded(
    *,
    round_number: int,
    board: int,
    table: int,
    table_id: str,
    north_south: str,
    east_west: str,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    score: Mapping[str, int],
    actor: Actor,
) -> NewEvent:
    """One table's play of one board (``table``: the match's number in the round, as
    ``RoundStarted`` lists it): the four bids, blind flags and tricks by seat (North
    first) and the board's score on its own (``board_scoring.score_board``)."""
    return _event(
        BOARD_RESULT_RECORDED,
        {
            "round": round_number,
            "board": board,
            "table": table,
            "table_id": table_id,
            "north_south": north_south,
            "east_west": east_west,
            "bids": list(bids),
            "blind": list(blind),
            "tricks": list(tricks),
            "score": {side: int(score[side]) for side in SIDES},
        },
        actor,
    )


def board_result_corrected(
    *,
    recorded: Mapping[str, Any],
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    score: Mapping[str, int],
    correction: int,
    organiser: int,
    reason: Typed,
    actor: Actor,
) -> NewEvent:
    """An organiser's correction of one table's result on one board (``recorded``: the
    board's result as it stands, whose round, board, table and entrants it keeps): the
    corrected bids, blind flags and tricks by seat, re-scored on their own under the
    pinned preset; ``correction`` numbers the competition's board corrections from 1.
    The ``BoardResultRecorded`` it replaces stays as it was."""
    return _event(
        BOARD_RESULT_CORRECTED,
        {
            "round": int(recorded["round"]),
            "board": int(recorded["board"]),
            "table": int(recorded["table"]),
            "table_id": str(recorded["table_id"]),
            "north_south": str(recorded["north_south"]),
            "east_west": str(recorded["east_west"]),
            "bids": list(bids),
            "blind": list(blind),
            "tricks": list(tricks),
            "score": {side: int(score[side]) for side in SIDES},
            "correction": correction,
            "organiser": organiser,
            "reason": reason,
        },
        actor,
    )


def board_par_computed(
    *, round_number: int, par: Mapping[str, Any], bot_version: str, actor: Actor
) -> NewEvent:
    """A board's par (``leagues.core.duplicate.par.Par.as_dict``: the method, every play's
    seed and scores, the totals of each direction) and the bot code's version."""
    return _event(
        BOARD_PAR_COMPUTED,
        {"round": round_number, "par": dict(par), "bot_version": bot_version},
        actor,
    )


# ---------------------------------------------------------------- league builders


def league_created(*, name: Typed, organisers: Sequence[int], actor: Actor) -> NewEvent:
    return _event(LEAGUE_CREATED, {"name": name, "organisers": list(organisers)}, actor)


def season_added(*, season: str, divisions: Mapping[str, str], actor: Actor) -> NewEvent:
    return _event(SEASON_ADDED, {"season": season, "divisions": dict(divisions)}, actor)


def divisions_assigned(
    *, season: str, divisions: Mapping[str, Sequence[str]], actor: Actor | None = None
) -> NewEvent:
    return _event(
        DIVISIONS_ASSIGNED,
        {"season": season, "divisions": {d: list(e) for d, e in divisions.items()}},
        actor,
    )


# ---------------------------------------------------------------- payload checks

Check = Callable[[object], bool]


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _at_least(low: int) -> Check:
    return lambda v: _int(v) and v >= low  # type: ignore[operator]


def _text(value: object) -> bool:
    return isinstance(value, str)


def _filled(value: object) -> bool:
    return isinstance(value, str) and value != ""


def _typed(value: object) -> bool:
    """A typed field: its text, a text on its way to be kept, or a stored reference."""
    return isinstance(value, str | ErasableText) or is_reference(value)


def _typed_filled(value: object) -> bool:
    if isinstance(value, ErasableText):
        return value.text != ""
    return _filled(value) or is_reference(value)


def _digest(value: object) -> bool:
    """A SHA-256 digest in lower-case hex."""
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _bool(value: object) -> bool:
    return isinstance(value, bool)


def _object(value: object) -> bool:
    return isinstance(value, dict)


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _one_of(*values: object) -> Check:
    return lambda v: v in values


def _list_of(check: Check, length: int | None = None) -> Check:
    return lambda v: (
        isinstance(v, list) and (length is None or len(v) == length) and all(check(x) for x in v)
    )


def _keys(keys: Sequence[str], check: Check) -> Check:
    return lambda v: (
        isinstance(v, dict) and set(v) == set(keys) and all(check(x) for x in v.values())
    )


def _map_of(check: Check) -> Check:
    return lambda v: isinstance(v, dict) and all(_text(k) and check(x) for k, x in v.items())


def _rules(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"preset", "version", "overrides", "snapshot"}
        and _text(value["preset"])
        and (value["version"] is None or _int(value["version"]))
        and _object(value["overrides"])
        and _object(value["snapshot"])
    )


def _tables(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(t, dict)
        and set(t) == {"board", "table_id"}
        and _int(t["board"])
        and _filled(t["table_id"])
        for t in value
    )


def _hex64(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _board_public(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"board", "dealer", "commitment"}
        and _at_least(1)(value["board"])
        and value["dealer"] in SEATS
        and _hex64(value["commitment"])
    )


def _board_revealed(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"board", "dealer", "commitment", "seed", "deck"}
        and _board_public({k: value[k] for k in ("board", "dealer", "commitment")})
        and _hex64(value["seed"])
        and _list_of(_filled, 52)(value["deck"])
    )


def _par(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"board", "method", "plays", "north_south_total", "east_west_total"}
        and _at_least(1)(value["board"])
        and _object(value["method"])
        and isinstance(value["plays"], list)
        and all(
            isinstance(play, dict)
            and set(play) == {"seed", "north_south", "east_west"}
            and _filled(play["seed"])
            and _int(play["north_south"])
            and _int(play["east_west"])
            for play in value["plays"]
        )
        and _int(value["north_south_total"])
        and _int(value["east_west_total"])
    )


_POINTS = _keys(SIDES, _int)
_SIDE = _one_of(*SIDES)
_PLAYERS = _list_of(_filled, 2)

_ENTRANT = {
    "entrant_id": _filled,
    "players": _PLAYERS,
    "reserve": _optional(_filled),
    "name": _typed,
    "rating": _int,
    "proposal_id": _optional(_filled),
    "invited": _list_of(_filled),
}
_RESULT = {
    "result_id": _filled,
    "round": _at_least(1),
    "board": _at_least(1),
    "north_south": _filled,
    "east_west": _filled,
    "points": _POINTS,
    "winner": _optional(_SIDE),
    "forfeited_by": _optional(_one_of(*SIDES, "both")),
    "no_show": _bool,
    "bot_substitute": _bool,
    "rated": _bool,
}

_CREATED_V2: dict[str, Check] = {
    "competition_id": _filled,
    "name": _typed_filled,
    "kind": _one_of(*KINDS),
    "league_id": _optional(_filled),
    "season": _optional(_filled),
    "division": _optional(_filled),
    "organisers": _list_of(_int),
    "rules": _rules,
    "match_format": _keys(("fixed_hands",), _optional(_at_least(1))),
    "match_points": _keys(POINTS_FIELDS, _at_least(0)),
    "tiebreaks": _list_of(_filled),
    "lots_seed": _filled,
    "engines": _map_of(_int),
    "stages": _list_of(_object),
    "round_robin_order": _one_of(*ROUND_ROBIN_ORDERS),
    "knockout_seeding": _one_of(*KNOCKOUT_SEEDINGS),
    "registration_closes_at": _optional(_filled),
    "late_join_until_round": _at_least(0),
    "check_in": _bool,
    "round_starts": _list_of(_optional(_filled)),
    "grace_minutes": _at_least(0),
    "bots_for_no_shows": _bool,
    "bot_level": _optional(_one_of(*BOT_LEVELS)),
    "spectator_delay_tricks": lambda v: _int(v) and 0 <= v <= 13,  # type: ignore[operator]
}


def _duplicate(value: object) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"boards_per_round", "movement", "scale", "par_plays"}
        and value["movement"] in DUPLICATE_MOVEMENTS
        and value["scale"] in DUPLICATE_SCALES
        and _at_least(1)(value["boards_per_round"])
        and _at_least(1)(value["par_plays"])
    )


_BOARD_RESULT: dict[str, Check] = {
    "round": _at_least(1),
    "board": _at_least(1),
    "table": _at_least(1),
    "table_id": _filled,
    "north_south": _filled,
    "east_west": _filled,
    "bids": _list_of(_at_least(0), 4),
    "blind": _list_of(_bool, 4),
    "tricks": _list_of(_at_least(0), 4),
    "score": _POINTS,
}

_SCHEMAS: dict[tuple[str, int], dict[str, Check]] = {
    (COMPETITION_CREATED, 2): _CREATED_V2,
    (COMPETITION_CREATED, 3): {
        **_CREATED_V2,
        "duplicate": _optional(_duplicate),
    },
    (BOARDS_COMMITTED, 1): {
        "round": _at_least(1),
        "round_commitment": _hex64,
        "boards": _list_of(_board_public),
        "movement": _one_of(*DUPLICATE_MOVEMENTS),
    },
    (BOARDS_REVEALED, 1): {
        "round": _at_least(1),
        "round_seed": _filled,
        "boards": _list_of(_board_revealed),
    },
    (BOARD_REVEALED, 1): {
        "round": _at_least(1),
        "board": _at_least(1),
        "dealer": _one_of(*SEATS),
        "commitment": _hex64,
        "seed": _hex64,
        "deck": _list_of(_filled, 52),
    },
    (BOARD_RESULT_RECORDED, 1): _BOARD_RESULT,
    (BOARD_PAR_COMPUTED, 1): {"round": _at_least(1), "par": _par, "bot_version": _filled},
    (BOARD_RESULT_CORRECTED, 1): {
        **_BOARD_RESULT,
        "correction": _at_least(1),
        "organiser": _int,
        "reason": _typed_filled,
    },
    (ENTRANT_REGISTERED, 3): _ENTRANT,
    (ENTRANT_LATE_JOINED, 3): {**_ENTRANT, "joined_round": _at_least(2)},
    (PARTNERSHIP_PROPOSED, 2): {
        "proposal_id": _filled,
        "player": _filled,
        "partner": _filled,
        "name": _typed,
    },
    (PARTNERSHIP_CONFIRMED, 1): {"proposal_id": _filled},
    (INVITATION_ACCEPTED, 1): {
        "entrant_id": _filled,
        "player": _filled,
        "joined_round": _optional(_at_least(1)),
    },
    (INVITATION_DECLINED, 2): {"entrant_id": _filled, "player": _filled, "reason": _typed},
    (ENTRANT_WITHDRAWN, 3): {
        "entrant_id": _filled,
        "after_round": _at_least(0),
        "reason": _typed,
        "player": _optional(_filled),
    },
    (ENTRANT_SUBSTITUTED, 1): {
        "entrant_id": _filled,
        "player_out": _filled,
        "player_in": _filled,
        "from_round": _at_least(1),
    },
    (ENTRANT_CHECKED_IN, 1): {"entrant_id": _filled, "round": _at_least(1)},
    (ROUND_PAIRED, 1): {
        "round": _at_least(1),
        "stage": _at_least(0),
        "engine": _filled,
        "engine_version": _int,
        "input": _object,
        "commitment": _filled,
        "results_version": _at_least(0),
        "pairing": _object,
    },
    (ROUND_STARTED, 2): {
        "round": _at_least(1),
        "tables": _tables,
        "opened_at": _filled,
        "by": _one_of(*OPENED_BY),
    },
    (PLAYER_ARRIVED, 1): {
        "round": _at_least(1),
        "board": _at_least(1),
        "player": _filled,
        "seat": _one_of(*SEATS),
    },
    (NO_SHOW_RECORDED, 2): {
        "round": _at_least(1),
        "board": _at_least(1),
        "side": _one_of(*SIDES, "both"),
        "seats": _list_of(_one_of(*SEATS)),
        "players": _list_of(_filled),
        "bot": _bool,
        "level": _optional(_one_of(*BOT_LEVELS)),
    },
    (MATCH_RESULT_RECORDED, 2): {
        **_RESULT,
        "source": _one_of(*RESULT_SOURCES),
        "table_id": _optional(_filled),
        "hands": _optional(_at_least(0)),
        "scoresheet": _optional(_object),
        "organiser": _optional(_int),
    },
    (MATCH_FORFEITED, 2): {**_RESULT, "organiser": _optional(_int), "reason": _typed},
    (RESULT_CORRECTED, 3): {
        **_RESULT,
        "corrects": _filled,
        "organiser": _int,
        "reason": _typed_filled,
    },
    (RESULT_CONFIRMED, 1): {
        "result_id": _filled,
        "player": _filled,
        "side": _SIDE,
        "rated": _bool,
    },
    (ROUND_CLOSED, 1): {"round": _at_least(1), "seed": _filled},
    (STAGE_ADVANCED, 1): {"stage": _at_least(1), "entrants": _list_of(_filled)},
    (FORBIDDEN_PAIR_ADDED, 1): {
        "entrants": _list_of(_filled, 2),
        "organiser": _int,
        "reason": _typed,
    },
    (FORBIDDEN_PAIR_REMOVED, 1): {
        "entrants": _list_of(_filled, 2),
        "organiser": _int,
        "reason": _typed,
    },
    (ROUND_PAIRING_OVERRIDDEN, 1): {
        "round": _at_least(1),
        "pairing": _object,
        "organiser": _int,
        "reason": _typed_filled,
    },
    (COMPETITION_FINISHED, 1): {"order": _list_of(_filled)},
    (ENTRY_LINK_ISSUED, 1): {"link_id": _filled, "digest": _digest},
    (ENTRY_LINK_REVOKED, 1): {"link_id": _filled},
    (PARTNERSHIP_OPENED, 1): {
        "partnership_id": _filled,
        "player": _filled,
        "link_id": _filled,
        "digest": _digest,
    },
    (PARTNER_JOINED, 1): {"partnership_id": _filled, "partner": _filled},
    (PARTNERSHIP_CLOSED, 1): {"partnership_id": _filled, "player": _filled},
    (LEAGUE_CREATED, 2): {"name": _typed_filled, "organisers": _list_of(_int)},
    (SEASON_ADDED, 1): {"season": _filled, "divisions": _map_of(_filled)},
    (DIVISIONS_ASSIGNED, 1): {"season": _filled, "divisions": _map_of(_list_of(_filled))},
}


def validate_payload(type_: str, schema_version: int, data: Mapping[str, Any]) -> None:
    """Refuse a payload that does not match its schema (exact field set, field shapes)."""
    schema = _SCHEMAS.get((type_, schema_version))
    if schema is None:
        raise EventSchemaError(f"No schema for {type_} v{schema_version}.")
    if set(data) != set(schema):
        raise EventSchemaError(
            f"{type_} v{schema_version} needs fields {sorted(schema)}, got {sorted(data)}."
        )
    for name, check in schema.items():
        if not check(data[name]):
            raise EventSchemaError(f"{type_} v{schema_version}: bad {name} {data[name]!r}.")
