"""An organiser runs a duplicate competition from the browser, at both screen sizes: the
create form's "Duplicate" choice reveals boards a round, movement, scale and par plays
(the page accessible, every control named); a knockout stage chosen with it is refused in
words under the stage before anything is sent, and rules with blind nil from a deficit
are refused in the server's words; created (bots in every seat), the organise page says it
is duplicate, its round 1 is paired and started, and the round's link reaches its boards
on the boards page. Entrants are registered through the ORM (the organise page registers
players' partnerships, not computer ones), as other e2e tests make all-bot competitions."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring.services.presets import create_preset
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, axe_violations
from tests.e2e.web.test_competition_pages import sign_in_as
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

pytestmark = pytest.mark.e2e


@BOTH_SCREENS
def test_an_organiser_creates_and_starts_a_duplicate_competition(page: Any, orm: None) -> None:
    tag = uuid.uuid4().hex[:8]
    organiser = UserFactory(username=f"e2e-dup-{tag}")
    blind = f"blindfrom{tag}"
    create_preset(blind, {"blind_nil": True, "blind_nil_min_deficit": 100})
    sign_in_as(page, organiser)
    page.goto("/competitions/new/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#new-name", "Duplicate night")
    expect(page.locator("#new-duplicate-fields")).to_be_hidden()
    page.get_by_label("Duplicate (every table plays the same boards)").check()
    expect(page.locator("#new-duplicate-fields")).to_be_visible()
    expect(page.locator("#new-movement-hint")).to_contain_text("needs an even number of tables")
    expect(page.locator("#new-duplicate-limits")).to_contain_text("no knockout stage")
    assert axe_violations(page) == []
    assert_controls_named(page)

    # A knockout stage: refused under the stage, in words, before sending.
    page.click("#new-add-stage")
    expect(page.locator("#new-stage-2-kind")).to_have_value("swiss")
    page.locator("#new-stage-2-kind").select_option("knockout")
    page.click("#new-submit")
    expect(page.locator('li[data-stage="2"] [data-part=error]')).to_contain_text(
        "a duplicate competition has no knockout stage"
    )
    expect(page.locator("#new-error")).to_contain_text("Some stages need a change")
    page.click("text=Remove stage 2")

    # Out of bounds: said under the duplicate fields.
    page.fill("#new-boards", "37")
    page.click("#new-submit")
    expect(page.locator("#new-duplicate-error")).to_contain_text("from 1 to 36")
    expect(page.locator("#new-boards")).to_have_attribute("aria-invalid", "true")
    page.fill("#new-boards", "2")
    page.fill("#new-par-plays", "1")

    # Blind nil from a deficit: the server's refusal, in words.
    page.select_option("#new-preset", blind)
    page.click("#new-submit")
    expect(page.locator("#new-error")).to_contain_text("scores each board from 0 to 0")
    page.select_option("#new-preset", "standard")

    page.select_option("#new-bots", "easy")
    page.click("#new-submit")
    expect(page).to_have_url(re.compile(r"/competitions/[0-9a-f-]{36}/organise/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#organise-summary")).to_contain_text(
        "Duplicate: Mitchell, 2 boards a round, matchpoints"
    )
    cid = page.url.split("/competitions/")[1].split("/")[0]
    for number in range(1, 5):
        a, b = UserFactory(), UserFactory()
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    page.reload()
    expect(page.locator("#entrant-list li")).to_have_count(4)
    page.click("#pair-round")
    page.get_by_role("button", name="Start round 1").click()
    link = page.get_by_role("link", name="Boards of round 1")
    expect(link).to_be_visible()
    expect(page.locator('#organise-rounds .round[data-round="1"] .round-boards')).to_contain_text(
        "2 boards"
    )
    assert axe_violations(page) == []
    assert_controls_named(page)

    link.click()
    expect(page).to_have_url(re.compile(r"/boards/#boards-round-1$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#boards-round-1 h4")).to_have_count(2)

    page.goto(f"/competitions/{cid}/")
    expect(page.locator("#competition-duplicate")).to_contain_text("Duplicate: Mitchell")
    expect(page.get_by_role("link", name="Boards of round 1")).to_be_visible()


DUPLICATE_MODULES = """async () => {
  const f = await import("/static/web/js/competitions/settings.js");
  const v = await import("/static/web/js/competitions/duplicate_view.js");
  const typed = { boards: "4", movement: "teams_of_four", scale: "imps", par_plays: "2" };
  const form = { name: "Dup", stages: [{ kind: "swiss", rounds: "3" }], preset: "standard",
                 match: "fixed", hands: "8", win: "2", draw: "1", loss: "0", bye: "2",
                 bots: "", duplicate: typed };
  const boards = (revealed, pars) => ({ boards: [1, 2].map((b) => ({ board: b, revealed,
                                                    par: b <= pars ? { net: "1" } : null })) });
  const settings = { duplicate: f.duplicateFromForm(typed) };
  return {
    settings: f.settingsFromForm(form, []),
    problems: f.duplicateProblems(f.duplicateFromForm({ boards: "37", par_plays: "0" }),
                                  [{ kind: "swiss" }, { kind: "knockout" }])
      .map((p) => [p.field, p.stage || 0]),
    fine: f.duplicateProblems(settings.duplicate, [{ kind: "round_robin" }]),
    field: [f.duplicateRefusalField("Duplicate boards_per_round is a whole number from 1 to 36."),
            f.duplicateRefusalField("Par plays must be 1 to 8"), f.duplicateRefusalField("x")],
    summary: f.duplicateSummary(settings.duplicate),
    none: f.duplicateSummary(null),
    href: v.roundBoardsLink(settings, "c1", { round: 2, started: true }, "note").innerHTML,
    unstarted: v.roundBoardsLink(settings, "c1", { round: 3, started: false }),
    plain: v.roundBoardsLink({ duplicate: null }, "c1", { round: 1, started: true }),
    open: v.parNote(boards(false, 0)),
    revealed: v.parNote(boards(true, 1)),
    odd: v.teamsOfFourNote(settings, { round: 1, started: false, matches: [1, 2, 3] }),
    even: v.teamsOfFourNote(settings, { round: 1, started: false, matches: [1, 2] }),
  };
}"""


def test_the_duplicate_settings_and_words(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    result = page.evaluate(DUPLICATE_MODULES)
    # Duplicate: no fixed_hands (the server sets it to the boards a round).
    assert result["settings"]["duplicate"] == {
        "boards_per_round": 4,
        "movement": "teams_of_four",
        "scale": "imps",
        "par_plays": 2,
    }
    assert "fixed_hands" not in result["settings"]
    assert result["problems"] == [["boards", 0], ["par_plays", 0], ["kind", 2]]
    assert result["fine"] == []
    assert result["field"] == ["boards", "par_plays", None]
    assert result["summary"] == "Duplicate: teams of four, 4 boards a round, IMPs"
    assert result["none"] is None
    assert result["href"] == (
        '<a href="/competitions/c1/boards/#boards-round-2">Boards of round 2</a> · note'
    )
    assert result["unstarted"] is None and result["plain"] is None
    assert result["open"].startswith("2 boards, still being played")
    assert result["revealed"] == "par computed for 1 of 2 boards"
    assert "this round has 3, so the server will refuse to start it" in result["odd"]
    assert result["even"] == ""


def test_starting_an_odd_teams_of_four_round_is_refused_in_words(page: Any, orm: None) -> None:
    organiser = UserFactory(username=f"e2e-teams-{uuid.uuid4().hex[:8]}")
    spec = {
        "name": "Odd teams",
        "stages": [{"kind": "swiss", "rounds": 1}],
        "duplicate": {"boards_per_round": 2, "movement": "teams_of_four", "par_plays": 1},
    }
    cid = lg.create_competition(organiser, spec).competition_id
    for number in range(1, 7):
        a, b = UserFactory(), UserFactory()
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    lg.pair_next_round(organiser, cid)
    sign_in_as(page, organiser)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator(".teams-of-four-note")).to_contain_text("this round has 3")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator("#rounds-error")).to_contain_text(
        "A teams-of-four match needs an even number of tables, not 3."
    )
