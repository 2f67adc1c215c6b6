"""Routes under ``/api/``: tables and their commands."""

from __future__ import annotations

from django.urls import include, path, register_converter

from games.api import lobby, views
from games.engine.seats import SEAT_NAMES


class SeatConverter:
    """A seat in a path: its name (``north``..``west``) or its index (0-3)."""

    regex = "(?:north|east|south|west|[0-3])"

    def to_python(self, value: str) -> int:
        return int(value) if value.isdigit() else SEAT_NAMES.index(value)

    def to_url(self, value: int | str) -> str:
        return SEAT_NAMES[value] if isinstance(value, int) else str(value)


register_converter(SeatConverter, "seat")

seat = "tables/<uuid:table_id>/seats/<seat:seat>"

urlpatterns = [
    path("tables", views.TableListView.as_view(), name="tables"),
    path("tables/quick", lobby.QuickGameView.as_view(), name="tables-quick"),
    path("tables/friends", lobby.FriendsTableView.as_view(), name="tables-friends"),
    path("tables/<uuid:table_id>", views.TableDetailView.as_view(), name="table"),
    path("tables/<uuid:table_id>/events", views.TableEventsView.as_view(), name="table-events"),
    path("tables/<uuid:table_id>/export", views.TableExportView.as_view(), name="table-export"),
    path("tables/<uuid:table_id>/start", views.StartGameView.as_view(), name="table-start"),
    path("tables/<uuid:table_id>/look", views.LookView.as_view(), name="table-look"),
    path("tables/<uuid:table_id>/bid", views.BidView.as_view(), name="table-bid"),
    path("tables/<uuid:table_id>/pass", views.PassView.as_view(), name="table-pass"),
    path("tables/<uuid:table_id>/play", views.PlayView.as_view(), name="table-play"),
    path("tables/<uuid:table_id>/abandon", views.AbandonView.as_view(), name="table-abandon"),
    path(
        "tables/<uuid:table_id>/invitations",
        views.SeatInvitationsView.as_view(),
        name="table-invitations",
    ),
    path(f"{seat}/take", views.TakeSeatView.as_view(), name="seat-take"),
    path(f"{seat}/reserve", views.ReserveSeatView.as_view(), name="seat-reserve"),
    path(f"{seat}/reissue", views.ReissueInvitationView.as_view(), name="seat-reissue"),
    path(f"{seat}/revoke", views.RevokeInvitationView.as_view(), name="seat-revoke"),
    path(f"{seat}/leave", views.LeaveSeatView.as_view(), name="seat-leave"),
    path(f"{seat}/bot", views.HandToBotView.as_view(), name="seat-bot"),
    path(f"{seat}/reclaim", views.ReclaimView.as_view(), name="seat-reclaim"),
    path("", include("games.api.replay")),  # the replay viewer's reads
]
