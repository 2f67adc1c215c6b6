"""A staged competition through the real stack: a Swiss whose rounds are played (results
recorded through the services), then the organiser advances to the knockout of the top
four on the organise page while the public page, open in another tab, follows over the
competition's socket and shows the knockout's first round: seed 1 against seed 4, seed 2
against seed 3."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from leagues.services.streams import load
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import (
    assert_controls_named,
    axe_violations,
    competition_of_teams,
    shot,
)
from tests.e2e.web.test_competition_pages import sign_in_as, users
from tests.integration.leagues import builders as lg


def play_round(organiser: Any, cid: str, number: int) -> None:
    """Every match of the round: North-South wins 110 to 40, as the organiser's result."""
    for match in load(cid).paired_round(number).pairing.matches:  # type: ignore[union-attr]
        lg.record_result(
            organiser,
            cid,
            round_number=number,
            board=match.board,
            points={"north_south": 110, "east_west": 40},
            winner="north_south",
        )


@BOTH_SCREENS
def test_the_organiser_advances_a_swiss_to_a_knockout_of_the_top_four(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    organiser, *players = users(13)
    spec = {
        "name": "Cup night",
        "stages": [{"kind": "swiss", "rounds": 2, "advance": 4}, {"kind": "knockout"}],
        "rules": {"preset": "standard"},
        "fixed_hands": 1,
    }
    cid = competition_of_teams(organiser, players, spec, 6)
    for number in (1, 2):
        lg.pair_next_round(organiser, cid, round_number=number)
        play_round(organiser, cid, number)
    seeds = load(cid).competition().standings().order()[:4]

    # The public page, open before the organiser acts, follows the competition live.
    public = page.context.new_page()
    public.goto(f"/competitions/{cid}/")
    expect(public.locator("body")).to_have_attribute("data-live", "live")
    expect(public.locator('.round[data-round="2"] h3')).to_have_text("Round 2 (complete)")
    expect(public.locator("#competition-summary")).to_contain_text("Swiss, 2 rounds, then Knockout")

    sign_in_as(page, organiser)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#stage-note")).to_have_text("Stage 1 of 2: Swiss.")
    # The Swiss is over: its next round cannot be paired before the stage advances.
    page.click("#pair-round")
    expect(page.locator("#rounds-error")).to_have_text(
        "Stage 1 is complete: advance to stage 2 first."
    )
    advance = page.locator("#advance-stage")
    expect(advance).to_have_text("Advance to stage 2 (Knockout)")
    assert_controls_named(page)
    advance.click()
    expect(page.locator("#stage-note")).to_have_text("Stage 2 of 2: Knockout.")
    expect(advance).to_be_hidden()
    expect(page.locator("#pair-round")).to_have_text("Pair round 3")
    page.click("#pair-round")
    expect(page.locator('#organise-rounds .round[data-round="3"] li')).to_have_count(2)
    assert axe_violations(page) == []
    shot(page, f"competition-organise-knockout-{viewport['width']}")

    # The public page shows the knockout's first round without a reload: the top four of
    # the Swiss only, seeded 1 v 4 and 2 v 3 (whoever sits North-South).
    names = {team: f"Team {team.split('-')[1]}" for team in seeds}
    knockout = public.locator('.round[data-round="3"]')
    expect(knockout.locator("h3")).to_have_text("Round 3 (paired, not started)")
    boards = knockout.locator("tbody tr")
    expect(boards).to_have_count(2)
    meetings = set()
    for row in range(2):
        cells = boards.nth(row).locator("td")
        expect(cells.nth(1)).not_to_have_text("")
        meetings.add(frozenset((cells.nth(1).inner_text(), cells.nth(2).inner_text())))
    assert meetings == {
        frozenset((names[seeds[0]], names[seeds[3]])),
        frozenset((names[seeds[1]], names[seeds[2]])),
    }
    assert axe_violations(public) == []
    shot(public, f"competition-public-knockout-{viewport['width']}")
    public.close()
