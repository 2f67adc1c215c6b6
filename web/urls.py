"""The browser client's pages and its helper endpoint."""

from django.urls import path
from django.views.generic import TemplateView

from web.api import BidSuggestionView
from web.pages import ReplayPageView, VerifyingDocView

urlpatterns = [
    path("", TemplateView.as_view(template_name="web/play.html"), name="web-play"),
    path(
        "calculator/",
        TemplateView.as_view(template_name="web/calculator.html"),
        name="web-calculator",
    ),
    path("tables/<uuid:table_id>/replay/", ReplayPageView.as_view(), name="web-replay"),
    path("docs/verifying/", VerifyingDocView.as_view(), name="web-verifying"),
    path(
        "api/tables/<uuid:table_id>/suggestion",
        BidSuggestionView.as_view(),
        name="table-bid-suggestion",
    ),
]
