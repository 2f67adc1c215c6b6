"""The tournament pages are templates with local assets only; the data comes from the
leagues API (tests/integration/leagues/test_api_pages.py), and the client-only reads
they used to need are gone."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("/competitions/", "competitions.js"),
        ("/competitions/new/", "competition_new.js"),
        (f"/competitions/{uuid.uuid4()}/", "competition.js"),
        (f"/competitions/{uuid.uuid4()}/organise/", "competition_organise.js"),
        (f"/competitions/{uuid.uuid4()}/boards/", "competition_boards.js"),
    ],
)
def test_competition_pages_serve_local_assets_only(path: str, script: str) -> None:
    response = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f"/static/web/js/pages/{script}" in html
    assert not re.search(r"(src|href)=\"https?://", html)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        f"/api/client/competitions/{uuid.uuid4()}/people",
        "/api/client/players?username=someone",
        "/api/client/next-matches",
    ],
)
def test_the_client_only_reads_are_gone(path: str) -> None:
    assert Client().get(path).status_code == 404
