"""The leagues and ratings pages: templates only. Their modules (web/static/web/js/leagues/,
web/static/web/js/ratings/) read and write through the leagues API (``/api/leagues...``,
``/api/competitions/<id>...``, ``/api/ratings...``); nothing here reads a model
(docs/client.md, Leagues and ratings pages)."""

from __future__ import annotations

from django.views.generic import TemplateView


class LeagueListView(TemplateView):
    template_name = "web/leagues.html"


class LeaguePageView(TemplateView):
    template_name = "web/league.html"


class RatingsPageView(TemplateView):
    template_name = "web/ratings.html"
