"""The leagues and ratings pages through the real stack, at desktop and phone sizes, each
checked by axe-core: a league's organiser finds the league from the navigation, reads a
finished season's divisions (standings, who goes up and down), starts the next season
filled from those standings (a refusal in words first), and moves between seasons; anyone
reads a league's ratings, a player's rating history as a chart and the matches that moved
it, and the site's ratings. The first page names what the platform does for each kind of
user, with its links."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from playwright.sync_api import expect

from accounts.registration import token_for
from eventstore.subscriptions import catch_up
from leagues.projections import player_ratings
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, assert_plain_words, axe_violations, shot
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.leagues.test_services import play_round

NAV = ["Play", "Tournaments", "Leagues", "Ratings", "Calculator"]


def ready(page: Any) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def no_violations(page: Any, name: str) -> None:
    shot(page, name)
    assert axe_violations(page) == [], name
    assert_controls_named(page)
    assert_plain_words(page)


def finished_league() -> tuple[Any, dict[str, Any], list[Any]]:
    """A league whose season "2030" has two divisions ("top", "second") of four
    partnerships each, a two-round Swiss played to its end (needs ``orm``)."""
    tag = uuid.uuid4().hex[:6]
    organiser = UserFactory(username=f"e2e-host-{tag}")
    league = lg.create_league(organiser, {"name": f"Ladder {tag}"})
    season = lg.add_season(
        organiser,
        league["id"],
        {
            "season": "2030",
            "divisions": ["top", "second"],
            "competition": {"stages": [{"kind": "swiss", "rounds": 2}]},
        },
    )
    users = [UserFactory(username=f"e2e-p{tag}-{k}") for k in range(16)]
    for index, cid in enumerate(season["seasons"][0]["divisions"].values()):
        for k in range(4):
            first, second = users[8 * index + 2 * k], users[8 * index + 2 * k + 1]
            lg.enter(
                organiser,
                cid,
                entrant_id=f"d{index}-{k}",
                players=[str(first.pk), str(second.pk)],
                name=f"Pair {index}{k}",
            )
        for number in (1, 2):
            lg.pair_next_round(organiser, cid)
            play_round(organiser, cid, number)
    # The ratings as the projector keeps them (the standings are read from the streams
    # while their projection catches up).
    catch_up(player_ratings)
    return organiser, league, users


def sign_in_as(page: Any, user: Any) -> None:
    page.goto("/leagues/")
    auth = json.dumps({"token": token_for(user), "username": user.username})
    page.evaluate("value => localStorage.setItem('spades.auth', value)", auth)


def assert_nav(page: Any, current: str, how: str = "page") -> None:
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link")).to_have_text(NAV)
    expect(nav.locator(f'a[aria-current="{how}"]')).to_have_text(current)


@BOTH_SCREENS
def test_an_organiser_reads_a_season_and_starts_the_next_from_its_standings(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport["width"] < 500 else "desktop"
    organiser, league, _ = finished_league()
    sign_in_as(page, organiser)

    # The leagues list, reached from the navigation on any page.
    page.goto("/calculator/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Leagues").click()
    ready(page)
    assert_nav(page, "Leagues")
    row = page.locator(f'#league-list tr[data-league="{league["id"]}"]')
    expect(row).to_contain_text(league["name"])
    no_violations(page, f"leagues-list-{size}")
    row.get_by_role("link", name=league["name"], exact=True).click()

    # The league: its finished season, both divisions' standings, who goes up and down.
    ready(page)
    assert_nav(page, "Leagues", "true")
    expect(page.locator("#league-name")).to_have_text(league["name"])
    expect(page.locator("#league-organiser-note")).to_be_visible()
    expect(page.locator("#season-heading")).to_have_text("Season 2030")
    expect(page.locator("#season-status")).to_contain_text("Finished · 2 divisions")
    top = page.locator('.division[data-division="top"]')
    second = page.locator('.division[data-division="second"]')
    expect(top.locator("tbody tr")).to_have_count(4)
    expect(second.locator("tbody tr")).to_have_count(4)
    expect(top.locator('tbody tr[data-move="down"]')).to_have_count(1)
    expect(second.locator('tbody tr[data-move="up"]')).to_have_count(1)
    expect(top.get_by_role("link", name="Tournament page of division top")).to_have_attribute(
        "href", re.compile(r"^/competitions/[0-9a-f-]{36}/$")
    )

    # The next season, filled from those standings: previewed, a refusal in words first.
    form = page.locator("#new-season-form")
    expect(page.locator("#season-name")).to_have_value("2031")
    expect(page.locator("#season-divisions")).to_have_value("top\nsecond")
    expect(page.locator("#season-promote")).to_be_checked()
    preview = page.locator("#promote-preview li")
    expect(preview).to_have_count(2)
    expect(preview.first).to_contain_text("(up)")
    expect(preview.nth(1)).to_contain_text("(down)")
    no_violations(page, f"league-season-{size}")
    page.fill("#season-divisions", "top")
    form.get_by_role("button", name="Start the season").click()
    expect(page.locator("#new-season-error")).to_have_text(
        "Season 2030 had 2 divisions: the new season needs as many to be filled from its standings."
    )
    page.fill("#season-divisions", "top\nsecond")
    page.fill("#season-rounds", "3")
    form.get_by_role("button", name="Start the season").click()

    # The new season: each division invites its partnerships (their players accept).
    expect(page).to_have_url(re.compile(r"\?season=2031$"))
    ready(page)
    expect(page.locator("#season-heading")).to_have_text("Season 2031")
    expect(page.locator("#season-status")).to_contain_text("Registration open")
    top_status = page.locator('.division[data-division="top"] [data-part="division-status"]')
    expect(top_status).to_contain_text("4 partnerships invited")
    expect(page.locator("#season-select")).to_have_value("2031")
    expect(page.locator("#next-season")).to_be_hidden()
    # Its next season would be filled from 2031, which has not been played.
    expect(page.locator("#season-promote")).to_be_disabled()
    expect(page.locator("#promote-hint")).to_contain_text("Season 2031 is not finished")
    no_violations(page, f"league-new-season-{size}")

    # Back to the season before, by its link and by the season picker.
    page.get_by_role("link", name="← Season 2030").click()
    expect(page.locator("#season-heading")).to_have_text("Season 2030")
    expect(page).to_have_url(re.compile(r"\?season=2030$"))
    page.select_option("#season-select", "2031")
    expect(page.locator("#season-heading")).to_have_text("Season 2031")


@BOTH_SCREENS
def test_a_league_s_ratings_and_a_player_s_history(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport["width"] < 500 else "desktop"
    _, league, users = finished_league()
    pool = f"league:{league['id']}"

    # The first page says what the platform does for each kind of user, with links.
    page.goto("/")
    ready(page)
    intro = page.locator("#intro")
    for who, target in (
        ("League and tournament hosts", "/competitions/"),
        ("League and tournament hosts", "/leagues/"),
        ("Auditors", "/docs/verifying/"),
        ("Admins", "/admin/"),
    ):
        expect(intro.locator("li", has_text=who).locator(f'a[href="{target}"]')).to_have_count(1)
    expect(intro.locator("li", has_text="Players")).to_be_visible()
    assert_nav(page, "Play")

    # The league's ratings, from the league's page.
    page.goto(f"/leagues/{league['id']}/")
    ready(page)
    page.get_by_role("link", name="This league's ratings").click()
    ready(page)
    assert_nav(page, "Ratings")
    expect(page.locator("#pool-select")).to_have_value(pool)
    board = page.locator("#ratings-table tbody tr")
    expect(board).to_have_count(16)
    names = {u.username for u in users}
    first = board.first.get_by_role("link")
    assert first.inner_text() in names
    no_violations(page, f"ratings-league-{size}")

    # A player's history: the chart and the two matches that moved the rating.
    first.click()
    expect(page.locator("#history-section")).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]player=\d+"))
    expect(page.locator("#history-heading")).to_have_text(f"Rating history: {first.inner_text()}")
    expect(page.locator("#history-heading")).to_be_focused()
    expect(page.locator("#history-chart polyline")).to_have_count(1)
    rows = page.locator("#history-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text(re.compile(r"(Won|Lost|Drew) with e2e-p"))
    expect(rows.first.get_by_role("link")).to_have_text(re.compile(r"Ladder .* 2030: (top|second)"))
    expect(page.locator("#history-summary")).to_contain_text("2 rated matches shown")
    no_violations(page, f"ratings-history-{size}")

    # The same address again shows the same player (a link to a history can be shared).
    page.reload()
    ready(page)
    expect(page.locator("#history-table tbody tr")).to_have_count(2)

    # The site's ratings: the organiser typed these results in and nobody confirmed them,
    # so they moved the league's ratings only.
    page.select_option("#pool-select", "site")
    expect(page.locator("#history-section")).to_be_hidden()
    for user in users[:2]:
        expect(page.locator(f'#ratings-table tr[data-player="{user.pk}"]')).to_have_count(0)
    expect(page.locator("#ratings-summary")).not_to_be_empty()

    # The duplicate skill is another pool on the page: no duplicate board was played here,
    # so nobody has one; its note and its count (boards) say it is another scale.
    page.select_option("#pool-select", "skill")
    expect(page.locator("#ratings-summary")).to_contain_text("Nobody has a rating here yet")
    expect(page.locator("#skill-note")).to_be_visible()
    expect(page.locator("#ratings-count-heading")).to_have_text("Boards")
    no_violations(page, f"ratings-skill-{size}")
    page.select_option("#pool-select", "site")
    expect(page.locator("#skill-note")).to_be_hidden()
