"""The bots' HTTP endpoint (included by ``web.urls``: the browser client asks for it)."""

from django.urls import path

from bots.api import BidSuggestionView

urlpatterns = [
    path(
        "api/tables/<uuid:table_id>/suggestion",
        BidSuggestionView.as_view(),
        name="table-bid-suggestion",
    ),
]
