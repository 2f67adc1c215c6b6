"""Admin of the games app: tables are read only (their truth is the event stream)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from games.models import Table


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    """Who sits where, how far the game is, and links to watch it or replay it."""

    class Media:
        css = {"all": ["web/css/admin.css"]}

    list_display = [
        "id",
        "status",
        "players",
        "preset_name",
        "preset_version",
        "hand_number",
        "created_at",
        "pages",
    ]
    list_filter = ["status", "preset_name"]
    search_fields = ["id", "preset_name"]
    readonly_fields = [*(field.name for field in Table._meta.fields), "players", "pages"]

    @admin.display(description="players")
    def players(self, obj: Table) -> str:
        return ", ".join(_seat_words(seat) for seat in obj.seats or []) or "no seat taken"

    @admin.display(description="pages")
    def pages(self, obj: Table) -> str:
        return format_html(
            '<a href="{}">watch</a> · <a href="{}">replay</a>',
            reverse("web-watch", kwargs={"table_id": obj.pk}),
            f"/tables/{obj.pk}/replay/",
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.method in ("GET", "HEAD") and super().has_view_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _seat_words(seat: dict[str, Any]) -> str:
    name = str(seat.get("seat", "?")).capitalize()
    if seat.get("kind") == "bot":
        return f"{name}: bot ({seat.get('level') or 'default'})"
    user_id = seat.get("user_id")
    return f"{name}: {seat.get('username') or (f'user {user_id}' if user_id else 'open')}"
