"""Which event streams are tables' streams, and of which table: the one spelling of it."""

from __future__ import annotations

import uuid

TABLE_STREAM_PREFIX = "table-"


def table_stream_id(table_id: uuid.UUID | str) -> str:
    """The id of a table's event stream."""
    return f"{TABLE_STREAM_PREFIX}{table_id}"


def table_id_of_stream(stream_id: str) -> str | None:
    """The table id of a table's stream id (or of a bare table id), None for any other stream."""
    if stream_id.startswith(TABLE_STREAM_PREFIX):
        candidate = stream_id[len(TABLE_STREAM_PREFIX) :]
    else:
        candidate = stream_id
    try:
        return str(uuid.UUID(candidate))
    except ValueError:
        return None
