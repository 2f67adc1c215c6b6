"""Steps the browser tests share: signing up, and tables made for a test's situation."""

from __future__ import annotations

import json
import uuid
from typing import Any

from playwright.sync_api import expect

BOT_SEATS = {
    "north": {"kind": "bot", "level": "normal"},
    "east": {"kind": "bot", "level": "easy"},
    "west": {"kind": "bot", "level": "easy"},
}


def sign_up(page: Any) -> str:
    """Register a new player through the page; returns the username."""
    username = f"e2e-{uuid.uuid4().hex[:10]}"
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#register-username", username)
    page.fill("#register-password", "correct-horse-42")
    page.click("#register-form button[type=submit]")
    expect(page.locator("#setup-section")).to_be_visible()
    expect(page.locator("#account-name")).to_have_text(username)
    # The setup form shows before its rules list is loaded; filling the list resets the
    # custom options, so a choice made earlier is lost. Start is enabled once it is filled.
    expect(page.locator("#start-game")).to_be_enabled()
    return username


def started_table(username: str, rules: dict[str, Any], first_dealer: str = "east") -> str:
    """A started table under ``rules``: the player in south, bots elsewhere (needs ``orm``).

    The default dealer, east, makes south bid first.
    """
    from django.contrib.auth import get_user_model

    from games.services import commands

    user = get_user_model().objects.get(username=username)
    table_id = str(commands.create_table(actor=user, rules=rules, seats=BOT_SEATS).table_id)
    commands.take_seat(table_id, actor=user, seat="south")
    commands.start_game(table_id, actor=user, first_dealer=first_dealer)
    return table_id


def continue_table(page: Any, table_id: str) -> None:
    """Make ``table_id`` the browser's game and press Continue, as after a reload."""
    page.evaluate(
        "value => localStorage.setItem('spades.table', value)", json.dumps({"id": table_id})
    )
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#continue-game")
    expect(page.locator("#table-section")).to_be_visible()


# Visible buttons, inputs and selects with no accessible name (label, aria-label or text).
UNNAMED_CONTROLS = """() => [...document.querySelectorAll("button, input, select")]
    .filter((el) => el.offsetParent !== null && el.type !== "hidden")
    .filter((el) => !(el.getAttribute("aria-label") || (el.labels && el.labels.length)
                      || el.textContent.trim()))
    .map((el) => el.outerHTML.slice(0, 120))"""


def assert_controls_named(page: Any) -> None:
    """Every visible control can be told apart by a screen reader."""
    assert page.evaluate(UNNAMED_CONTROLS) == []
