"""My games: the player's tables come from the server, so they follow the player anywhere."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from games.models import Table
from games.services.table_commands import HandSeatToBot, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import sign_up, started_table

ONE_HAND_GAME = {"preset": "standard", "target_score": 10, "lose_score": -10}


def wait_until_finished(table_id: str, seconds: float = 120) -> None:
    """The bots play the game out through the worker: wait for its read model to say so."""
    deadline = time.monotonic() + seconds
    while Table.objects.get(id=table_id).status != "finished":
        assert time.monotonic() < deadline, f"table {table_id} did not finish in {seconds} s"
        time.sleep(0.2)


def log_in(page: Any, username: str) -> None:
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#login-username", username)
    page.fill("#login-password", "correct-horse-42")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#setup-section")).to_be_visible()


@BOTH_SCREENS
def test_games_in_play_and_finished_are_listed_in_another_browser(
    page: Any, browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    from django.contrib.auth import get_user_model

    username = sign_up(page)
    page.click("#start-game")  # a game in play, started from this browser
    expect(page.locator("#table-section")).to_be_visible()
    in_play = page.evaluate("JSON.parse(localStorage.getItem('spades.table')).id")
    finished = started_table(username, ONE_HAND_GAME)
    user = get_user_model().objects.get(username=username)
    execute(HandSeatToBot(finished, "south", level="easy"), user)
    wait_until_finished(finished)

    # Another browser: nothing in its storage, the games come from the server.
    other = browser.new_context(base_url=server_url, viewport=viewport)
    try:
        tab = other.new_page()
        log_in(tab, username)
        playing = tab.locator(f'.game-item[data-table="{in_play}"]')
        expect(playing).to_contain_text("In play")
        done = tab.locator(f'.game-item[data-table="{finished}"]')
        expect(done).to_contain_text("Finished")
        expect(done.get_by_role("link", name="Replay")).to_have_attribute(
            "href", f"/tables/{finished}/replay/"
        )
        playing.get_by_role("button", name="Continue").click()
        expect(tab.locator("#table-section")).to_be_visible()
        expect(tab.locator("#hand-number")).to_contain_text("Hand 1")
    finally:
        other.close()
