"""Accessibility basics: axe-core finds no serious or critical violation on any page.

Every page of the site at both screen sizes (1280x900, 390x844), in the state a person
meets it: the lobby signed out and signed in, a table waiting for friends, a table while the
player bids, the score calculator, a spectator's view, the replay viewer of a game in play
and of a finished one, the verifying recipe, the competitions list, a competition's public
page, its organiser page and the new-competition form, the API docs, the 404 page and the
500 page. Each page's screenshot is saved (tests/e2e/web/steps.shot) for a reviewer.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import (
    axe_violations,
    continue_table,
    finished_table,
    shot,
    sign_up,
    started_table,
)
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg


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


def competition_with_a_round(username: str) -> str:
    """A Swiss of four partnerships, round 1 paired, organised by ``username`` (needs ``orm``)."""
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.get(username=username)
    state = lg.create_competition(
        organiser,
        {"name": "Axe cup", "stages": [{"kind": "swiss", "rounds": 2}], "rules": "standard"},
    )
    cid = state.competition_id
    for number in range(1, 5):
        a, b = UserFactory(), UserFactory()
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    lg.pair_next_round(organiser, cid)
    return str(cid)


def server_error_page() -> str:
    """The 500 page exactly as Django's handler renders it."""
    from django.test import RequestFactory
    from django.views.defaults import server_error

    return server_error(RequestFactory().get("/")).content.decode()


@BOTH_SCREENS
def test_no_page_has_a_serious_accessibility_violation(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    size = f"{viewport['width']}x{viewport['height']}"
    found: dict[str, list[Any]] = {}

    page.goto("/")
    ready(page)
    check(page, "lobby-signed-out", size, found)

    username = sign_up(page)
    check(page, "lobby-signed-in", size, found)

    page.check('input[name="company"][value="friends"]')
    page.select_option("#seat-north", "human")  # East and West are friends' seats already
    check(page, "lobby-friends-form", size, found)
    page.click("#start-game")
    expect(page.locator("#seat-invites .invite-link")).to_have_count(3)
    check(page, "lobby-waiting-for-friends", size, found)

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

    # The 500 page cannot be made to happen on purpose: Django's handler renders it here
    # and the browser is handed it at an address of the site, so its links resolve.
    error_html = server_error_page()
    page.route(
        "**/axe-server-error/",
        lambda route: route.fulfill(status=500, content_type="text/html", body=error_html),
    )
    response = page.goto("/axe-server-error/")
    assert response is not None and response.status == 500
    expect(page.locator("h1")).to_contain_text("Something went wrong")
    check(page, "server-error", size, found)

    response = page.goto("/docs/verifying/")  # a page without scripts: nothing to wait for
    assert response is not None and response.ok
    check(page, "verifying", size, found)

    cid = competition_with_a_round(username)
    for name, url in (
        ("replay", f"/tables/{table_id}/replay/"),
        ("replay-finished", f"/tables/{finished_table(seed=41)}/replay/"),
        ("competitions", "/competitions/"),
        ("competition", f"/competitions/{cid}/"),
        ("competition-organise", f"/competitions/{cid}/organise/"),
        ("competition-new", "/competitions/new/"),
    ):
        response = page.goto(url)
        assert response is not None and response.ok, (
            f"{url} answered {response and response.status}"
        )
        ready(page)
        check(page, name, size, found)

    assert not found, "serious or critical axe violations:\n" + describe(found)
