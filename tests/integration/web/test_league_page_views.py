"""The leagues and ratings pages are templates with local assets only (their data comes
from the leagues API: tests/integration/leagues/test_league_and_rating_reads.py), and
every page has the site navigation with the page (or its section) marked current."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

NAV = re.compile(r'<nav aria-label="Main">(.*?)</nav>', re.S)
LINK = re.compile(r'<a href="([^"]+)"( aria-current="(page|true)")?>([^<]+)</a>')


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "script"),
    [
        ("/leagues/", "pages/leagues.js"),
        (f"/leagues/{uuid.uuid4()}/", "pages/league.js"),
        ("/ratings/", "pages/ratings.js"),
    ],
)
def test_league_and_rating_pages_serve_local_assets_only(path: str, script: str) -> None:
    response = Client().get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'<script type="module" src="/static/web/js/{script}"></script>' in html
    assert "/static/web/css/leagues.css" in html
    assert not re.search(r"(src|href)=\"https?://", html)
    assert "<script>" not in html  # the CSP allows no inline script


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "current"),
    [
        ("/", ("Play", "page")),
        ("/competitions/", ("Tournaments", "page")),
        (f"/competitions/{uuid.uuid4()}/organise/", ("Tournaments", "true")),
        ("/leagues/", ("Leagues", "page")),
        (f"/leagues/{uuid.uuid4()}/", ("Leagues", "true")),
        ("/ratings/", ("Ratings", "page")),
        ("/calculator/", ("Calculator", "page")),
        ("/account/", None),
    ],
)
def test_every_page_has_the_site_navigation(path: str, current: tuple[str, str] | None) -> None:
    html = Client().get(path).content.decode()

    nav = NAV.search(html)
    assert nav is not None
    links = LINK.findall(nav.group(1))
    assert [(href, text) for href, _, _, text in links] == [
        ("/", "Play"),
        ("/competitions/", "Tournaments"),
        ("/leagues/", "Leagues"),
        ("/ratings/", "Ratings"),
        ("/calculator/", "Calculator"),
    ]
    marked = [(text, how) for _, _, how, text in links if how]
    assert marked == ([current] if current else [])
