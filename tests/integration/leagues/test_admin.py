"""The Django admin shows leagues and competitions read only, with their events."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from tests.factories import AdminFactory
from tests.integration.leagues import builders as lg
from tests.integration.leagues.builders import create_league

from .conftest import event_count

pytestmark = pytest.mark.django_db(transaction=True)


def staff_client() -> Client:
    client = Client()
    client.force_login(AdminFactory())
    return client


def test_a_competition_page_lists_its_events_and_changes_nothing(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    client = staff_client()
    listing = client.get("/admin/leagues/competition/")
    assert listing.status_code == 200
    assert cid in listing.content.decode()
    url = f"/admin/leagues/competition/{cid}/change/"
    response = client.get(url)
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    for event_type in ("CompetitionCreated", "EntrantRegistered", "RoundPaired"):
        assert event_type in text
    assert '"commitment"' in text  # the payload is shown
    assert f"?q=competition-{cid}" in text  # and the stream in the event log
    before = event_count()
    assert client.post(url, {"name": "Renamed"}).status_code == 403
    assert client.get("/admin/leagues/competition/add/").status_code == 403
    assert client.post(f"/admin/leagues/competition/{cid}/delete/").status_code == 403
    assert event_count() == before


def test_a_league_page_lists_its_events(organiser: Any) -> None:
    league = create_league(organiser, {"name": "Thursday Club"})
    client = staff_client()
    response = client.get(f"/admin/leagues/league/{league['id']}/change/")
    assert response.status_code == 200
    text = html.unescape(response.content.decode())
    assert "Thursday Club" in text
    assert "LeagueCreated" in text
    assert client.get("/admin/leagues/league/add/").status_code == 403
