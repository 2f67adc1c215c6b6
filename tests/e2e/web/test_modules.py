"""The client's modules on their own, in the browser that runs them (no build, no node)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

LIVE_GAPS = """async () => {
  const { TableLive } = await import("/static/web/js/live.js");
  const shown = [];
  const sent = [];
  const live = new TableLive("t", "k", { onMessage: (m) => shown.push(m.version) });
  live.socket = { readyState: WebSocket.OPEN, send: (text) => sent.push(JSON.parse(text)) };
  live.version = 5;
  const events = (after, version) =>
    live.receive(JSON.stringify({ type: "events", after, version, events: [], table: {} }));
  events(5, 6);   // next in line: shown
  events(8, 9);   // 7 and 8 were missed: ask again from 6, show nothing
  events(5, 6);   // already shown: ignored
  events(6, 9);   // the re-sent events: shown
  live.receive("not json");
  return { shown, sent, version: live.version };
}"""

RECONNECT = """async () => {
  const reconnect = await import("/static/web/js/reconnect.js");
  const { ReconnectLoop, backoffCeiling, backoffDelay } = reconnect;
  const sockets = [];
  class FakeSocket {
    constructor() { this.listeners = {}; sockets.push(this); }
    addEventListener(kind, f) { (this.listeners[kind] ||= []).push(f); }
    emit(kind, event) { for (const f of this.listeners[kind] || []) f(event); }
    close(code) { this.closedWith = code; }
  }
  const until = (test) => new Promise((resolve) => {
    const timer = setInterval(() => { if (test()) { clearInterval(timer); resolve(); } }, 5);
  });
  const retries = [];
  const refused = [];
  const loop = new ReconnectLoop({
    open: () => new FakeSocket(),
    onRetry: (failures) => retries.push(failures),
    onRefused: (code) => refused.push(code),
    noRetry: new Set([4404]),
    maxDelayMs: 4,
    baseDelayMs: 1,
  });
  const first = loop.start();
  first.emit("close", { code: 1006 });               // a drop: retried
  await until(() => sockets.length === 2);
  first.emit("close", { code: 1006 });               // the old socket again: not a drop
  sockets[1].emit("close", { code: 1006 });          // a second failure in a row
  await until(() => sockets.length === 3);
  const beforeReset = retries.slice();
  loop.reset();                                      // the owner says it works
  sockets[2].emit("close", { code: 1011 });
  await until(() => sockets.length === 4);
  sockets[3].emit("close", { code: 4404 });          // a refusal: the loop ends
  await new Promise((resolve) => setTimeout(resolve, 30));
  const afterRefusal = sockets.length;
  const again = loop.start();                        // started again by its owner
  loop.stop();                                       // closed by its owner: not a drop
  again.emit("close", { code: 1000 });
  const stopped = { closedWith: again.closedWith, current: loop.current };
  // stop() also cancels a retry that is waiting
  const waiting = loop.start();
  loop.reset();
  waiting.emit("close", { code: 1006 });
  loop.stop();
  await new Promise((resolve) => setTimeout(resolve, 30));
  return {
    beforeReset, retries, refused, afterRefusal, stopped, sockets: sockets.length,
    ceilings: [0, 1, 2, 3, 5].map((n) => backoffCeiling(n, 10000)),
    capped: backoffCeiling(9, 15000),
    base: backoffCeiling(2, 100, 3),
    // The delays themselves: 500 draws at each of the first failures, with Math.random.
    draws: [0, 1, 2, 3, 5].map((n) =>
      Array.from({ length: 500 }, () => backoffDelay(n, 10000))),
    ends: [backoffDelay(2, 10000, 500, () => 0), backoffDelay(2, 10000, 500, () => 0.9999)],
  };
}"""

CARDS = """async () => {
  const cards = await import("/static/web/js/cards.js");
  return {
    sorted: cards.sortHand(["2C", "AS", "TD", "KH", "3S", "QC", "4H"]),
    words: ["TD", "QH", "AS", "7C"].map(cards.cardWords),
    text: cards.cardText("TH"),
  };
}"""

BREAKDOWN = """async () => {
  const { breakdownLines, points, signed } = await import("/static/web/js/breakdown.js");
  const eastWest = {
    hand_score: 50, total: 50, bags: 0,
    breakdown: {
      contract: 5, tricks: 4, tricks_toward_contract: 4, made: false, contract_points: -50,
      bags: 0, bag_points: 0, nil_points: 100, bag_penalty: 0,
      nil: [{ seat: "east", kind: "nil", tricks: 0, made: true, points: 100 }],
    },
  };
  return {
    lines: breakdownLines(eastWest),
    signs: [signed(3), signed(-28), signed(0), points(-70), points(72)],
  };
}"""


def open_site(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_live_connection_asks_again_after_a_gap_and_never_shows_twice(page: Any) -> None:
    open_site(page)

    result = page.evaluate(LIVE_GAPS)

    assert result == {"shown": [6, 9], "sent": [{"after": 6}], "version": 9}


def test_the_reconnect_loop_backs_off_stops_on_a_refusal_and_ignores_old_sockets(
    page: Any,
) -> None:
    open_site(page)

    result = page.evaluate(RECONNECT)

    # failures in a row count up; the owner's reset starts the count again
    assert result["beforeReset"] == [1, 2]
    assert result["retries"] == [1, 2, 1, 1]
    assert result["refused"] == [4404]
    assert result["afterRefusal"] == 4  # no socket after the refusal
    assert result["stopped"] == {"closedWith": 1000, "current": None}
    assert result["sockets"] == 6  # the retry stop() cancelled never opened a socket
    assert result["ceilings"] == [500, 1000, 2000, 4000, 10000]
    assert result["capped"] == 15000
    assert result["base"] == 12


def test_reconnect_delays_are_spread_over_their_ceiling_and_bounded_by_it(page: Any) -> None:
    """Full jitter: clients dropped together by a restart do not come back together."""
    open_site(page)

    result = page.evaluate(RECONNECT)

    assert result["ends"] == [0, 1999]
    for ceiling, draws in zip(result["ceilings"], result["draws"], strict=True):
        assert all(0 <= delay < ceiling for delay in draws)
        # Spread over the whole range, not bunched at one instant (500 uniform draws: the
        # chance of missing a quarter at either end is below 1e-60).
        assert min(draws) < ceiling / 4 and max(draws) > ceiling * 3 / 4
        assert len(set(draws)) > 100


def test_cards_sorted_by_suit_and_named_in_words(page: Any) -> None:
    open_site(page)

    result = page.evaluate(CARDS)

    assert result["sorted"] == ["AS", "3S", "KH", "4H", "QC", "2C", "TD"]
    assert result["words"] == ["10 of diamonds", "queen of hearts", "ace of spades", "7 of clubs"]
    assert result["text"] == "10♥"


def test_breakdown_lines_add_up_to_the_hand_score(page: Any) -> None:
    open_site(page)

    result = page.evaluate(BREAKDOWN)

    assert result["lines"] == [["East: Nil made", 100], ["Contract 5 set (took 4)", -50]]
    assert sum(points for _, points in result["lines"]) == 50
    assert result["signs"] == ["+3", "−28", "0", "−70", "72"]
