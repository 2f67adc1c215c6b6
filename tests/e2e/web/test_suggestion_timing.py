"""The bid suggestion on the screen within 300 ms of the bidding turn, with its reason.

Issue 19 states the time as a requirement, so this test measures it in the browser: an
init script watches the page's DOM (a MutationObserver: its callbacks run right after the
change, before the next frame) and notes `performance.now()` when the bid panel appears
(the turn drawn) and when the suggestion's sentence appears beside it. The WebSocket
message that brought the turn is noted too (reported, not asserted: the presenter may
hold a turn back while it lays out the moves before it, which is not the suggestion's
time). The other seats bid and every card is played through the services, so only the
page's own work and the suggestion request are timed, hand after hand; the bids before
South's are made once the page shows the new deal, so most turns are drawn the moment
their message arrives, while the suggestion request is still out.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine.hand import BIDDING
from games.engine.seats import SEAT_NAMES
from games.services.table_commands import PlaceBid, execute
from games.services.table_state import reading_state
from tests.e2e.web.steps import continue_table, play_out_hand, sign_up, stream_version
from tests.factories import TableFactory, UserFactory

TURNS = 5
LIMIT_MS = 300
OTHERS = ("north", "east", "west")

WATCH_TURNS = """(() => {
  const turns = [];
  window.__turns = turns;
  let lastTurnMessage = null;
  // The turn's message: the first WebSocket message whose view gives the player the bid.
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const at = performance.now();
        try {
          const view = JSON.parse(event.data).table;
          const hand = view && view.hand;
          if (hand && hand.phase === "bidding" && hand.turn === view.your_seat) {
            if (!lastTurnMessage || lastTurnMessage.hand !== hand.number) {
              lastTurnMessage = { hand: hand.number, at };
            }
          }
        } catch {}
      });
    }
  };
  let current = null;
  const check = () => {
    const now = performance.now();
    const panel = document.getElementById("bid-panel");
    const box = document.getElementById("bid-box");
    const text = document.getElementById("suggestion");
    const shown = panel && !panel.hidden && box && !box.hidden &&
      document.querySelector("#bid-buttons .bid-button") !== null;
    if (!shown) {
      current = null;
      return;
    }
    if (!current) {
      current = { shownAt: now, suggestedAt: null, text: "",
                  messageAt: lastTurnMessage ? lastTurnMessage.at : null };
      turns.push(current);
    }
    if (current.suggestedAt === null && text && text.textContent.startsWith("Suggested bid:")) {
      current.suggestedAt = now;
      current.text = text.textContent;
      const marked = document.querySelector("#bid-buttons .bid-button.suggested");
      current.bid = marked ? marked.dataset.bid : null;
    }
  };
  const observe = () => new MutationObserver(check).observe(document.body, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ["hidden", "class"],
  });
  if (document.body) observe();
  else document.addEventListener("DOMContentLoaded", observe);
})();"""


def others_bid(table_id: str, users: dict[str, Any]) -> None:
    """The other seats bid 3 each until it is South's turn to bid or the bidding is over."""
    while True:
        with reading_state(table_id) as state:
            hand = state.hand
            seat = SEAT_NAMES[hand.turn]
            if hand.phase != BIDDING or seat == "south":
                return
        execute(PlaceBid(table_id, seat, 3), users[seat])


def test_the_suggestion_is_on_screen_within_300_ms_of_each_bidding_turn(
    page: Any, orm: None
) -> None:
    page.context.add_init_script(WATCH_TURNS)
    username = sign_up(page)
    users = {seat: UserFactory(username=f"e2e-{seat}-{uuid.uuid4().hex[:8]}") for seat in OTHERS}
    users["south"] = get_user_model().objects.get(username=username)
    table = TableFactory(
        creator=users["south"],
        rules={"preset": "standard", "target_score": 1000, "lose_score": -1000},
        players=users,
        started=True,
    )
    table_id = str(table.id)
    others_bid(table_id, users)
    continue_table(page, table_id)

    for turn in range(TURNS):
        expect(page.locator("#bid-panel")).to_be_visible(timeout=30_000)
        expect(page.locator("#suggestion")).to_contain_text("Suggested bid:")
        page.wait_for_function(
            "n => window.__turns.length >= n && window.__turns[n - 1].suggestedAt !== null",
            arg=turn + 1,
        )
        bid = page.evaluate("n => window.__turns[n - 1].bid", turn + 1)
        # South's bid, the rest of the bidding and the whole hand through the services:
        # the page follows over the WebSocket and the next hand brings the next turn.
        execute(PlaceBid(table_id, "south", int(bid) or "nil"), users["south"])
        expect(page.locator("#bid-panel")).to_be_hidden()  # the turn is over on screen too
        others_bid(table_id, users)
        play_out_hand(table_id, users)
        # The page shows the new deal first; the bids before South's then come live, so
        # the turn is drawn the moment its message arrives, with the request just sent.
        expect(page.locator("#table-section")).to_have_attribute(
            "data-version", str(stream_version(table_id)), timeout=30_000
        )
        expect(page.locator("#table-section")).to_have_attribute("data-presenting", "false")
        others_bid(table_id, users)

    turns = page.evaluate("window.__turns")[:TURNS]
    delays = [round(t["suggestedAt"] - t["shownAt"], 1) for t in turns]
    from_message = [
        round(t["suggestedAt"] - t["messageAt"], 1) if t["messageAt"] is not None else None
        for t in turns
    ]
    print(f"suggestion after the turn drawn (ms): {delays}; after its message: {from_message}")
    for t in turns:
        # Every suggestion names its reason, a bid of Nil or 1 included.
        assert re.match(
            r"Suggested bid: \w+\. (Your hand counts|No card in your hand)", t["text"]
        ), t["text"]
    assert len(turns) == TURNS
    assert all(delay <= LIMIT_MS for delay in delays), delays
