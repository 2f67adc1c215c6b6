"""Spectators and the lobby (issue 19, point 10): a spectator's finished table speaks of
North-South and East-West and offers what a spectator can do (replay the game, back to
the tables), never a "New game"; "my games" names the opponents and when the game was
last played; the organiser's public competition page asks for nothing that answers 404
over a poll interval. At both screen sizes, with the axe-core check on each."""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from games.services.table_commands import (
    HandSeatToBot,
    StartGame,
    TakeSeat,
    create_table,
    execute,
)
from leagues.services.presence import arrive
from leagues.services.tables import start_round
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import (
    assert_plain_words,
    axe_violations,
    competition_of_teams,
    finished_table,
    shot,
    sign_up,
)
from tests.e2e.web.test_competition_pages import projector, sign_in_as, users
from tests.e2e.web.test_my_games import ONE_HAND_GAME, wait_until_finished
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

__all__ = ["projector"]  # the competition pages' fixture: results reach the competition


@BOTH_SCREENS
def test_a_spectators_finished_table_names_the_teams_and_offers_replay_and_back(
    page: Any, viewport: dict[str, int], orm: None
) -> None:
    table_id = finished_table(seed=41)

    page.goto(f"/tables/{table_id}/watch/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#game-over")).to_be_visible()
    expect(page.locator("#game-over-text")).to_contain_text(
        re.compile(r"^(North-South won|East-West won|Final score|A draw)")
    )
    # The score sheet's columns are the teams: a spectator is nobody's partner.
    expect(page.locator("#sheet-us")).to_have_text("North-South")
    expect(page.locator("#sheet-them")).to_have_text("East-West")
    expect(page.locator("#score-sheet-rows tr").first).to_be_attached()
    # No game to start; what a spectator can do instead.
    expect(page.get_by_role("button", name="New game")).to_have_count(0)
    expect(page.locator("#new-game")).to_be_hidden()
    replay = page.get_by_role("link", name="Replay the game")
    back = page.get_by_role("link", name="Back to the tables")
    expect(replay).to_be_visible()
    expect(back).to_be_visible()
    assert axe_violations(page) == []
    assert_plain_words(page)
    shot(page, f"spectator-finished-{viewport['width']}")

    replay.click()
    expect(page).to_have_url(re.compile(rf"/tables/{table_id}/replay/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert axe_violations(page) == []

    page.go_back()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_role("link", name="Back to the tables").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#login-form")).to_be_visible()


@BOTH_SCREENS
def test_my_games_names_the_opponents_and_when_the_game_was_last_played(
    page: Any, viewport: dict[str, int], orm: None
) -> None:
    from django.contrib.auth import get_user_model

    username = sign_up(page)
    me = get_user_model().objects.get(username=username)
    tag = uuid.uuid4().hex[:6]
    east = UserFactory(username=f"e2e-east-{tag}")
    west = UserFactory(username=f"e2e-west-{tag}")
    table_id = str(
        create_table(
            actor=me,
            rules=ONE_HAND_GAME,
            seats={"north": {"kind": "bot", "level": "easy"}},
        ).table_id
    )
    for seat, user in (("south", me), ("east", east), ("west", west)):
        execute(TakeSeat(table_id, seat), user)
    execute(StartGame(table_id, first_dealer="east"), me)
    # Everyone hands their seat to a bot: the worker plays the game out.
    for seat, user in (("south", me), ("east", east), ("west", west)):
        execute(HandSeatToBot(table_id, seat, level="easy"), user)
    wait_until_finished(table_id)

    page.goto("/")  # the lobby again, read from the server
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    item = page.locator(f'.game-item[data-table="{table_id}"]')
    expect(item).to_contain_text(
        re.compile(rf"Finished \((won|lost|finished)\) against {east.username} and {west.username}")
    )
    # When the game was last played, in the reader's words (a date with its year).
    expect(item).to_contain_text(re.compile(rf"last played .*{datetime.now().year}"))
    assert axe_violations(page) == []
    assert_plain_words(page)
    shot(page, f"my-games-opponents-{viewport['width']}")


POLL_INTERVAL_MS = 30_000  # competitions/live.js FALLBACK_POLL_MS


@BOTH_SCREENS
def test_the_organisers_public_page_asks_for_nothing_that_answers_404(
    page: Any, viewport: dict[str, int], orm: None, projector: Any
) -> None:
    organiser, *players = users(9)
    spec = {
        "name": f"Quiet night {uuid.uuid4().hex[:4]}",
        "stages": [{"kind": "swiss", "rounds": 2}],
        "fixed_hands": 1,
    }
    cid = competition_of_teams(organiser, players, spec, 4)
    lg.pair_next_round(organiser, cid, round_number=1)
    # The round's tables are opened before the page looks: a page that reads the round
    # between its start and its tables' opening still reads a table that is not there yet
    # (a 404 a board tile shows): a known gap, reported, not what this test covers.
    start_round(organiser, cid, 1)
    sign_in_as(page, organiser)  # the organiser plays in no entrant of it
    missing: list[str] = []
    next_match: list[int] = []

    def on_response(response: Any) -> None:
        if response.status == 404:
            missing.append(f"{response.request.method} {response.url}")
        if urlsplit(response.url).path.endswith("/next-match"):
            next_match.append(response.status)

    page.on("response", on_response)
    page.clock.install()
    page.goto(f"/competitions/{cid}/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("body")).to_have_attribute("data-live", "live")
    expect(page.locator("#board-tiles .board-tile")).to_have_count(2)
    expect(page.locator("#next-match")).to_be_hidden()
    assert next_match == [200], next_match

    # The competition moves on (a player arrives at their table): the page reads
    # everything again, the organiser's next match too.
    with page.expect_response(lambda r: urlsplit(r.url).path.endswith("/next-match")):
        arrive(players[0], cid, 1)
    # A whole poll interval goes by with the page open.
    page.clock.run_for(POLL_INTERVAL_MS + 1_000)
    page.wait_for_load_state("networkidle")

    assert len(next_match) >= 2 and set(next_match) == {200}, next_match
    assert missing == [], missing
    expect(page.locator("#next-match")).to_be_hidden()
    assert axe_violations(page) == []
    shot(page, f"organiser-public-no-404-{viewport['width']}")
