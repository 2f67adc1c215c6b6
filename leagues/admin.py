"""Admin of the leagues app: leagues and competitions, read only, with their events.

The rows are read models; the truth is each one's event stream, listed on its page
(payloads through ``eventstore.redaction.shown_data``, as the event log's own admin shows
them) with a link to the stream in the event log.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from eventstore.models import Event
from eventstore.redaction import shown_data
from leagues.domain import events as ev
from leagues.models import Competition, League

MAX_EVENTS_SHOWN = 500


def events_table(stream_id: str) -> str:
    """The stream's events as an HTML table (the first ``MAX_EVENTS_SHOWN``) and a link."""
    events = list(
        Event.objects.filter(stream_id=stream_id).order_by("version")[: MAX_EVENTS_SHOWN + 1]
    )
    link = format_html(
        '<p><a href="{}?q={}">{} in the event log</a></p>',
        reverse("admin:eventstore_event_changelist"),
        stream_id,
        stream_id,
    )
    if not events:
        return format_html("{}<p>No events.</p>", link)
    more = len(events) > MAX_EVENTS_SHOWN
    rows = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
        (
            (
                event.version,
                event.type,
                event.recorded_at.isoformat(timespec="seconds"),
                json.dumps(
                    shown_data(event.stream_id, event.type, dict(event.data)),
                    sort_keys=True,
                    ensure_ascii=False,
                ),
            )
            for event in events[:MAX_EVENTS_SHOWN]
        ),
    )
    return format_html(
        "{}<table><thead><tr><th>version</th><th>type</th><th>recorded</th><th>data</th>"
        "</tr></thead><tbody>{}</tbody></table>{}",
        link,
        rows,
        format_html("<p>First {} shown.</p>", MAX_EVENTS_SHOWN) if more else "",
    )


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Changes go through the organiser API (events), never through a row."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Competition)
class CompetitionAdmin(ReadOnlyAdmin):
    list_display = ("id", "name", "kind", "status", "season", "division", "version", "updated_at")
    list_filter = ("kind", "status")
    search_fields = ("name", "=id")
    fields = (
        "id",
        "name",
        "kind",
        "league_id",
        "season",
        "division",
        "organisers",
        "status",
        "version",
        "created_at",
        "updated_at",
        "events",
    )
    readonly_fields = fields

    @admin.display(description="events")
    def events(self, obj: Competition) -> str:
        return events_table(ev.competition_stream_id(str(obj.id)))


@admin.register(League)
class LeagueAdmin(ReadOnlyAdmin):
    list_display = ("id", "name", "version", "created_at")
    search_fields = ("name", "=id")
    fields = ("id", "name", "organisers", "version", "created_at", "events")
    readonly_fields = fields

    @admin.display(description="events")
    def events(self, obj: League) -> str:
        return events_table(ev.league_stream_id(str(obj.id)))
