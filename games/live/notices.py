"""The format of a commit's notices: what is announced after every commit, and where.

- the commit notice (:func:`commit_notice`), published as a JSON array on
  :func:`commits_channel` (Redis pub/sub: the projector's wake-up, the live benchmark's
  clock) and read back with :func:`parse_commit_notices`;
- the group message of the table's WebSocket consumers (:func:`group_message`), sent to
  the Channels group :func:`table_group`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
from django.conf import settings

COMMITS_CHANNEL_PREFIX = "spades:commits:"
GROUP_MESSAGE_TYPE = "table.committed"

# A commit of more events than this (a game's last card: the reveal) is not carried in
# its group message; the consumers read it.
MAX_NOTIFIED_EVENTS = 8


def commits_channel() -> str:
    """The pub/sub channel of this database's commit notices.

    Redis pub/sub ignores the database number, so the channel is named after the
    PostgreSQL database: test runs and benchmarks on one Redis never wake each other.
    """
    return COMMITS_CHANNEL_PREFIX + str(settings.DATABASES["default"]["NAME"])


def table_group(table_id: object) -> str:
    """The Channels group of a table's WebSocket consumers."""
    return f"table.{table_id}"


def commit_notice(stream_id: str, events: Sequence[Any], committed_at: float) -> dict[str, Any]:
    """The JSON-ready notice of one commit: stream, version range, time, types, actor kind."""
    last = events[-1]
    actor = last.metadata.get("actor") if isinstance(last.metadata, dict) else None
    return {
        "stream_id": stream_id,
        "first_version": events[0].version,
        "version": last.version,
        "committed_at": committed_at,
        "types": [event.type for event in events],
        "actor": actor,
    }


def parse_commit_notices(data: bytes | str) -> list[dict[str, Any]]:
    """The notices of one message on ``commits_channel()`` (a JSON array of notices)."""
    decoded = orjson.loads(data)
    return decoded if isinstance(decoded, list) else [decoded]


def group_message(notice: dict[str, Any], events: Sequence[Any] = ()) -> dict[str, Any]:
    """The Channels message a table's consumers get for a commit notice: the versions (the
    commit's first and last: a consumer whose last sent version is not just before the
    first knows it missed a notice), and the commit's events (``StoredEvent.to_wire``)
    when there are few, so consumers whose cached fold is at the version before need not
    read the stream (they check the events against their hash chain first,
    ``games.services.table_state.chained_tail``)."""
    message = {
        "type": GROUP_MESSAGE_TYPE,
        "first_version": notice["first_version"],
        "version": notice["version"],
        "committed_at": notice["committed_at"],
    }
    if events and len(events) <= MAX_NOTIFIED_EVENTS:
        message["events"] = [event.to_wire() for event in events]
    return message
