"""What the player needs fits one screen: the table, their hand and the bid or play controls."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.web.conftest import SCREENSHOTS
from tests.e2e.web.steps import continue_table, sign_up, started_table

IN_VIEW = """(ids) => ids.map((id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  return { id, top: Math.round(box.top), bottom: Math.round(box.bottom),
           inside: box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0 };
})"""

SIZES = [pytest.param(1280, 900, id="desktop"), pytest.param(390, 844, id="phone")]


def outside(page: Any, ids: list[str]) -> list[dict[str, Any]]:
    return [box for box in page.evaluate(IN_VIEW, ids) if not box["inside"]]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_bidding_shows_the_hand_and_the_bids_on_one_screen(
    page: Any, orm: None, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
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
