"""Accessibility basics: axe-core finds no serious or critical violation on any page.

Every page of the site at both screen sizes (1280x900, 390x844), in the state a person
meets it: the lobby signed out and signed in, a table while the player bids, the score
calculator, a spectator's view, the replay viewer, the competitions list, the API docs and
the 404 page. Each page's screenshot is saved (tests/e2e/web/steps.shot) for a reviewer.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.web.steps import axe_violations, continue_table, shot, sign_up, started_table

SIZES = [pytest.param(1280, 900, id="desktop"), pytest.param(390, 844, id="phone")]


def ready(page: Any) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def check(page: Any, name: str, size: str, found: dict[str, list[Any]]) -> None:
    shot(page, f"a11y-{name}-{size}")
    violations = axe_violations(page)
    if violations:
        found[name] = violations


def describe(found: dict[str, list[Any]]) -> str:
    lines = []
    for name, violations in found.items():
        for violation in violations:
            lines.append(f"{name}: [{violation['impact']}] {violation['id']}: {violation['help']}")
            lines.extend(f"    {node}" for node in violation["nodes"])
    return "\n".join(lines)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_page_has_a_serious_accessibility_violation(
    page: Any, orm: None, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    size = f"{width}x{height}"
    found: dict[str, list[Any]] = {}

    page.goto("/")
    ready(page)
    check(page, "lobby-signed-out", size, found)

    username = sign_up(page)
    check(page, "lobby-signed-in", size, found)

    table_id = started_table(username, {"preset": "standard"})
    continue_table(page, table_id)
    expect(page.locator(".bid-button").first).to_be_visible(timeout=30_000)
    check(page, "table-bidding", size, found)

    page.goto("/calculator/")
    ready(page)
    check(page, "calculator", size, found)

    page.goto(f"/tables/{table_id}/watch/")
    ready(page)
    expect(page.locator("#hand-number")).to_contain_text("Hand 1")
    check(page, "watch", size, found)

    page.goto("/api/docs/")
    expect(page.locator(".opblock").first).to_be_visible(timeout=30_000)
    check(page, "api-docs", size, found)

    response = page.goto("/no-such-page/")
    assert response is not None and response.status == 404
    check(page, "not-found", size, found)

    for name, url in (
        ("replay", f"/tables/{table_id}/replay/"),
        ("competitions", "/competitions/"),
    ):
        response = page.goto(url)
        assert response is not None and response.ok, (
            f"{url} answered {response and response.status}"
        )
        ready(page)
        check(page, name, size, found)

    assert not found, "serious or critical axe violations:\n" + describe(found)
