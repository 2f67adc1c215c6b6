"""An organiser sets up "a Swiss of 2 rounds, then a knockout of the top 4" on the create
form (a refusal said under its stage before anything is sent), runs it (the results typed
in as the organiser's, through the services), advances to the knockout on the organise
page when the API allows it, and the public page shows each stage, the knockout as its
bracket, and the champion; at desktop and phone sizes, with axe-core."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from leagues.services.streams import load
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, axe_violations, shot
from tests.e2e.web.test_competition_pages import sign_in_as, users
from tests.e2e.web.test_competition_stages import play_round
from tests.integration.leagues import builders as lg


@BOTH_SCREENS
def test_a_swiss_then_a_knockout_from_the_form_to_the_champion(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    organiser, *players = users(13)
    sign_in_as(page, organiser)
    page.goto("/competitions/new/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#new-name", "Cup night")
    page.fill("#new-stage-1-rounds", "2")
    page.click("#new-add-stage")
    # The new stage is a knockout, focused, and the Swiss now says how many go on.
    expect(page.locator("#new-stage-2-kind")).to_be_focused()
    expect(page.locator("#new-stage-2-kind")).to_have_value("knockout")
    expect(page.locator("#new-stage-count")).to_have_text("2 stages: Swiss, then Knockout.")
    expect(
        page.get_by_label("How many go on to stage 2 (the top N of the standings)")
    ).to_be_visible()
    expect(page.locator("#new-stage-2-advance")).to_be_hidden()  # the last stage: nobody
    page.check("input[name=match][value=fixed]")
    page.fill("#new-hands", "1")
    # Refused before sending, in words, under the stage and on its field.
    page.fill("#new-stage-1-advance", "1")
    page.click("#new-submit")
    stage_one = page.locator('#new-stages li[data-stage="1"]')
    expect(stage_one.locator("[data-part=error]")).to_have_text(
        "Stage 1: say how many go on to stage 2 (2 to 1024)."
    )
    expect(page.locator("#new-stage-1-advance")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#new-stage-1-advance")).to_be_focused()
    assert page.url.endswith("/competitions/new/")
    # Reordered, the knockout would come first: the list says so too, then is put back.
    page.get_by_role("button", name="Move stage 2 up").click()
    expect(page.locator("#new-stage-1-kind")).to_have_value("knockout")
    page.get_by_role("button", name="Move stage 1 down").click()
    expect(page.locator("#new-stage-1-kind")).to_have_value("swiss")
    page.fill("#new-stage-1-advance", "4")
    assert_controls_named(page)
    assert axe_violations(page) == []
    shot(page, f"competition-new-stages-{viewport['width']}")
    page.click("#new-submit")
    expect(page).to_have_url(re.compile(r"/competitions/[0-9a-f-]{36}/organise/$"))
    cid = page.url.split("/competitions/")[1].split("/")[0]
    stages = load(cid).settings.stages  # type: ignore[union-attr]
    assert [(s.kind, s.rounds, s.advance) for s in stages] == [
        ("swiss", 2, 4),
        ("knockout", 0, None),
    ]

    for k in range(6):
        lg.enter(
            organiser,
            cid,
            entrant_id=f"team-{k}",
            players=[str(players[2 * k].pk), str(players[2 * k + 1].pk)],
            name=f"Team {k}",
        )
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    advance = page.locator("#advance-stage")
    # Shown, but not yet allowed: the Swiss has a round to go.
    expect(advance).to_be_visible()
    expect(advance).to_be_disabled()
    expect(page.locator("#stage-advance-note")).to_have_text(
        "Stage 1 is not complete yet: the top 4 go on once its last round is closed."
    )
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 2)
    seeds = load(cid).competition().standings().order()[:4]
    names = {team: f"Team {team.split('-')[1]}" for team in seeds}

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(advance).to_be_enabled()
    expect(page.locator("#stage-advance-note")).to_have_text(
        "Stage 1 is complete: its top 4 go on to stage 2."
    )
    advance.click()
    expect(page.locator("#stage-note")).to_have_text("Stage 2 of 2: Knockout.")
    expect(advance).to_be_hidden()

    # The public page before the knockout is paired: the bracket as it will be drawn.
    public = page.context.new_page()
    public.goto(f"/competitions/{cid}/")
    expect(public.locator("body")).to_have_attribute("data-ready", "true")
    knockout = public.locator('#stages .stage[data-stage="2"]')
    expect(public.locator('#stages .stage[data-stage="1"] .stage-line')).to_have_text(
        "Stage 1 of 2: Swiss (2 rounds; the top 4 go on) · complete"
    )
    first = knockout.locator('.bracket-match[data-match="W1-1"] .bracket-side')
    expect(first.nth(0)).to_contain_text(names[seeds[0]])
    expect(first.nth(1)).to_contain_text(names[seeds[3]])
    expect(knockout.locator('.bracket-match[data-match="W2-1"] .bracket-side').nth(0)).to_have_text(
        "Winner of Semi-final 1"
    )

    # The knockout is played: seed 1 beats seed 4, seed 2 seed 3, then seed 1 the final.
    _, semis, _ = lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, semis)
    _, final, _ = lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, final)
    assert load(cid).finished
    public.reload()
    expect(public.locator("body")).to_have_attribute("data-ready", "true")
    expect(public.locator("#competition-champion")).to_have_text(f"Champion: {names[seeds[0]]}")
    expect(knockout.locator(".stage-line")).to_have_text(
        "Stage 2 of 2: Knockout of the top 4 (single elimination) · complete"
    )
    final_match = knockout.locator('.bracket-match[data-match="W2-1"]')
    expect(final_match.locator(".bracket-note")).to_have_text(
        f"{names[seeds[0]]} beat {names[seeds[1]]}."
    )
    expect(final_match.locator(".bracket-side.won")).to_contain_text(names[seeds[0]])
    expect(public.get_by_role("heading", name="Semi-finals")).to_be_visible()
    expect(public.get_by_role("heading", name="Final", exact=True)).to_be_visible()
    assert axe_violations(public) == []
    shot(public, f"competition-public-bracket-{viewport['width']}")
    public.close()
