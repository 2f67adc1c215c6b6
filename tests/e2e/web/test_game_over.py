"""The end of a hand and of the game, shown from the server's ledger."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import HandSeatToBot, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_plain_words, continue_table, sign_up, started_table

# A game that one hand almost always decides: a made contract reaches 10, a set one -10.
ONE_HAND_GAME = {"preset": "standard", "target_score": 10, "lose_score": -10}


@BOTH_SCREENS
def test_bots_finish_the_game_and_the_page_shows_result_and_winner(page: Any, orm: None) -> None:
    from django.contrib.auth import get_user_model

    username = sign_up(page)
    table_id = started_table(username, ONE_HAND_GAME)
    continue_table(page, table_id)
    expect(page.locator("#bid-panel")).to_be_visible()

    # Hand the seat to a bot: the rest of the game arrives over the WebSocket.
    user = get_user_model().objects.get(username=username)
    execute(HandSeatToBot(table_id, "south", level="easy"), user)

    expect(page.locator("#game-over")).to_be_visible(timeout=60_000)
    expect(page.locator("#game-over-text")).to_contain_text("won")
    expect(page.locator("#hand-result")).to_be_visible()
    expect(page.locator("#bid-panel")).to_be_hidden()
    rows = page.locator("#score-sheet-rows tr")
    expect(rows.first).to_be_visible()
    final_us = page.locator("#score-us").inner_text()
    expect(rows.last.locator("td").first).to_contain_text(f"→ {final_us}")
    for team, box in (("north_south", "us"), ("east_west", "them")):
        total = page.locator(f'#hand-result .breakdown[data-team="{team}"] .after-hand')
        expect(total).to_contain_text(f"Total {page.locator(f'#score-{box}').inner_text()}")
    assert_plain_words(page)

    # The game's last result is over the table, on screen, until the player closes it.
    box = page.locator("#hand-result").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    page.click("#dismiss-result")
    expect(page.locator("#hand-result")).to_be_hidden()
    expect(page.locator("#game-over")).to_be_visible()
