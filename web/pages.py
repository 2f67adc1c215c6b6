"""The pages that show one table: the spectator's (``/tables/<id>/watch/``), the replay
viewer (``/tables/<id>/replay/``) and the verification recipe it links to.

The page itself holds no game data: its entry module reads the public replay,
verification, rescoring and presets endpoints. An unknown table answers 404 here, so a
mistyped link does not load an empty viewer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import Http404
from django.views.generic import TemplateView

from games.selectors.tables import table_exists


class WatchView(TemplateView):
    """The spectator's page of one table (the page reads the table itself)."""

    template_name = "web/watch.html"


class ReplayPageView(TemplateView):
    """The replay viewer for auditors: finished hands face up, rescoring, verification."""

    template_name = "web/replay.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        table_id = kwargs["table_id"]
        if not table_exists(table_id):
            raise Http404("There is no such table.")
        context["table_id"] = str(table_id)
        return context


class ParReplayPageView(TemplateView):
    """The replay viewer stepping through one par play of a revealed duplicate board: the
    play is played again by the server from the revealed seeds (``GET .../par/<i>``, the
    leagues API); the page asks for it, so a board not yet revealed is refused there."""

    template_name = "web/replay.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["table_id"] = ""
        context["par_source"] = (
            f"/api/competitions/{kwargs['competition_id']}/rounds/{kwargs['number']}"
            f"/boards/{kwargs['board']}/par/{kwargs['play']}"
        )
        return context


DOC = Path(settings.BASE_DIR) / "docs" / "tables.md"
SECTION = "## Verifying a game by hand"


def verifying_section(text: str) -> str:
    """The "Verifying a game by hand" section of docs/tables.md (up to the next section)."""
    start = text.find(SECTION)
    if start < 0:
        return ""
    rest = text[start + len(SECTION) :]
    end = rest.find("\n## ")
    return (rest if end < 0 else rest[:end]).strip()


class VerifyingDocView(TemplateView):
    """The recipe that the replay page's badge links to, served from the deployed docs.

    Served here rather than linked to a repository: an auditor on the site needs no
    repository access, and the text is the one that ships with the running code.
    """

    template_name = "web/verifying.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["text"] = verifying_section(DOC.read_text(encoding="utf-8"))
        return context
