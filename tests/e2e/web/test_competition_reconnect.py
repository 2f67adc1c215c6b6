"""The public competition page's socket drops and comes back in a real browser: a result
recorded while it is down reaches the page after the reconnect, because the reconnected
socket's first document is newer than the page's and the page catches up from the server.

Playwright routes the page's competition socket through the test (``route_web_socket``),
so the test can close it from the server's side and refuse the reconnects until the
result is recorded. The page's fallback poll starts only after 30 s without a socket, and
every wait here is shorter, so only the reconnect can bring the result.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from leagues.services.streams import load
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import competition_of_teams, shot
from tests.e2e.web.test_competition_pages import follow_reads_and_pushes, mp_cell, users
from tests.integration.leagues import builders as lg

# Shorter than the page's 30 s fallback poll (live.js FALLBACK_POLL_MS), so that a poll
# cannot stand in for the reconnect.
BEFORE_ANY_POLL_MS = 15_000


class RoutedSocket:
    """The page's competition sockets, each connected to daphne through Playwright, and
    refused (closed at once) while ``refusing``."""

    def __init__(self) -> None:
        self.refusing = False
        self.opened = 0  # sockets connected through to the server
        self.refused = 0
        self.current: Any = None  # the connected socket's page side
        self.server: Any = None  # and its server side

    def route(self, ws: Any) -> None:
        if self.refusing:
            self.refused += 1
            ws.close(code=1011, reason="down")
            return
        self.server = ws.connect_to_server()
        self.current = ws
        self.opened += 1

    def drop(self) -> None:
        """The connection breaks: both its ends close, as when the network goes."""
        self.server.close(code=1011, reason="dropped")
        self.current.close(code=1011, reason="dropped")


@BOTH_SCREENS
def test_the_competition_page_reconnects_and_catches_up_a_result_recorded_meanwhile(
    page: Any, orm: None, viewport: dict[str, int]
) -> None:
    organiser, *players = users(9)
    spec = {
        "name": "Flaky wifi night",
        "stages": [{"kind": "swiss", "rounds": 2}],
        "rules": {"preset": "standard"},
        "fixed_hands": 1,
    }
    cid = competition_of_teams(organiser, players, spec, 4)
    lg.pair_next_round(organiser, cid, round_number=1)
    board_1 = load(cid).paired_round(1).pairing.matches[0]  # type: ignore[union-attr]

    sockets = RoutedSocket()
    page.route_web_socket(re.compile(rf"/ws/competitions/{cid}/$"), sockets.route)
    timeline = follow_reads_and_pushes(page, cid)
    page.goto(f"/competitions/{cid}/")
    body = page.locator("body")
    expect(body).to_have_attribute("data-live", "live")
    expect(mp_cell(page, board_1.north_south)).to_have_text("0")
    assert sockets.opened == 1

    # The connection drops, and stays down (each reconnect is refused) ...
    sockets.refusing = True
    sockets.drop()
    expect(body).not_to_have_attribute("data-live", "live")
    expect(page.locator("#live-note")).to_have_text(
        re.compile(r"Live connection lost; reconnecting…|No live connection")
    )
    # ... while the organiser records board 1's result.
    version_before = load(cid).version
    lg.record_result(
        organiser,
        cid,
        round_number=1,
        board=board_1.board,
        points={"north_south": 110, "east_west": 40},
        winner="north_south",
    )
    assert load(cid).version > version_before
    shot(page, f"competition-socket-down-{viewport['width']}")
    # The page has not seen it: nothing reached it while the socket was down.
    expect(mp_cell(page, board_1.north_south)).to_have_text("0")

    # The connection comes back: the page reconnects by itself and shows the result.
    seen_before = len(timeline)
    sockets.refusing = False
    expect(body).to_have_attribute("data-live", "live", timeout=BEFORE_ANY_POLL_MS)
    expect(mp_cell(page, board_1.north_south)).to_have_text("2", timeout=BEFORE_ANY_POLL_MS)
    expect(mp_cell(page, board_1.east_west)).to_have_text("0")
    expect(
        page.locator(f'.round[data-round="1"] tr[data-board="{board_1.board}"]')
    ).to_contain_text("110 – 40")
    expect(page.locator("#live-note")).to_have_text(
        "Live: the page updates as the competition moves on."
    )
    assert sockets.opened == 2, (sockets.opened, sockets.refused)
    # The catch-up came from the reconnected socket: its first document was at the new
    # version, and the page's read of the competition followed it (no poll).
    after = timeline[seen_before:]
    assert after[:2] == [("push", load(cid).version), ("read", 0)], timeline
    shot(page, f"competition-socket-back-{viewport['width']}")
