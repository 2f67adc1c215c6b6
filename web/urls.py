"""The browser client's pages, and the bots' helper endpoint it asks (``bots.urls``)."""

from django.urls import include, path
from django.views.generic import TemplateView


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
    path("tables/<uuid:table_id>/watch/", WatchView.as_view(), name="web-watch"),
    path("", include("bots.urls")),
]
