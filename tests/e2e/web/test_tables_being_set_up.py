"""Issue 19: the public competition page read a table between ``RoundStarted`` and the
table's creation and got a 404. Reproduced with a start cut short between the two (the
round recorded, no table created yet): the page shows each board as being set up, reads
no table that is not there, and opens the boards when the competition's socket says the
tables exist. Desktop and phone, axe-core on the page."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connections
from playwright.sync_api import expect

from leagues.services.tables import start_round
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import axe_violations, competition_of_teams
from tests.factories import UserFactory
from tests.integration.leagues.test_tables_being_set_up import start_cut_short

pytestmark = pytest.mark.e2e


def start_in_thread(organiser: Any, cid: str) -> None:
    try:
        start_round(organiser, cid, 1)
    finally:
        connections.close_all()  # the test database is dropped at the end of the session


@BOTH_SCREENS
def test_the_boards_wait_for_their_tables_without_a_404(
    page: Any, orm: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    tag = uuid.uuid4().hex[:8]
    organiser, *players = (UserFactory(username=f"e2e-s{tag}-{k}") for k in range(9))
    spec = {
        "name": "Set-up night",
        "stages": [{"kind": "swiss", "rounds": 2}],
        "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
    }
    cid = competition_of_teams(organiser, players, spec, 4)
    missing: list[str] = []
    page.on(
        "response",
        lambda r: (
            missing.append(r.url)
            if r.status == 404 and urlsplit(r.url).path.startswith("/api/tables/")
            else None
        ),
    )
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).to_have_attribute("data-live", "live")

    start_cut_short(organiser, cid, monkeypatch)
    tiles = page.locator("#board-tiles .board-tile")
    expect(tiles).to_have_count(2)
    expect(page.locator('#board-tiles .board-tile[data-setup="true"]')).to_have_count(2)
    expect(tiles.first).to_contain_text("Setting up the table")
    assert axe_violations(page) == []

    # In a thread of its own, as the web or the scheduler runs it: this one runs
    # Playwright's event loop, where the channel layer's push cannot be made.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(start_in_thread, organiser, cid).result()
    expect(page.locator("#board-tiles .board-tile[data-setup]")).to_have_count(0)
    expect(page.locator('#board-tiles .board-tile[data-connection="open"]')).to_have_count(2)
    assert missing == []
