"""Read-only admin views of the event log, stream heads, projection checkpoints and the
streams projections set aside.

An event's payload is shown through the registered redactors (``eventstore.redaction``),
so staff see no more of a game in progress than a spectator does.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from eventstore.models import BrokenStream, Checkpoint, Event, Stream
from eventstore.redaction import shown_data, shown_metadata


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """History is append-only: the admin shows it and changes nothing."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("position", "stream_id", "version", "type", "schema_version", "recorded_at")
    list_filter = ("type",)
    search_fields = ("=stream_id", "=command_id")
    ordering = ("-position",)
    show_full_result_count = False
    # The stored ``data`` and ``metadata`` are never shown as they are: ``payload`` and
    # ``metadata_shown`` are them after the redactors.
    fields = (
        "position",
        "stream_id",
        "version",
        "type",
        "schema_version",
        "payload",
        "metadata_shown",
        "command_id",
        "recorded_at",
        "hash",
        "prev_hash",
    )
    readonly_fields = fields

    @admin.display(description="data")
    def payload(self, obj: Event) -> str:
        shown = shown_data(obj.stream_id, obj.type, dict(obj.data))
        return json.dumps(shown, sort_keys=True, ensure_ascii=False)

    @admin.display(description="metadata")
    def metadata_shown(self, obj: Event) -> str:
        shown = shown_metadata(obj.stream_id, obj.type, dict(obj.data), dict(obj.metadata))
        return json.dumps(shown, sort_keys=True, ensure_ascii=False)


@admin.register(Stream)
class StreamAdmin(ReadOnlyAdmin):
    list_display = ("stream_id", "version", "head_hash", "updated_at")
    search_fields = ("=stream_id",)
    show_full_result_count = False


@admin.register(Checkpoint)
class CheckpointAdmin(ReadOnlyAdmin):
    list_display = ("name", "last_tx_id", "last_position", "updated_at")


@admin.register(BrokenStream)
class BrokenStreamAdmin(ReadOnlyAdmin):
    """Streams a projection could not apply (fix the cause, then rebuild_projections)."""

    list_display = ("projection", "stream_id", "event_version", "broken_at", "reason")
    list_filter = ("projection",)
    search_fields = ("=stream_id",)
