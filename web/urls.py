"""The browser client's pages and its helper endpoint."""

from django.urls import path
from django.views.generic import TemplateView

from web.api import BidSuggestionView


class WatchView(TemplateView):
    """The spectator's page of one table (the page reads the table itself)."""

    template_name = "web/watch.html"


urlpatterns = [
    path("", TemplateView.as_view(template_name="web/play.html"), name="web-play"),
    path(
        "calculator/",
        TemplateView.as_view(template_name="web/calculator.html"),
        name="web-calculator",
    ),
    path(
        "tables/<uuid:table_id>/watch/",
        WatchView.as_view(),
        name="web-watch",
    ),
    path(
        "api/tables/<uuid:table_id>/suggestion",
        BidSuggestionView.as_view(),
        name="table-bid-suggestion",
    ),
]
