"""Club onboarding through the browser (issue 19, point 5): the organiser creates the
competition's invitation link, a new player signs up through it and gets a partner link,
the partner signs up through that and the entrant appears on the organise page; and the
CSV import refusing a bad line with its reason (nothing imported). At desktop and phone
sizes, with the axe-core check on each page."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.registration import token_for
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, axe_violations, shot
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

pytestmark = pytest.mark.e2e

SPEC = {
    "name": "Club night",
    "stages": [{"kind": "swiss", "rounds": 3}],
    "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
}


def organiser_page(page: Any, organiser: Any, cid: str) -> None:
    page.goto("/competitions/")
    auth = json.dumps({"token": token_for(organiser), "username": organiser.username})
    page.evaluate("value => localStorage.setItem('spades.auth', value)", auth)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#onboarding")).to_have_attribute("data-ready", "true")


def sign_up_here(page: Any, name: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#join-account")).to_be_visible()
    assert axe_violations(page) == []
    assert_controls_named(page)
    page.fill("#join-register-username", name)
    page.fill("#join-register-password", "correct-horse-42")
    page.click("#join-register-form button[type=submit]")


@BOTH_SCREENS
def test_a_new_player_and_partner_come_in_by_the_links(
    page: Any, browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    tag = uuid.uuid4().hex[:8]
    organiser = UserFactory(username=f"e2e-org-{tag}")
    cid = lg.create_competition(organiser, SPEC).competition_id
    organiser_page(page, organiser, cid)
    expect(page.locator("#invite-link-none")).to_be_visible()
    page.click("#invite-link-issue")
    expect(page.locator("#invite-link-live")).to_be_visible()
    link = page.input_value("#invite-link-url")
    assert f"/competitions/{cid}/join/#link=" in link
    assert axe_violations(page) == []
    assert_controls_named(page)

    newcomer = browser.new_context(base_url=server_url, viewport=viewport).new_page()
    newcomer.goto(link)
    sign_up_here(newcomer, f"e2e-new-{tag}")
    expect(newcomer.locator("#join-partner")).to_be_visible()
    partner_link = newcomer.input_value("#join-partner-url")
    assert "?partner=" in partner_link and "#partner=" in partner_link
    assert axe_violations(newcomer) == []
    shot(newcomer, f"join-partner-link-{viewport['width']}")

    partner = browser.new_context(base_url=server_url, viewport=viewport).new_page()
    partner.goto(partner_link)
    sign_up_here(partner, f"e2e-mate-{tag}")
    expect(partner.locator("#join-entered")).to_be_visible()
    shot(partner, f"join-entered-{viewport['width']}")
    expect(partner.locator("#join-entered-text")).to_contain_text(
        f"e2e-new-{tag} and e2e-mate-{tag}"
    )
    assert axe_violations(partner) == []
    newcomer.context.close()
    partner.context.close()

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#entrant-list li")).to_have_count(1)
    expect(page.locator("#entrant-list li")).to_contain_text(f"e2e-new-{tag} & e2e-mate-{tag}")

    # Revoked: the old link lands on words, not a form that cannot work.
    expect(page.locator("#onboarding")).to_have_attribute("data-ready", "true")
    page.click("#invite-link-revoke")
    expect(page.locator("#invite-link-none")).to_be_visible()
    late = browser.new_context(base_url=server_url, viewport=viewport).new_page()
    late.goto(link)
    sign_up_here(late, f"e2e-late-{tag}")
    expect(late.locator("#join-register-error")).to_contain_text("does not work any more")
    late.context.close()


@BOTH_SCREENS
def test_a_waiting_player_is_named_to_the_organiser_and_can_leave(
    page: Any, browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    """In by the invitation link, no partner yet: the organise page names the player as
    waiting; the player leaves from the landing page and the partner link stops working."""
    tag = uuid.uuid4().hex[:8]
    organiser = UserFactory(username=f"e2e-org-{tag}")
    cid = lg.create_competition(organiser, SPEC).competition_id
    organiser_page(page, organiser, cid)
    page.click("#invite-link-issue")
    expect(page.locator("#invite-link-live")).to_be_visible()
    link = page.input_value("#invite-link-url")
    # The organiser's own calendar address, made on request through the form helper.
    page.get_by_role("button", name="Get my calendar address").click()
    expect(page.locator("#calendar-feed-live")).to_be_visible()
    expect(page.locator("#calendar-feed-url")).to_have_value(re.compile(r"\.ics"))
    expect(page.get_by_role("button", name="Get a new calendar address")).to_be_enabled()

    newcomer = browser.new_context(base_url=server_url, viewport=viewport).new_page()
    newcomer.goto(link)
    sign_up_here(newcomer, f"e2e-wait-{tag}")
    expect(newcomer.locator("#join-partner")).to_be_visible()

    page.reload()
    expect(page.locator("#onboarding")).to_have_attribute("data-ready", "true")
    expect(page.locator("#invite-link-waiting")).to_have_text(
        f"e2e-wait-{tag} came in by the link and waits for a partner."
    )

    newcomer.get_by_role("button", name="Leave the competition").click()
    expect(newcomer.locator("#join-message")).to_have_text(
        "You left the competition; your partner link no longer works."
    )
    expect(newcomer.locator("#join-partner")).to_be_hidden()
    expect(newcomer.locator("#join-signed-in")).to_be_visible()
    assert axe_violations(newcomer) == []
    newcomer.context.close()

    page.reload()
    expect(page.locator("#onboarding")).to_have_attribute("data-ready", "true")
    expect(page.locator("#invite-link-waiting")).to_have_text("")


@BOTH_SCREENS
def test_the_csv_import_refuses_a_bad_line_with_its_reason(page: Any, orm: None) -> None:
    tag = uuid.uuid4().hex[:8]
    organiser = UserFactory(username=f"e2e-imp-{tag}")
    a, b, c, d = (UserFactory(username=f"e2e-i{tag}-{k}") for k in range(4))
    cid = lg.create_competition(organiser, SPEC).competition_id
    organiser_page(page, organiser, cid)

    page.fill(
        "#import-text",
        f"player1,player2,name\n{a.username},{b.username},Aces\n{c.username},nobody-{tag},Kings\n",
    )
    page.click("#import-submit")
    expect(page.locator("#import-error")).to_contain_text("nothing was imported")
    expect(page.locator("#import-refusals li")).to_have_text(
        [f"Line 3: There is no player called 'nobody-{tag}'."]
    )
    expect(page.locator("#entrant-list li")).to_have_count(0)
    assert axe_violations(page) == []
    assert_controls_named(page)

    page.fill(
        "#import-text",
        f"player1,player2,name\n{a.username},{b.username},Aces\n{c.username},{d.username},Kings\n",
    )
    page.click("#import-submit")
    expect(page.locator("#import-message")).to_have_text(
        "2 entrants imported; their players are invited."
    )
    expect(page.locator("#import-refusals li")).to_have_count(0)
    expect(page.locator("#entrant-list li")).to_have_count(2)
