"""Read-only admin views of the event log, stream heads, projection checkpoints and the
streams projections set aside."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from eventstore.models import BrokenStream, Checkpoint, Event, Stream


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
