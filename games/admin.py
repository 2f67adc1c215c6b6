"""Admin of the games app: tables are read only (their truth is the event stream)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "status", "version", "preset_name", "preset_version", "hand_number"]
    list_filter = ["status", "preset_name"]
    readonly_fields = [field.name for field in Table._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.method in ("GET", "HEAD") and super().has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
