"""The boards page of a duplicate round after its reveal, at both screen sizes: each
board's four hands face up (13 cards a seat), the page accessible (axe-core, every
control named), and "Play this board again" opening a new table that deals the board,
the player at the seat they chose, the play page going to it; back on the boards page
the board says its table is still being played; an organiser's correction of a board
result shown under its traveller with its reason; a par play (computed by the session's
worker) stepped through in the replay viewer to its score; an organiser correcting a line
from the page (a refusal in words first), the traveller and standings redrawn, and no
"Correct" control for anyone else. The round is revealed from
recorded results (``record_round``), as in tests/integration/leagues/test_board_again.py."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from games.services.table_state import reading_state
from leagues.domain.decisions.duplicate import BoardCorrectionRequest
from leagues.selectors.duplicate import board_traveller, standings
from leagues.services.duplicate import correct_board
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_controls_named, axe_violations
from tests.e2e.web.test_competition_pages import sign_in_as
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.leagues.test_board_again import reveal_round
from tests.integration.leagues.test_duplicate_api import SPEC, open_round
from tests.integration.live.conftest import wait_until

pytestmark = pytest.mark.e2e


@BOTH_SCREENS
def test_a_revealed_board_face_up_and_played_again(page: Any, orm: None) -> None:
    cid, organiser, _ = open_round(bots=False)
    reveal_round(cid)
    revealed = load(cid).duplicate[1].revealed[1]
    player = UserFactory(username=f"e2e-again-{uuid.uuid4().hex[:8]}")
    sign_in_as(page, player)
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator("body[data-ready='true']")).to_have_count(1)
    first = page.locator(".board-hands").first
    for seat in ("north", "east", "south", "west"):
        expect(first.locator(f".board-hand[data-seat='{seat}'] .card")).to_have_count(13)
    shown = first.locator(".card").evaluate_all("cards => cards.map((c) => c.dataset.card)")
    assert sorted(shown) == sorted(revealed["deck"])
    assert axe_violations(page) == []
    assert_controls_named(page)
    # Not an organiser: no "Correct" control on any line.
    expect(page.locator(".board-correct-open")).to_have_count(0)

    page.locator("#again-1-1").select_option("west")
    page.get_by_role("button", name="Play this board again").first.click()
    page.wait_for_url(re.compile(r"/\?table="))
    # The play page drops "?table=" from its address as it loads (a race to read it): the
    # boards page remembered the table before going there.
    table_id = page.evaluate(f"() => localStorage.getItem('spades.again.{cid}.1.1')")
    with reading_state(table_id) as state:
        assert state.players[3] == player.pk
        assert state.owner is not None and state.owner["board"] == 1
        assert state.hand is not None
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator(".board-again-result").first).to_contain_text("still being played")
    assert axe_violations(page) == []

    # An organiser corrects table 1's result on board 1: the traveller says so, and why.
    correct_board(
        organiser,
        cid,
        1,
        1,
        BoardCorrectionRequest.parse(
            {
                "table": 1,
                "bids": {"north": 4, "east": 2, "south": 4, "west": 2},
                "tricks": {"north": 5, "east": 2, "south": 4, "west": 2},
                "reason": "Arbiter: a misclaimed trick.",
            }
        ),
    )
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator(".traveller-correction").first).to_contain_text(
        f"Table 1's result was corrected by {organiser.username}: Arbiter: a misclaimed trick."
    )
    assert axe_violations(page) == []


@BOTH_SCREENS
def test_a_par_play_is_stepped_through_in_the_replay_viewer(page: Any, orm: None) -> None:
    cid, _, _ = open_round(bots=False)
    # The session's worker computes the round's par once it opens (leagues.tasks).
    wait_until(lambda: len(load(cid).duplicate[1].pars) == 2 or None, 180, "par recorded")
    reveal_round(cid)
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator("body[data-ready='true']")).to_have_count(1)
    page.locator(".par-play-link").first.click()
    page.wait_for_url(re.compile(r"/par/1/$"))
    expect(page.locator("#replay-heading")).to_have_text("Par play 1 of board 1")
    expect(page.locator("#replay-body")).to_be_visible()
    expect(page.locator(".replay-audit")).to_be_hidden()
    page.locator("#step-last").click()
    expect(page.locator("#step-label")).to_contain_text("Hand 1 scored")
    assert axe_violations(page) == []
    assert_controls_named(page)


@BOTH_SCREENS
def test_a_teams_of_four_round_shows_its_team_match(page: Any, orm: None) -> None:
    # Teams of four: the standings' team record column, the team matches table (both
    # tables played the same: a draw), and each traveller line's match.
    organiser = UserFactory()
    spec = {**SPEC, "duplicate": {**SPEC["duplicate"], "movement": "teams_of_four"}}
    cid = lg.create_competition(organiser, spec).competition_id
    for number in range(1, 5):
        a, b = UserFactory(), UserFactory()
        lg.enter(organiser, cid, entrant_id=f"t{number}", players=[str(a.pk), str(b.pk)])
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)
    reveal_round(cid)
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator("body[data-ready='true']")).to_have_count(1)
    expect(page.locator("#boards-team-heading")).to_be_visible()
    expect(page.locator("#boards-standings tbody tr")).to_have_count(4)
    expect(page.locator("#boards-standings tbody tr").first).to_contain_text("0-1-0 (1)")
    matches = page.locator("#boards-matches tbody tr")
    expect(matches).to_have_count(1)
    expect(matches.first).to_contain_text("1 and 2")
    expect(matches.first).to_contain_text("draw")
    assert axe_violations(page) == []
    assert_controls_named(page)


@BOTH_SCREENS
def test_an_organiser_corrects_a_line_from_the_page(page: Any, orm: None) -> None:
    cid, organiser, _ = open_round(bots=False)
    reveal_round(cid)  # every table: board 1 bid 3 4 3 3, took 3 4 3 3
    sign_in_as(page, organiser)
    page.goto(f"/competitions/{cid}/boards/")
    expect(page.locator("body[data-ready='true']")).to_have_count(1)
    opener = page.get_by_role("button", name="Correct table 1's result on board 1")
    opener.click()
    form = page.locator("#correct-1-1")
    expect(page.locator("#correct-1-1-bid-north")).to_be_focused()
    expect(page.locator("#correct-1-1-bid-east")).to_have_value("4")
    expect(page.locator("#correct-1-1-tricks-north")).to_have_value("3")
    assert axe_violations(page) == []
    assert_controls_named(page)

    # Tricks adding up to 12: refused in words beside the form, nothing written.
    for seat, tricks in (("north", "4"), ("east", "3"), ("south", "3"), ("west", "2")):
        page.locator(f"#correct-1-1-tricks-{seat}").fill(tricks)
    page.locator("#correct-1-1-reason").fill("Arbiter: a misclaimed trick.")
    form.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#correct-1-1-error")).to_contain_text("add up to 12, not 13")
    assert not any(line["corrected"] for line in traveller_lines(cid))

    page.locator("#correct-1-1-tricks-west").fill("3")
    form.get_by_role("button", name="Save the correction").click()
    expect(form).to_be_hidden()
    first = page.get_by_role("region", name="Traveller of board 1").locator("tbody tr").first
    expect(first).to_contain_text("1 (corrected)")
    expect(first).to_contain_text("4 3 3 3")
    expect(page.locator(".traveller-correction").first).to_contain_text(
        f"corrected by {organiser.username}: Arbiter: a misclaimed trick."
    )
    expect(page.get_by_role("button", name="Correct table 1's result on board 1")).to_be_focused()
    # The standings as the server now has them: every table had played alike (all tied);
    # now table 1's North-South pair and the other table's East-West pair lead.
    rows = standings(cid)["rows"]
    assert rows[0]["matchpoints"] > rows[-1]["matchpoints"]
    for place, row in enumerate(rows):
        cells = page.locator("#boards-standings tbody tr").nth(place).locator("td")
        expect(cells.nth(1)).to_have_text(row["name"] or row["entrant"])
        expect(cells.nth(2)).to_have_text(str(row["matchpoints"]))
    assert axe_violations(page) == []


def traveller_lines(cid: str) -> list[dict[str, Any]]:
    return list(board_traveller(cid, 1, 1)["tables"])
