"""Playing in a browser: sign up, a table against Easy bots, bid, refused card, a trick."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, assert_plain_words, sign_up

MAX_TURNS = 13
SUIT_ORDER = "SHCD"  # spades, then alternating colours
RANKS = "23456789TJQKA"


@BOTH_SCREENS
def test_bid_with_suggestion_refused_card_and_a_trick_over_the_websocket(page: Any) -> None:
    sign_up(page)
    assert_plain_words(page)  # the lobby, with the rules' descriptions
    page.check('input[name="level"][value="easy"]')
    page.click("#custom-rules summary")
    page.select_option("#setup-target", "300")
    expect(page.locator("#setup-preset-description")).to_contain_text(
        "With your changes: Game to 300"
    )
    page.click("#start-game")
    expect(page.locator("#table-section")).to_be_visible()
    expect(page.locator("#rules-summary")).to_contain_text("Standard rules · Game to 300")
    expect(page.locator('.seat[data-seat="east"] .seat-role')).to_have_text("Easy computer")
    expect(page.locator('.seat[data-seat="north"] .seat-role')).to_have_text("Normal computer")

    # The bots before us bid through the worker; their bids reach us over the WebSocket.
    expect(page.locator("#bid-panel")).to_be_visible(timeout=30_000)
    expect(page).to_have_title("● Your turn · Spades")
    expect(page.locator("#suggestion")).to_contain_text("Suggested bid:")
    hand = page.locator(".hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    order = [(SUIT_ORDER.index(card[1]), -RANKS.index(card[0])) for card in hand]
    assert len(hand) == 13 and order == sorted(order), f"hand not sorted by suit: {hand}"
    assert_controls_named(page)
    suggested = page.locator(".bid-button.suggested")
    expect(suggested).to_have_count(1)
    text = page.locator("#suggestion").inner_text()
    counted = re.search(r"★ marks (the card|the (\d+) cards) it counted: sure tricks", text)
    marked = page.locator(".hand .card.counted")
    # Every suggestion names its reason; one to win tricks marks at least one card.
    assert re.match(r"Suggested bid: \w+\. (Your hand counts|No card in your hand)", text), text
    if counted:
        assert marked.count() == int(counted.group(2) or 1)
    elif "★ marks your best chance of a trick." in text:
        expect(marked).to_have_count(1)
    else:
        assert text.startswith("Suggested bid: Nil.") and "None is marked" in text, text
        expect(marked).to_have_count(0)
    bid = suggested.get_attribute("data-bid")
    suggested.click()

    expect(page.locator("#bid-panel")).to_be_hidden()
    expected_bid = "Nil" if bid == "0" else bid
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text(expected_bid)

    refused = False
    for _ in range(MAX_TURNS):
        playable = page.locator(".hand .card.playable")
        expect(playable.first).to_be_visible(timeout=30_000)
        expect(page.locator("#status-line")).to_contain_text("play a card")
        illegal = page.locator(".hand .card.illegal")
        if not refused and illegal.count():
            card = illegal.first
            reason = card.get_attribute("data-reason")
            assert reason and reason != "You cannot play that card now."
            opacity = float(card.evaluate("el => getComputedStyle(el).opacity"))
            assert opacity < 0.6, "cards that cannot be played are dimmed"
            name = card.get_attribute("data-card")
            card.click(force=True)  # aria-disabled: Playwright would wait for it to enable
            expect(page.locator("#move-message")).to_contain_text(reason)
            assert_plain_words(page)  # the refusal and everything else on the table
            expect(page.locator(f'.hand .card[data-card="{name}"]')).to_have_count(1)
            assert_controls_named(page)
            refused = True
        before = page.locator(".hand .card").count()
        card_name = playable.first.get_attribute("data-card")
        # The page takes a move once it shows the latest state (no trick still on display).
        expect(page.locator("#table-section")).to_have_attribute("data-presenting", "false")
        playable.first.click()
        expect(page.locator(f'.hand .card[data-card="{card_name}"]')).to_have_count(0)
        expect(page.locator(".hand .card")).to_have_count(before - 1)
        # The other seats' cards arrive over the WebSocket until the trick is resolved.
        expect(page.locator("#last-trick-panel")).to_be_visible(timeout=30_000)
        if refused:
            break
    assert refused, f"no card was ever refused in {MAX_TURNS} turns"

    expect(page.locator("#last-trick li")).to_have_count(4)
    expect(page.locator("#last-trick-winner")).to_contain_text("Won by")
    # The trick's taker is counted on the seats (waited for: it may render after the panel).
    page.wait_for_function(
        """() => [...document.querySelectorAll('.seat .seat-tricks')]
            .reduce((sum, el) => sum + Number(el.textContent), 0) >= 1"""
    )

    # The game lives on the server: a reload offers to continue it.
    cards_left = page.locator(".hand .card").count()
    page.reload()
    expect(page.locator("#continue-box")).to_be_visible()
    page.click("#continue-game")
    expect(page.locator("#table-section")).to_be_visible()
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text(expected_bid)
    expect(page.locator(".hand .card")).to_have_count(cards_left)
