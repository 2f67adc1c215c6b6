"""Keyboard play: a whole hand against bots with the keyboard only.

At each turn the focus is on what to act on (the suggested bid, the first playable card);
the bids and the hand are one tab stop each, the arrow keys move inside and skip the cards
that cannot be played.
"""

from __future__ import annotations

import uuid
from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import PlaceBid, StartGame, TakeSeat, create_table, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import ORDER, axe_violations, continue_table, sign_up, started_table
from tests.factories import UserFactory

# What has the focus: its id, its card or bid, and whether a card is playable.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return { body: true };
  return { id: el.id, card: el.dataset.card || null, bid: el.dataset.bid || null,
           playable: el.classList.contains("playable"), illegal: el.classList.contains("illegal"),
           inHand: Boolean(el.closest("#hand")), suggested: el.classList.contains("suggested") };
}"""

# The player's turn to play is on screen and the focus is on a playable card.
FOCUS_ON_PLAYABLE = """() => {
  const el = document.activeElement;
  const section = document.getElementById("table-section");
  return section.dataset.presenting === "false" && el && el.matches("#hand button.card.playable");
}"""

TAB_STOPS = """(selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.tabIndex === 0).length"""


def focus(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(FOCUS)
    return result


def tab_to(page: Any, element_id: str, most: int = 40) -> None:
    """Press Tab until ``element_id`` has the focus (as a keyboard user would)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if focus(page).get("id") == element_id:
            return
    raise AssertionError(f"#{element_id} not reached in {most} Tabs")


@BOTH_SCREENS
def test_a_whole_hand_played_with_the_keyboard_only(page: Any, orm: None) -> None:
    username = sign_up(page)
    # East deals: south (the player) bids first, west leads the first trick.
    table_id = started_table(username, {"preset": "standard"})
    page.evaluate("id => localStorage.setItem('spades.table', JSON.stringify({ id }))", table_id)
    page.reload()
    expect(page.locator("#continue-box")).to_be_visible()
    tab_to(page, "continue-game")
    page.keyboard.press("Enter")

    # The bid: the focus is on the suggested bid as soon as it is known.
    expect(page.locator("#bid-panel")).to_be_visible()
    expect(page.locator("#suggestion")).to_contain_text("Suggested bid:")
    page.wait_for_function("() => document.activeElement.matches('.bid-button.suggested')")
    assert page.evaluate(TAB_STOPS, "#bid-buttons .bid-button") == 1
    suggested = focus(page)["bid"]
    page.keyboard.press("Home")
    assert focus(page)["bid"] == "0"  # Nil, the first bid
    page.keyboard.press("ArrowRight")
    assert focus(page)["bid"] == "1"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("End")
    assert focus(page)["bid"] == "13"
    # Back to the suggested bid with the arrows, and bid it.
    while focus(page)["bid"] != suggested:
        page.keyboard.press("ArrowLeft")
    assert axe_violations(page) == []
    page.keyboard.press("Enter")
    expect(page.locator("#bid-panel")).to_be_hidden()
    shown = "Nil" if suggested == "0" else suggested
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text(shown)

    skipped = tabbed = False
    for trick in range(13):
        page.wait_for_function(FOCUS_ON_PLAYABLE, timeout=60_000)
        assert page.evaluate(TAB_STOPS, "#hand button.card") == 1
        if not skipped and page.locator("#hand .card.illegal").count():
            # The arrows, Home and End visit only the cards that may be played.
            playable = page.locator("#hand .card.playable").count()
            for key in ["End", "Home"] + ["ArrowRight"] * (playable + 1) + ["ArrowLeft"] * 2:
                page.keyboard.press(key)
                now = focus(page)
                assert now["playable"] and not now["illegal"], (key, now)
            assert axe_violations(page) == []
            skipped = True
        if not tabbed:
            # The hand is one tab stop: Tab leaves it, Shift+Tab comes back to the same card.
            card = focus(page)["card"]
            page.keyboard.press("Tab")
            assert not focus(page).get("inHand")
            page.keyboard.press("Shift+Tab")
            assert focus(page)["card"] == card
            tabbed = True
        card = focus(page)["card"]
        page.keyboard.press("Enter")
        if trick == 12:
            break  # the next hand may be dealt at once: its cards are not this hand's
        expect(page.locator(f'#hand .card[data-card="{card}"]')).to_have_count(0)
        expect(page.locator("#hand button.card")).to_have_count(12 - trick)

    # The hand is over and scored: the keyboard played all of it.
    expect(page.locator("#score-sheet-rows tr")).to_have_count(1, timeout=30_000)
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    assert skipped, "no turn had a card that could not be played"
    assert axe_violations(page) == []


@BOTH_SCREENS
def test_the_turn_does_not_take_the_focus_from_a_field(page: Any, orm: None) -> None:
    from django.contrib.auth import get_user_model

    username = sign_up(page)
    south = get_user_model().objects.get(username=username)
    others = {s: UserFactory(username=f"e2e-{s}-{uuid.uuid4().hex[:8]}") for s in ORDER}
    table_id = str(create_table(actor=south, rules={"preset": "standard"}).table_id)
    for seat, user in {**others, "south": south}.items():
        execute(TakeSeat(table_id, seat), user)
    execute(StartGame(table_id, first_dealer="south"), south)  # west bids first
    continue_table(page, table_id)
    expect(page.locator("#status-line")).to_contain_text("West")
    # The player types in a field outside the table while the others bid.
    page.evaluate(
        """() => { const f = document.createElement("input"); f.id = "elsewhere";
                   f.setAttribute("aria-label", "Notes");
                   document.querySelector("main").prepend(f); }"""
    )
    page.focus("#elsewhere")
    page.keyboard.type("typing")
    for seat in ORDER:
        execute(PlaceBid(table_id, seat, 3), others[seat])
    expect(page.locator("#bid-panel")).to_be_visible()
    expect(page.locator("#suggestion")).to_contain_text("Suggested bid:")
    # The turn came while the player was typing: the field keeps the focus.
    assert focus(page)["id"] == "elsewhere"
    page.keyboard.type(" on")
    assert page.input_value("#elsewhere") == "typing on"
