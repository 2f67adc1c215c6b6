"""Signing up, logging out and in: the API's messages reach the player."""

from __future__ import annotations

import time
import uuid
from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.steps import sign_up


def test_log_out_and_back_in(page: Any) -> None:
    username = sign_up(page)
    page.click("#log-out")
    expect(page.locator("#auth-section")).to_be_visible()

    page.fill("#login-username", username)
    page.fill("#login-password", "not-the-password")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#login-error")).not_to_be_empty()
    expect(page.locator("#setup-section")).to_be_hidden()

    page.fill("#login-password", "correct-horse-42")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#setup-section")).to_be_visible()
    expect(page.locator("#account-name")).to_have_text(username)


def test_sign_up_refusal_is_shown(page: Any) -> None:
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#register-username", f"e2e-{uuid.uuid4().hex[:10]}")
    page.fill("#register-password", "123")
    page.click("#register-form button[type=submit]")

    expect(page.locator("#register-error")).to_contain_text("too short")
    expect(page.locator("#setup-section")).to_be_hidden()


def test_lobby_answers_arriving_after_log_out_are_dropped(page: Any) -> None:
    """The lobby's lists load after sign-up; a player who logs out before they arrive
    must not have them drawn for nobody (CI once saw "Cannot read properties of null
    (reading 'username')" when the answers came after the click)."""
    held: list[Any] = []

    def lobby_list(url: str) -> bool:
        return "/api/tables?" in url

    page.route(lobby_list, lambda route: held.append(route))
    username = f"e2e-{uuid.uuid4().hex[:10]}"
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#register-username", username)
    page.fill("#register-password", "correct-horse-42")
    page.click("#register-form button[type=submit]")
    expect(page.locator("#setup-section")).to_be_visible()
    # The lobby's three lists (open tables, tables in play, my games) are asked for and held.
    deadline = time.monotonic() + 20
    while len(held) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # lets Playwright dispatch the route handler
    assert len(held) == 3, [route.request.url for route in held]
    page.click("#log-out")
    expect(page.locator("#auth-section")).to_be_visible()

    # Each list answers with a table someone else sits at: drawing it reads who is signed in.
    seats = [
        {"seat": seat, "kind": "human", "username": f"someone-{seat}", "reserved": False}
        for seat in ("north", "east", "south", "west")
    ]
    seats[1] = {"seat": "east", "kind": "human", "username": None, "reserved": False}
    table = {
        "id": "00000000-0000-0000-0000-000000000001",
        "status": "playing",
        "hand_number": 1,
        "seats": seats,
        "totals": {},
        "created_at": "2026-12-01T12:00:00Z",
    }
    for route in held:
        with page.expect_response(route.request.url):
            route.fulfill(json={"count": 1, "next": None, "previous": None, "results": [table]})
    # The answers' handlers have run once a task queued after them has: no error was thrown
    # (the page fixture fails the test on any), and nothing was drawn.
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    expect(page.locator("#auth-section")).to_be_visible()
    expect(page.locator("#setup-section")).to_be_hidden()
