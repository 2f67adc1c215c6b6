"""The browser client's pages, and the bots' helper endpoint it asks (``bots.urls``)."""

from django.urls import include, path
from django.views.generic import TemplateView

urlpatterns = [
    path("", TemplateView.as_view(template_name="web/play.html"), name="web-play"),
    path(
        "calculator/",
        TemplateView.as_view(template_name="web/calculator.html"),
        name="web-calculator",
    ),
    path("", include("bots.urls")),
]
