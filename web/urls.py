"""The browser client's pages, and the bots' helper endpoint it asks (``bots.urls``)."""

from django.urls import include, path
from django.views.generic import TemplateView

from web.account import (
    PasswordResetConfirmPage,
    PasswordResetDonePage,
    PasswordResetPage,
    PasswordResetSentPage,
)
from web.competitions import (
    CompetitionBoardsView,
    CompetitionJoinView,
    CompetitionListView,
    CompetitionNewView,
    CompetitionOrganiseView,
    CompetitionPageView,
)
from web.leagues import LeagueListView, LeaguePageView, RatingsPageView
from web.pages import ParReplayPageView, ReplayPageView, VerifyingDocView, WatchView

urlpatterns = [
    path("", TemplateView.as_view(template_name="web/play.html"), name="web-play"),
    path(
        "calculator/",
        TemplateView.as_view(template_name="web/calculator.html"),
        name="web-calculator",
    ),
    path("tables/<uuid:table_id>/watch/", WatchView.as_view(), name="web-watch"),
    path("tables/<uuid:table_id>/replay/", ReplayPageView.as_view(), name="web-replay"),
    path("docs/verifying/", VerifyingDocView.as_view(), name="web-verifying"),
    path("competitions/", CompetitionListView.as_view(), name="web-competitions"),
    path("competitions/new/", CompetitionNewView.as_view(), name="web-competition-new"),
    path(
        "competitions/<uuid:competition_id>/",
        CompetitionPageView.as_view(),
        name="web-competition",
    ),
    path(
        "competitions/<uuid:competition_id>/boards/",
        CompetitionBoardsView.as_view(),
        name="web-competition-boards",
    ),
    path(
        "competitions/<uuid:competition_id>/rounds/<int:number>/boards/<int:board>/par/<int:play>/",
        ParReplayPageView.as_view(),
        name="web-par-replay",
    ),
    path(
        "competitions/<uuid:competition_id>/organise/",
        CompetitionOrganiseView.as_view(),
        name="web-competition-organise",
    ),
    path(
        "competitions/<uuid:competition_id>/join/",
        CompetitionJoinView.as_view(),
        name="web-competition-join",
    ),
    path("leagues/", LeagueListView.as_view(), name="web-leagues"),
    path("leagues/<uuid:league_id>/", LeaguePageView.as_view(), name="web-league"),
    path("ratings/", RatingsPageView.as_view(), name="web-ratings"),
    path("account/", TemplateView.as_view(template_name="web/account.html"), name="web-account"),
    path("account/password-reset/", PasswordResetPage.as_view(), name="web-password-reset"),
    path(
        "account/password-reset/sent/",
        PasswordResetSentPage.as_view(),
        name="web-password-reset-sent",
    ),
    path(
        "account/reset/<uidb64>/<token>/",
        PasswordResetConfirmPage.as_view(),
        name="web-password-reset-confirm",
    ),
    path("account/reset/done/", PasswordResetDonePage.as_view(), name="web-password-reset-done"),
    path("", include("bots.urls")),
]
