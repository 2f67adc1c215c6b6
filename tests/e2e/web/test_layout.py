"""What the player needs fits one screen: the table, their hand and the bid or play controls;
the hand result shows over the table, where the player looks, and stays a few seconds."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.engine.seats import SEAT_NAMES
from games.services.table_commands import PlaceBid, execute
from games.services.table_state import reading_state
from tests.e2e.web.conftest import BOTH_SCREENS, SCREENSHOTS
from tests.e2e.web.steps import (
    ORDER,
    continue_table,
    four_human_table,
    hold_clock,
    play_out_hand,
    sign_up,
    started_table,
    stream_version,
)

IN_VIEW = """(ids) => ids.map((id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  return { id, top: Math.round(box.top), bottom: Math.round(box.bottom),
           inside: box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0 };
})"""

# The hand result's box, and how much of it lies over the felt (the table's green).
OVER_TABLE = """() => {
  const result = document.getElementById("hand-result").getBoundingClientRect();
  const felt = document.getElementById("felt").getBoundingClientRect();
  const w = Math.min(result.right, felt.right) - Math.max(result.left, felt.left);
  const h = Math.min(result.bottom, felt.bottom) - Math.max(result.top, felt.top);
  return { over: w > 0 && h > 0 ? (w * h) / (result.width * result.height) : 0 };
}"""
HAND_RESULT_MS = 8000  # web/js/table/renderer.js


def outside(page: Any, ids: list[str]) -> list[dict[str, Any]]:
    return [box for box in page.evaluate(IN_VIEW, ids) if not box["inside"]]


@BOTH_SCREENS
def test_bidding_shows_the_hand_and_the_bids_on_one_screen(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    width, height = viewport["width"], viewport["height"]
    username = sign_up(page)
    table_id = started_table(username, {"preset": "standard"}, first_dealer="west")
    continue_table(page, table_id)
    expect(page.locator("#bid-panel")).to_be_visible(timeout=30_000)
    expect(page.locator(".bid-button").first).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"play-bidding-{width}x{height}.png"))

    assert outside(page, ["felt", "bid-buttons", "hand", "status-line"]) == []

    # Playing: the trick in the middle and the hand, together.
    expect(page.locator("#table-section")).to_have_attribute("data-presenting", "false")
    page.locator(".bid-button").nth(3).click()
    expect(page.locator(".hand .card.playable").first).to_be_visible(timeout=30_000)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"play-playing-{width}x{height}.png"))
    assert outside(page, ["trick", "hand", "status-line"]) == []


@BOTH_SCREENS
def test_the_hand_result_shows_over_the_table_and_the_next_hand_leaves_it_there(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    from django.contrib.auth import get_user_model

    page.clock.install()  # the result's few seconds are the page's clock, held below
    username = sign_up(page)
    table_id, others, _, _ = four_human_table(username)
    users = {**others, "south": get_user_model().objects.get(username=username)}
    continue_table(page, table_id)
    expect(page.locator("#status-line")).to_contain_text("West to play")

    play_out_hand(table_id, users)  # all 52 cards: the page hears them over the WebSocket
    result = page.locator("#hand-result")
    expect(result).to_be_visible(timeout=60_000)
    # Hold the page's timers from here: the result's timeout runs only when the test says.
    hold_clock(page)
    expect(result).to_have_attribute("data-hand", "1")
    expect(page.locator("#hand-number")).to_contain_text("Hand 2")
    assert outside(page, ["hand-result"]) == [], "the result is off screen"
    assert page.evaluate(OVER_TABLE)["over"] > 0.5, "the result is not over the table"

    # The next hand goes on (two bids, then it is south's turn): the result stays put.
    for _ in range(2):
        with reading_state(table_id) as state:
            seat = SEAT_NAMES[state.hand.turn]
        assert seat in ORDER
        execute(PlaceBid(table_id, seat, 3), users[seat])
    section = page.locator("#table-section")
    page.clock.run_for(2000)  # the last trick's pause, if it was still on
    expect(section).to_have_attribute("data-version", str(stream_version(table_id)))
    expect(section).to_have_attribute("data-presenting", "false")
    expect(page.locator("#bid-panel")).to_be_visible()
    expect(result).to_be_visible()
    assert outside(page, ["hand-result"]) == []
    assert page.evaluate(OVER_TABLE)["over"] > 0.5
    page.screenshot(
        path=str(SCREENSHOTS / f"play-hand-result-{viewport['width']}x{viewport['height']}.png")
    )

    # A few seconds later it gives way to the table.
    page.clock.run_for(HAND_RESULT_MS)
    expect(result).to_be_hidden()
    expect(page.locator("#bid-panel")).to_be_visible()
