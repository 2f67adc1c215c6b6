"""Blind nil in a browser: face-down cards, the blind nil bid, passing two cards; the
warning before a double nil; the bid suggestion's reason and marked card."""

from __future__ import annotations

import re
import uuid
from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import PlaceBid, StartGame, TakeSeat, create_table, execute
from tests.e2e.web.steps import axe_violations, continue_table, sign_up, started_table
from tests.factories import UserFactory

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


def partner_bid_nil_table(username: str, partner_bid: str) -> str:
    """Four people, blind nil open to all; north (south's partner) bids ``partner_bid`` and
    east 3, so it is south's turn (needs ``orm``)."""
    from django.contrib.auth import get_user_model

    south = get_user_model().objects.get(username=username)
    others = {
        s: UserFactory(username=f"e2e-{s}-{uuid.uuid4().hex[:8]}")
        for s in ("north", "east", "west")
    }
    table_id = str(create_table(actor=south, rules=BLIND_NIL_RULES).table_id)
    for seat, user in {**others, "south": south}.items():
        execute(TakeSeat(table_id, seat), user)
    execute(StartGame(table_id, first_dealer="west"), south)  # north bids first
    execute(PlaceBid(table_id, "north", partner_bid), others["north"])
    execute(PlaceBid(table_id, "east", 3), others["east"])
    return table_id


def test_warned_before_a_double_nil(page: Any, orm: None) -> None:
    username = sign_up(page)
    continue_table(page, partner_bid_nil_table(username, "blind_nil"))
    warning = page.locator("#double-nil")

    # Blind nil next to the partner's blind nil: asked first, and nothing is sent on "no".
    expect(page.locator("#blind-box")).to_be_visible()
    page.click("#bid-blind-nil")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(
        "Your partner has bid blind nil (±200). If you bid blind nil (±200) too, your team has"
        " no contract"
    )
    expect(page.locator("#double-nil-confirm")).to_have_text("Bid blind nil anyway")
    expect(page.locator("#double-nil-cancel")).to_be_focused()
    assert axe_violations(page) == []
    page.click("#double-nil-cancel")
    expect(warning).to_be_hidden()
    expect(page.locator("#blind-box")).to_be_visible()

    # Nil after looking: asked again; confirmed, the bid is placed.
    page.click("#look-cards")
    expect(page.locator("#bid-box")).to_be_visible()
    expect(page.locator("#suggestion")).not_to_contain_text("Suggested bid: Nil")
    page.click('.bid-button[data-bid="0"]')
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("If you bid nil (±100) too")
    expect(page.locator("#double-nil-confirm")).to_have_text("Bid nil anyway")
    page.click("#double-nil-confirm")
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text("Nil")
    expect(warning).to_be_hidden()


def test_no_warning_without_a_partners_nil(page: Any, orm: None) -> None:
    username = sign_up(page)
    continue_table(page, partner_bid_nil_table(username, 4))
    page.click("#look-cards")
    page.click('.bid-button[data-bid="0"]')
    expect(page.locator('.seat[data-seat="south"] .seat-bid')).to_have_text("Nil")
    expect(page.locator("#double-nil")).to_be_hidden()


def test_the_suggestion_gives_its_reason_and_marks_a_card(page: Any, orm: None) -> None:
    username = sign_up(page)
    continue_table(page, started_table(username, {"preset": "standard"}))
    suggestion = page.locator("#suggestion")
    expect(suggestion).to_contain_text("Suggested bid:")
    text = suggestion.inner_text()
    assert re.match(r"Suggested bid: \w+\. (Your hand counts|No card in your hand)", text), text
    if text.startswith("Suggested bid: Nil."):
        expect(page.locator(".hand .card.counted")).to_have_count(0)
    else:
        assert "★ marks" in text, text
        expect(page.locator(".hand .card.counted").first).to_be_visible()
