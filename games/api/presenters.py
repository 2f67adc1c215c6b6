"""Rendering service results and selector output as API responses."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.fields import JsonObjectField
from games.engine.seats import SEAT_NAMES
from games.models import Table
from games.selectors import visibility as table_selectors
from games.selectors.table_updates import command_update
from games.selectors.tables import TablePage


def command_result(result: Any, viewer: Any) -> dict[str, Any]:
    """A command's outcome: its version, its events as ``viewer`` may see them, the table now.

    A retried command (same Idempotency-Key) has the same version and events as the first
    answer, with ``duplicate`` true.
    """
    # From the fold the command left and its own events, with no read, when this process
    # has them (and kept for the acting seat's sockets: one rendering for both).
    update = command_update(result.table_id, viewer, result.events)
    if update is not None:
        events, table = update.events, update.view
    else:
        events = []
        if result.events:
            first = min(event.version for event in result.events)
            events = table_selectors.events_for_viewer(
                result.table_id, viewer, after_version=first - 1, limit=len(result.events)
            )
        table = table_selectors.table_view(result.table_id, viewer)
    return {
        "table_id": str(result.table_id),
        "version": result.version,
        "duplicate": result.duplicate,
        "events": events,
        "table": table,
    }


def events_page(events: list[dict[str, Any]], limit: int) -> dict[str, Any]:
    """One page of events; the selector was asked for ``limit + 1`` to know if more follow."""
    page = events[:limit]
    more = len(events) > limit
    return {"events": page, "next_after": page[-1]["version"] if more else None}


class TableSummarySerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    preset = JsonObjectField()
    seats = serializers.ListField(child=JsonObjectField())
    hand_number = serializers.IntegerField()
    seat_to_act = serializers.CharField(allow_null=True)
    totals = JsonObjectField()
    winner = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    last_played_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the table last changed (a move, a seat): null for a spectator of a "
        "table behind a spectator delay.",
    )


class TablePageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = TableSummarySerializer(many=True)


class TableListQuerySerializer(serializers.Serializer[Any]):
    page = serializers.IntegerField(required=False, default=1, min_value=1, max_value=10**6)
    status = serializers.ChoiceField(choices=[c for c, _ in Table.STATUS_CHOICES], required=False)
    mine = serializers.BooleanField(
        required=False, default=False, help_text="Only the tables where the caller has a seat."
    )


def _summary(table: Table, viewer: Any) -> dict[str, Any]:
    if (table.spectator_delay_tricks and table.status == "playing") or table.embargoed:
        user_id = table_selectors.viewer_user_id(viewer)
        if user_id is None or all(row.get("user_id") != user_id for row in table.seats):
            return _delayed_summary(table, table_selectors.table_view(table.id, viewer))
    return {
        "id": str(table.id),
        "version": table.version,
        "status": table.status,
        "preset": {"name": table.preset_name, "version": table.preset_version},
        "seats": table.seats,
        "hand_number": table.hand_number,
        "seat_to_act": SEAT_NAMES[table.seat_to_act] if table.seat_to_act is not None else None,
        "totals": table.totals,
        "winner": table.winner,
        "created_at": table.created_at,
        "last_played_at": table.updated_at,
    }


def _delayed_summary(table: Table, view: dict[str, Any]) -> dict[str, Any]:
    """A table in play behind a spectator delay (or a duplicate round's table before its
    boards are revealed), as its spectator sees it: the version, status, hand, turn and
    totals of the view it is shown, not the read model's live ones."""
    hand = view["hand"]
    return {
        "id": str(table.id),
        "version": view["version"],
        "status": view["status"],
        "preset": view["preset"],
        "seats": table.seats,
        "hand_number": hand["number"] if hand else 0,
        "seat_to_act": hand["turn"] if hand else None,
        "totals": view["scores"]["totals"],
        "winner": view["scores"]["winner"],
        "created_at": table.created_at,
        # The read model's time would tell when the moves not yet shown were made.
        "last_played_at": None,
    }


def table_page(page: TablePage, viewer: Any = None) -> dict[str, Any]:
    """One page of tables (``games.selectors.tables.table_page``) as ``viewer`` may see
    it: a table in play behind a spectator delay is summed up from the viewer's view
    (``games.selectors.visibility``) unless the viewer sits at it."""
    return {
        "count": page.count,
        "page": page.page,
        "pages": page.pages,
        "results": TableSummarySerializer(
            [_summary(t, viewer) for t in page.tables], many=True
        ).data,
    }
