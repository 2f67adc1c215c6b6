"""Blind nil in a browser: face-down cards, the blind nil bid, passing two cards."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.steps import continue_table, sign_up, started_table

# Blind nil with no deficit needed, so the very first hand offers it.
BLIND_NIL_RULES = {"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0}


def test_blind_nil_then_pass_two_cards(page: Any, orm: None) -> None:
    username = sign_up(page)
    continue_table(page, started_table(username, BLIND_NIL_RULES))

    expect(page.locator("#blind-box")).to_be_visible()
    expect(page.locator(".hand .card.back")).to_have_count(13)
    expect(page.locator("#status-line")).to_contain_text("blind nil")
    page.click("#bid-blind-nil")

    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text("Blind nil")
    expect(page.locator("#pass-panel")).to_be_visible(timeout=30_000)
    expect(page.locator(".hand button.card")).to_have_count(13)
    pass_button = page.locator("#pass-cards")
    expect(pass_button).to_be_disabled()
    cards = page.locator(".hand button.card")
    chosen = [cards.nth(0).get_attribute("data-card"), cards.nth(1).get_attribute("data-card")]
    cards.nth(0).click()
    cards.nth(1).click()
    expect(cards.nth(0)).to_have_attribute("aria-pressed", "true")
    pass_button.click()

    # Partner's two cards arrive once both passes are in; then the play starts.
    expect(page.locator(".hand .card.received")).to_have_count(2, timeout=30_000)
    for card in chosen:
        expect(page.locator(f'.hand .card[data-card="{card}"]')).to_have_count(0)
    expect(page.locator(".hand button.card")).to_have_count(13)
    expect(page.locator("#hand-note")).to_contain_text("From your partner")


def test_look_at_cards_instead(page: Any, orm: None) -> None:
    username = sign_up(page)
    continue_table(page, started_table(username, BLIND_NIL_RULES))

    page.click("#look-cards")

    expect(page.locator(".hand button.card")).to_have_count(13)
    expect(page.locator("#bid-box")).to_be_visible()
    expect(page.locator("#suggestion")).to_contain_text("Suggested bid:")
