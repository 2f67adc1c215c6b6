"""Keyboard focus survives the table's updates; the page's words say things once and fully."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import PlayCard, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import ORDER, continue_table, four_human_table, sign_up

FOCUSED = """() => {
  const el = document.activeElement;
  return el && el.closest("#hand") ? el.dataset.card : (el ? el.tagName : null);
}"""

RING = """(card) => {
  const el = document.querySelector(`#hand button.card[data-card="${card}"]`);
  const style = getComputedStyle(el);
  return { outline: style.outlineColor, width: style.outlineWidth,
           counted: getComputedStyle(document.documentElement).getPropertyValue("--focus").trim() };
}"""


PLAYABLE = (
    "() => [...document.querySelectorAll('#hand button.card.playable')].map(b => b.dataset.card)"
)


@BOTH_SCREENS
def test_focus_stays_on_the_hand_across_updates(page: Any, orm: None) -> None:
    username = sign_up(page)
    table_id, others, firsts, _ = four_human_table(username)
    continue_table(page, table_id)
    expect(page.locator("#status-line")).to_contain_text("West to play")
    card = page.locator("#hand button.card").nth(4)
    name = card.get_attribute("data-card")
    card.focus()
    page.keyboard.press("ArrowRight")  # a key press makes the focus ring "visible"
    card.focus()
    assert page.evaluate(FOCUSED) == name

    # Three updates redraw the hand; the focus stays in it: on the same card if that card
    # may be played now, else (issue 19: at each turn the focus moves to what the player
    # acts on) on the first playable card.
    for seat, played in zip(ORDER, firsts, strict=True):
        execute(PlayCard(table_id, seat, played), others[seat])
    expect(page.locator(".trick-slot .card")).to_have_count(3)
    expect(page.locator("#status-line")).to_contain_text("play a card")
    playable = page.evaluate(PLAYABLE)
    assert playable
    name = name if name in playable else playable[0]
    assert page.evaluate(FOCUSED) == name

    ring = page.evaluate(RING, name)
    assert ring["width"] == "3px"
    assert ring["outline"] == "rgb(76, 194, 255)", ring  # blue, not the yellow of ★ and turns


@BOTH_SCREENS
def test_rules_named_once_and_every_password_reason_shown(page: Any, orm: None) -> None:
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#register-username", "e2e-words-user")
    page.fill("#register-password", "12345678")  # too common, and entirely numeric
    page.click("#register-form button[type=submit]")
    error = page.locator("#register-error")
    expect(error).to_contain_text("too common")
    expect(error).to_contain_text("entirely numeric")

    sign_up(page)
    page.select_option("#setup-preset", "easy")
    page.click("#start-game")
    expect(page.locator("#rules-summary")).to_contain_text("Easy rules · ")
    assert "rules rules" not in page.locator("#rules-summary").inner_text()
