"""The lobby's lists: a friend finds an open table and sits down; a table in play is listed
for anyone to watch, and its Watch link opens the spectator's page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.models import Table
from tests.e2e.web.conftest import BOTH_SCREENS, SCREENSHOTS
from tests.e2e.web.steps import assert_plain_words, sign_up


@BOTH_SCREENS
def test_a_friend_joins_from_open_tables_and_a_third_watches_from_tables_in_play(
    page: Any, browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    creator = sign_up(page)
    page.check('input[name="company"][value="friends"]')
    page.select_option("#seat-north", "human")
    page.select_option("#seat-east", "easy")
    page.select_option("#seat-west", "easy")
    page.click("#start-game")
    expect(page.locator("#lobby-panel")).to_be_visible()
    table_id = page.evaluate("JSON.parse(localStorage.getItem('spades.table')).id")
    # One request made the table with the creator seated: nothing half-made is listed.
    assert Table.objects.filter(created_by__username=creator).count() == 1
    expect(page.locator("#start-table")).to_be_disabled()
    assert_plain_words(page)

    friend_context = browser.new_context(base_url=server_url, viewport=viewport)
    watcher_context = browser.new_context(base_url=server_url, viewport=viewport)
    try:
        friend = friend_context.new_page()
        sign_up(friend)
        listed = friend.locator(f'#open-tables .game-item[data-table="{table_id}"]')
        expect(listed).to_contain_text(creator)
        expect(listed).to_contain_text("1 free seat")
        assert_plain_words(friend)
        friend.screenshot(
            path=str(SCREENSHOTS / f"lobby-open-tables-{viewport['width']}.png"), full_page=True
        )
        listed.get_by_role("button", name="Join as North").click()
        expect(friend.locator("#table-section")).to_be_visible()
        expect(friend.locator('.seat[data-seat="north"] .seat-name')).to_contain_text("You")

        # The creator's lobby panel hears the friend sit down; the game starts.
        expect(page.locator("#start-table")).to_be_enabled()
        page.click("#start-table")
        expect(page.locator("#lobby-panel")).to_be_hidden()
        expect(page.locator("#hand-number")).to_contain_text("Hand 1")

        watcher = watcher_context.new_page()
        sign_up(watcher)
        expect(watcher.locator(f'#open-tables .game-item[data-table="{table_id}"]')).to_have_count(
            0
        )
        playing = watcher.locator(f'#watch-tables .game-item[data-table="{table_id}"]')
        expect(playing).to_contain_text("Hand 1")
        expect(playing).to_contain_text(creator)
        assert_plain_words(watcher)
        playing.get_by_role("link", name="Watch").click()
        expect(watcher).to_have_url(f"{server_url}/tables/{table_id}/watch/")
        expect(watcher.locator("body")).to_have_attribute("data-ready", "true")
        expect(watcher.locator("#hand-number")).to_contain_text("Hand 1")
        expect(watcher.locator("#watch-note")).to_be_visible()
        expect(watcher.locator("#hand button.card")).to_have_count(0)
        assert_plain_words(watcher)
        watcher.screenshot(
            path=str(SCREENSHOTS / f"lobby-watch-{viewport['width']}.png"), full_page=True
        )
    finally:
        friend_context.close()
        watcher_context.close()
