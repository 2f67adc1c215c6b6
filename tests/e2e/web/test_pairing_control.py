"""The organiser keeps two entrants apart on the organise page and sees the pair listed
(with its reason, shown to organisers only), at desktop and phone sizes, with axe-core;
the pair is in the competition's stream and the next round keeps them apart."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from leagues.domain.decisions import ForbiddenPairRequest
from leagues.services.pairing_control import forbid_pair
from leagues.services.streams import load
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, axe_violations, competition_of_teams, shot
from tests.e2e.web.test_competition_pages import sign_in_as, users
from tests.integration.leagues import builders as lg

SWISS = {
    "name": "Club night",
    "stages": [{"kind": "swiss", "rounds": 3}],
    "rules": {"preset": "standard", "target_score": 100, "lose_score": -100},
}


@BOTH_SCREENS
def test_an_organiser_keeps_two_entrants_apart_and_sees_them_listed(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    organiser, *players = users(9)
    cid = competition_of_teams(organiser, players, SWISS, 4)
    sign_in_as(page, organiser)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    section = page.locator("#pairing-control")
    expect(section.get_by_text("No entrants are kept apart.")).to_be_visible()

    page.get_by_label("Entrant", exact=True).select_option(label="Team 0")
    page.get_by_label("Keep apart from").select_option(label="Team 2")
    page.get_by_label("Reason (optional; only organisers see it)").fill("Siblings")
    page.get_by_role("button", name="Keep them apart").click()

    listed = page.locator('#forbidden-list li[data-pair="team-0|team-2"]')
    expect(listed).to_contain_text("Team 0 and Team 2: Siblings")
    expect(page.locator("#pairing-control-message")).to_have_text(
        "Team 0 and Team 2 are kept apart from the next round paired."
    )
    expect(section.get_by_text("No entrants are kept apart.")).to_be_hidden()
    # The same pair again: refused in words under the form, nothing written.
    page.get_by_role("button", name="Keep them apart").click()
    expect(page.locator("#forbidden-error")).to_have_text(
        "Team 0 and Team 2 are already kept apart."
    )
    assert list(load(cid).forbidden) == [("team-0", "team-2")]

    assert_controls_named(page)
    assert axe_violations(page) == []
    shot(page, f"pairing-control-{viewport['width']}")

    # After a reload the list is drawn from the server; round 1 keeps them apart.
    lg.pair_next_round(organiser, cid)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(listed).to_contain_text("Team 0 and Team 2: Siblings")
    met = {frozenset((m.north_south, m.east_west)) for m in load(cid).rounds[0].pairing.matches}
    assert frozenset(("team-0", "team-2")) not in met


def test_an_organiser_writes_a_rounds_pairing_and_the_page_says_it_is_manual(
    page: Any, orm: None
) -> None:
    """The last round, paired and not started, rewritten board by board with a reason;
    the section then says the round is paired by hand, the organise page's round and the
    public page's round carry the mark, and the stream has the override."""
    organiser, *players = users(9)
    cid = competition_of_teams(organiser, players, SWISS, 4)
    lg.pair_next_round(organiser, cid)
    computed = load(cid).rounds[0].pairing
    (a, b), (c, d) = [(m.north_south, m.east_west) for m in computed.matches]
    sign_in_as(page, organiser)
    page.goto(f"/competitions/{cid}/organise/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_role("button", name="Write the last round's pairing").click()
    expect(page.locator("#override-round")).to_have_text("Round 1: choose who meets on each board.")
    names = {f"team-{k}": f"Team {k}" for k in range(4)}
    page.get_by_label("Board 1 East-West").select_option(label=names[c])
    page.get_by_label("Board 2 North-South").select_option(label=names[b])
    page.get_by_label("Reason (required; shown in the verification)").fill("Club rule")
    page.get_by_role("button", name="Replace the pairing").click()
    expect(page.locator("#pairing-control-message")).to_have_text(
        "Round 1 is paired as you wrote it."
    )
    mark = f"Paired by hand by {organiser.username}: Club rule"
    expect(page.locator("#pairing-notes")).to_contain_text(f"Round 1: {mark}")
    # The round list above reads the rounds again ("competition:changed") and marks it.
    expect(page.locator('#organise-rounds [data-round="1"] .round-notes')).to_have_text(mark)
    written = load(cid).rounds[0].pairing
    assert [(m.north_south, m.east_west) for m in written.matches] == [(a, c), (b, d)]
    assert axe_violations(page) == []

    # The public page's rounds say so to everyone, the board order as written.
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    public = page.locator('#rounds [data-round="1"]')
    expect(public.locator(".round-notes")).to_have_text(mark)
    expect(public.locator('tr[data-board="1"]')).to_contain_text(names[c])
    assert axe_violations(page) == []


def test_the_public_page_names_a_forbidden_meeting_the_engine_could_not_avoid(
    page: Any, orm: None
) -> None:
    """Team 0 kept apart from everyone: round 1 must pair it with one of them, and the
    public page's round says so (no reason is shown there: it is the organisers')."""
    organiser, *players = users(9)
    cid = competition_of_teams(organiser, players, SWISS, 4)
    for other in ("team-1", "team-2", "team-3"):
        request = ForbiddenPairRequest.parse({"entrants": ["team-0", other], "reason": "Family"})
        forbid_pair(organiser, cid, request)
    lg.pair_next_round(organiser, cid)
    (met,) = [
        m for m in load(cid).rounds[0].pairing.matches if "team-0" in (m.north_south, m.east_west)
    ]
    other = met.east_west if met.north_south == "team-0" else met.north_south
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    notes = page.locator('#rounds [data-round="1"] .round-notes')
    expect(notes).to_have_text(
        f"Team 0 and Team {other[-1]} meet although kept apart:"
        " no pairing without this meeting existed."
    )
    expect(notes).not_to_contain_text("Family")
    assert axe_violations(page) == []
