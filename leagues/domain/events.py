"""Competition and league event types, their schema versions and payload builders.

Every payload is JSON the event store accepts (no floats); the catalogue with each
field is in ``docs/events.md`` (section "Leagues").
"""

from __future__ import annotations

from typing import Any

from eventstore.records import NewEvent

COMPETITION_STREAM_PREFIX = "competition-"
LEAGUE_STREAM_PREFIX = "league-"

COMPETITION_CREATED = "CompetitionCreated"
ENTRANT_REGISTERED = "EntrantRegistered"
PARTNERSHIP_PROPOSED = "PartnershipProposed"
PARTNERSHIP_CONFIRMED = "PartnershipConfirmed"
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
ROUND_CLOSED = "RoundClosed"
STAGE_ADVANCED = "StageAdvanced"
COMPETITION_FINISHED = "CompetitionFinished"

LEAGUE_CREATED = "LeagueCreated"
SEASON_ADDED = "SeasonAdded"
DIVISIONS_ASSIGNED = "DivisionsAssigned"

SCHEMA_VERSIONS: dict[str, int] = {
    name: 1
    for name in (
        COMPETITION_CREATED,
        ENTRANT_REGISTERED,
        PARTNERSHIP_PROPOSED,
        PARTNERSHIP_CONFIRMED,
        ENTRANT_WITHDRAWN,
        ENTRANT_LATE_JOINED,
        ENTRANT_SUBSTITUTED,
        ENTRANT_CHECKED_IN,
        ROUND_PAIRED,
        ROUND_STARTED,
        MATCH_RESULT_RECORDED,
        MATCH_FORFEITED,
        NO_SHOW_RECORDED,
        PLAYER_ARRIVED,
        RESULT_CORRECTED,
        ROUND_CLOSED,
        STAGE_ADVANCED,
        COMPETITION_FINISHED,
        LEAGUE_CREATED,
        SEASON_ADDED,
        DIVISIONS_ASSIGNED,
    )
}
# v2: RoundStarted carries ``opened_at`` and ``by``; NoShowRecorded carries the absent
# ``seats`` and ``players``, a meaningful ``bot`` and the bot's ``level`` (v1 payloads
# still fold: a v1 RoundStarted has no opening time, a v1 NoShowRecorded no seats).
SCHEMA_VERSIONS[ROUND_STARTED] = 2
SCHEMA_VERSIONS[NO_SHOW_RECORDED] = 2

#: The events that carry a match result (the ones standings and ratings fold).
RESULT_EVENTS = frozenset({MATCH_RESULT_RECORDED, MATCH_FORFEITED, RESULT_CORRECTED})


def competition_stream_id(competition_id: str) -> str:
    return f"{COMPETITION_STREAM_PREFIX}{competition_id}"


def league_stream_id(league_id: str) -> str:
    return f"{LEAGUE_STREAM_PREFIX}{league_id}"


def competition_id_of(stream_id: str) -> str | None:
    if stream_id.startswith(COMPETITION_STREAM_PREFIX):
        return stream_id[len(COMPETITION_STREAM_PREFIX) :]
    return None


def event(type_: str, data: dict[str, Any], actor: dict[str, Any] | None = None) -> NewEvent:
    """A competition or league event with its schema version and who caused it."""
    return NewEvent(type_, data, SCHEMA_VERSIONS[type_], {"actor": actor or {"kind": "system"}})
