"""The account pages in the browser, under the site's Content-Security-Policy: a password
reset by e-mail from the log-in form, and the account page's password change, data
download and deletion."""

from __future__ import annotations

import json
import re
import time
import uuid
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.conftest import Server
from tests.e2e.web.steps import sign_up
from tests.factories import UserFactory

NEW_PASSWORD = "another-horse-77"
LINK = re.compile(r"https?://\S+/account/reset/[^/\s]+/[^/\s]+/")


def mailed_link(mail_dir: Path, address: str) -> str:
    """The reset link of the mail the web sent to ``address`` (waits for it)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for message in mail_dir.glob("*.log"):
            text = message.read_text(encoding="utf-8")
            found = LINK.search(text)
            if f"To: {address}" in text and found:
                return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no reset mail to {address} in {mail_dir}")


def test_csp_header_is_on_every_page(page: Any) -> None:
    for path in ("/", "/account/", "/account/password-reset/", "/api/docs/", "/admin/login/"):
        response = page.goto(path)
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy, (path, policy)
        assert "object-src 'none'" in policy and "frame-ancestors 'none'" in policy


def test_a_forgotten_password_is_reset_through_the_mailed_link(
    page: Any, orm: None, server: Server
) -> None:
    username = f"e2e-{uuid.uuid4().hex[:10]}"
    address = f"{username}@example.org"
    UserFactory(username=username, email=address, password="correct-horse-42")

    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#forgot-password")
    page.fill("input[name=email]", address)
    page.click("#reset-form button[type=submit]")
    expect(page.locator("#reset-sent")).to_be_visible()

    page.goto(mailed_link(server.mail_dir, address))
    page.fill("input[name=new_password1]", NEW_PASSWORD)
    page.fill("input[name=new_password2]", NEW_PASSWORD)
    page.click("#new-password-form button[type=submit]")
    expect(page.locator("#reset-done")).to_be_visible()

    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#login-username", username)
    page.fill("#login-password", NEW_PASSWORD)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#setup-section")).to_be_visible()


def test_the_account_page_changes_the_password_downloads_the_data_and_deletes(
    page: Any,
) -> None:
    username = sign_up(page)
    page.click("#account-link")  # the name in the header opens the account page
    expect(page.locator("#account-username")).to_have_text(username)

    page.fill("#old-password", "correct-horse-42")
    page.fill("#new-password", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    expect(page.locator("#password-done")).to_contain_text("changed")

    with page.expect_download() as downloading:
        page.click("#download-data")
    document = json.loads(Path(downloading.value.path()).read_text(encoding="utf-8"))
    assert document["format"] == "spades-account-export"
    assert document["account"]["username"] == username
    expect(page.locator("#download-done")).to_contain_text("Downloaded")

    page.fill("#delete-password", NEW_PASSWORD)
    page.click("#delete-form button[type=submit]")
    expect(page.locator("#delete-error")).to_contain_text("Tick the box")
    page.check("#delete-confirm")
    page.click("#delete-form button[type=submit]")
    expect(page.locator("#account-deleted")).to_be_visible()
    expect(page.locator("#deleted-name")).to_have_text(f"deleted-{document['account']['id']}")

    page.goto("/")
    expect(page.locator("#auth-section")).to_be_visible()
    page.fill("#login-username", username)
    page.fill("#login-password", NEW_PASSWORD)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#login-error")).not_to_be_empty()
