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
