"""An address that does not exist gets the site's own page, not a debug page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


def test_an_unknown_address_shows_the_sites_not_found_page(page: Any) -> None:
    response = page.goto("/no-such-page/")

    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text("This page does not exist")
    expect(page.get_by_role("link", name="Play, or find your games")).to_have_attribute("href", "/")
    assert "URLconf" not in page.content()  # Django's debug 404 lists the URL patterns
