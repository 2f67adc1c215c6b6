"""Export of a stored game as a game record (docs/formats.md) ending with its head hash.

``python manage.py replay`` on the exported file re-plays every complete hand and prints
the same ledger the platform shows.  Only complete hands are written (their cards are
public); ``head_hash`` is the hash of the stream's last event at export time, so anyone
who keeps the export can later prove the stored history was not rewritten. ``up_to`` cuts
the export at a version (a delayed spectator's, ``games.selectors.visibility.visible_version``):
the record and its head hash are then the stream prefix's.
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from games.domain.streams import table_stream_id
from games.engine.record import record_from_game

from .table_state import parse_table_id, prefix_state, put_back, take_state


def export_table(table_id: object, up_to: int | None = None) -> dict[str, Any]:
    """The table's game record: ``{"rules", "hands", "table", "head_hash"}``, of the
    stream up to version ``up_to`` when it is given and the table is past it."""
    table_uuid = parse_table_id(table_id)
    live, live_hash, _ = take_state(table_uuid)
    try:
        state, head_hash = live, live_hash
        if up_to is not None and up_to < live.version:
            found = prefix_state(table_uuid, max(up_to, 1))
            assert found is not None  # read=True always finds the prefix
            state, head_hash = found
        if state.game is not None:
            record = record_from_game(state.game)
        else:
            record = {"rules": dict(state.rules_snapshot), "hands": []}
        record["table"] = {
            "id": str(table_uuid),
            "stream_id": table_stream_id(table_uuid),
            "version": state.version,
            "status": state.status,
            "preset": {"name": state.preset_name, "version": state.preset_version},
            "deal_commitment": state.commitment,
            "deal_seed": state.revealed_seed,
        }
        record["head_hash"] = head_hash
        return record
    finally:
        put_back(table_uuid, live, live_hash, committed=not connection.in_atomic_block)
