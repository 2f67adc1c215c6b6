"""The tournament pages: templates only. Their modules (web/static/web/js/competitions/)
read and write through the leagues API (``/api/competitions...``,
``/api/players/me/next-matches``); nothing here reads a model (docs/client.md,
Tournament pages)."""

from __future__ import annotations

from django.views.generic import TemplateView


class CompetitionListView(TemplateView):
    template_name = "web/competitions.html"


class CompetitionPageView(TemplateView):
    template_name = "web/competition.html"


class CompetitionBoardsView(TemplateView):
    """A duplicate competition's standings, boards and travellers."""

    template_name = "web/competition_boards.html"


class CompetitionOrganiseView(TemplateView):
    template_name = "web/competition_organise.html"


class CompetitionNewView(TemplateView):
    template_name = "web/competition_new.html"


class CompetitionJoinView(TemplateView):
    """The landing page of the invitation link and of a partner link (their secrets are
    in the URL fragment: the server never sees them)."""

    template_name = "web/competition_join.html"
