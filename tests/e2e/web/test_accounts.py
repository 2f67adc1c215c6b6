"""Signing up, logging out and in: the API's messages reach the player."""

from __future__ import annotations

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
