"""What a WebSocket consumer sends, through the ONE per-viewer filter of the REST API
(``games.selectors.views``): the viewer's table view and events."""

from __future__ import annotations

from typing import Any


def table_state(table_id: str, viewer: Any) -> dict[str, Any] | None:
    """The viewer's ``table_view``, or None when there is no such table."""
    from games.selectors.views import table_view
    from games.services.errors import CommandRejected

    try:
        return table_view(table_id, viewer)
    except CommandRejected as refusal:
        if refusal.status == 404:
            return None
        raise


def events_since(
    table_id: str, viewer: Any, after: int
) -> tuple[int, list[dict[str, Any]], dict[str, Any]]:
    """(V, the viewer's events with ``after < version <= V``, the viewer's view at V).

    The view is read first and the events are cut at its version, so the message is
    consistent even when a commit lands between the two reads (its events come next time).
    """
    from games.selectors.views import events_for_viewer, table_view

    view = table_view(table_id, viewer)
    version = int(view["version"])
    if version <= after:
        return version, [], view
    events = [
        event
        for event in events_for_viewer(table_id, viewer, after_version=after)
        if event["version"] <= version
    ]
    return version, events, view
