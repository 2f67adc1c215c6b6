"""A dropped WebSocket: the page reconnects with ?after=VERSION and catches up."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import PlaceBid, execute
from tests.e2e.web.conftest import Server
from tests.e2e.web.steps import sign_up


def test_server_restart_mid_game_loses_nothing(page: Any, server: Server, orm: None) -> None:
    from django.contrib.auth import get_user_model

    username = sign_up(page)
    page.click("#start-game")
    expect(page.locator("#bid-panel")).to_be_visible(timeout=30_000)
    table_id = json.loads(page.evaluate("localStorage.getItem('spades.table')"))["id"]

    server.web.stop()  # every WebSocket drops
    expect(page.locator("#connection")).to_contain_text("reconnecting")

    # While the page is cut off, the player bids from elsewhere and the bots move on.
    user = get_user_model().objects.get(username=username)
    execute(PlaceBid(table_id, "south", 3), user)
    server.web.start(timeout=60)

    expect(page.locator("#connection")).to_be_hidden(timeout=30_000)
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text("3")
    expect(page.locator("#bid-panel")).to_be_hidden()
    for seat in ("north", "east", "west"):
        expect(page.locator(f'.seat[data-seat="{seat}"] .seat-bid')).not_to_have_text("–")
