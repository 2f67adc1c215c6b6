"""The table renderer's pure parts, in the browser that runs them: words and trick steps."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

WORDS = """async () => {
  const w = await import("/static/web/js/table/words.js");
  const view = { your_seat: "south", seats: [], status: "playing" };
  const spectator = { your_seat: null, seats: [], status: "playing" };
  const suggestion = (bid, counted) => w.suggestionText({ bid, counted: new Set(counted) });
  return {
    names: ["south", "north", "east"].map((s) => w.seatName(view, s)),
    spectatorNames: ["south", "north"].map((s) => w.seatName(spectator, s)),
    positions: ["south", "west", "north", "east"].map((s) => w.positionOf(view, s)),
    bids: [null, 0, "nil", "blind_nil", 4].map(w.bidText),
    line: w.teamHandLine(
      { bids: { north: 4, south: "nil", east: 3, west: 2 },
        tricks_won: { north: 2, south: 0, east: 1, west: 1 } },
      "north_south"),
    status: w.statusText({ ...view, hand: { phase: "playing", turn: "east", current_trick: [] } }),
    yourLead: w.statusText({
      ...view, hand: { phase: "playing", turn: "south", current_trick: [] },
    }),
    nil: suggestion("nil", []),
    two: suggestion(2, ["AS", "KS", "QH"]),
    one: w.suggestionText({
      bid: 1, counted: new Set(["QH"]), marks: "best_chance",
      reason: "No card in your hand counts as a trick. 1 is the lowest bid here: nil is risky"
        + " with the queen of hearts.",
    }),
    nilWhy: w.suggestionText({
      bid: "nil", counted: new Set(), marks: "none",
      reason: "No card in your hand looks likely to take a trick.",
    }),
    partnerNil: [
      { north: "nil" }, { north: "blind_nil" }, { north: 0 }, { north: 3 }, { east: "nil" },
    ].map((bids) => w.partnerNilBid({ ...view, hand: { bids } })),
    warning: w.doubleNilWarning("blind_nil", "nil", { nil_points: 100, blind_nil_points: 200 }),
    none: w.suggestionText(null),
    caption: w.trickCaption(view, { winner: "south", hand: 1 }),
    lastTrick: w.trickCaption(spectator, { winner: null, winnerTeam: "east_west", hand: 3 }),
    delays: [
      { ...spectator, spectator_delay_tricks: 2 },
      { ...spectator, spectator_delay_tricks: 1 },
      { ...spectator, spectator_delay_tricks: 0 },
      { ...view, spectator_delay_tricks: 2 },
      { ...spectator, spectator_delay_tricks: 2, status: "finished" },
    ].map(w.delayText),
  };
}"""

STEPS = """async () => {
  const { trickSteps, finishedTrick } = await import("/static/web/js/table/steps.js");
  const plays = [["west", "2C"], ["north", "3C"], ["east", "4C"], ["south", "AC"], ["south", "5H"]]
    .map(([seat, card]) => ({ seat, card }));
  const previous = {
    version: 10, hand: { number: 1, plays: plays.slice(0, 2), trick_winners: [] },
  };
  const view = {
    version: 13, hand: { number: 1, plays, trick_winners: ["south"] }, scores: { hands: [] },
  };
  const events = [11, 12, 13].map((version, k) => ({
    type: "CardPlayed", version, data: { hand_number: 1, ...plays[2 + k] },
  }));
  const steps = trickSteps(previous, { view, events });
  return {
    steps: steps.map((s) => ({ n: s.cards.length, winner: s.winner, partial: s.partial })),
    finished: finishedTrick(previous, { view, events }),
  };
}"""


def open_site(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_table_words_for_a_player_and_a_spectator(page: Any) -> None:
    open_site(page)

    result = page.evaluate(WORDS)

    assert result["names"] == ["You", "Partner", "East"]
    assert result["spectatorNames"] == ["South", "North"]
    assert result["positions"] == ["bottom", "left", "top", "right"]
    assert result["bids"] == ["–", "Nil", "Nil", "Blind nil", "4"]
    assert result["line"] == "bid 4 + nil, won 2"
    assert result["status"] == "East to play…"
    assert result["yourLead"] == "Your lead: play a card."
    # A Nil suggestion marks no card and says why; the stars of a numeric one are explained
    # (three cards may be counted for a bid of two: some count as part of a trick).
    assert result["nil"].startswith("Suggested bid: Nil.") and "None is marked" in result["nil"]
    assert result["nilWhy"] == (
        "Suggested bid: Nil. No card in your hand looks likely to take a trick. None is marked."
    )
    # A bid of 1 from a hand that counts nothing still says why, and marks its best card.
    assert result["one"] == (
        "Suggested bid: 1. No card in your hand counts as a trick. 1 is the lowest bid here: nil"
        " is risky with the queen of hearts. ★ marks your best chance of a trick."
    )
    assert result["partnerNil"] == ["nil", "blind_nil", "nil", None, None]
    assert result["warning"].startswith(
        "Your partner has bid blind nil (±200). If you bid nil (±100) too, your team has no"
        " contract"
    )
    assert result["two"] == (
        "Suggested bid: 2. ★ marks the 3 cards it counted: sure tricks, cards that may take a"
        " trick (each worth part of one), and long spades."
    )
    assert result["none"] == "Working out a suggested bid…"
    assert result["delays"] == [
        "Shown 2 tricks behind play: this competition delays what spectators see.",
        "Shown 1 trick behind play: this competition delays what spectators see.",
        "",
        "",
        "",
    ]
    assert result["caption"] == "You win the trick"
    assert result["lastTrick"] == "Hand 3 is over: last trick to East-West"


def test_trick_steps_lay_an_update_card_by_card(page: Any) -> None:
    open_site(page)

    result = page.evaluate(STEPS)

    assert result["steps"] == [
        {"n": 3, "winner": None, "partial": True},
        {"n": 4, "winner": "south", "partial": False},
        {"n": 1, "winner": None, "partial": True},
    ]
    assert result["finished"]["winner"] == "south"
    assert [p["card"] for p in result["finished"]["cards"]] == ["2C", "3C", "4C", "AC"]


ROVING = """async () => {
  const r = await import("/static/web/js/table/roving.js");
  const t = (enabled, from, key) => r.rovingTarget(enabled, from, key);
  const enabled = [false, true, false, true, true, false];
  // The group in a page: buttons, the second dimmed; arrows move, Tab leaves.
  const box = document.createElement("div");
  box.innerHTML = '<button>a</button><button aria-disabled="true">b</button><button>c</button>';
  document.body.append(box);
  const refresh = r.roving(box, "button");
  const first = refresh();
  const stops = () => [...box.children].map((b) => b.tabIndex);
  const before = stops();
  box.children[0].focus();
  box.children[0].dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
  const moved = document.activeElement.textContent;
  const after = stops();
  box.remove();
  return {
    next: [t(enabled, 1, "ArrowRight"), t(enabled, 2, "ArrowDown"), t(enabled, 4, "ArrowRight")],
    previous: [t(enabled, 1, "ArrowLeft"), t(enabled, 2, "ArrowUp")],
    ends: [t(enabled, 2, "Home"), t(enabled, 2, "End")],
    fromDimmed: [t(enabled, 0, "ArrowRight"), t(enabled, 5, "ArrowLeft")],
    noneEnabled: [t([false, false, false], 0, "ArrowRight"), t([false, false], 1, "End")],
    other: [t(enabled, 1, "Enter"), t([], 0, "ArrowRight"), t([true], 0, "ArrowRight")],
    stop: [r.rovingStop(enabled, 4), r.rovingStop(enabled, 0), r.rovingStop(enabled, -1),
           r.rovingStop([false, false], null), r.rovingStop([], 0)],
    page: { first: first.textContent, before, moved, after },
  };
}"""


def test_roving_tabindex_moves_among_enabled_items(page: Any) -> None:
    open_site(page)

    result = page.evaluate(ROVING)

    # Enabled: 1, 3 and 4 of 0..5. Next and previous skip the dimmed and wrap round.
    assert result["next"] == [3, 3, 1]
    assert result["previous"] == [4, 1]
    assert result["ends"] == [1, 4]
    assert result["fromDimmed"] == [1, 4]  # the focus left on a card that became dimmed
    # Nothing enabled (the hand while another seat plays): every card may be read.
    assert result["noneEnabled"] == [1, 1]
    assert result["other"] == [None, None, 0]
    assert result["stop"] == [4, 1, 1, 0, None]
    # One tab stop (tabindex 0) on the first enabled button; ArrowRight skips the dimmed one.
    assert result["page"] == {
        "first": "a",
        "before": [0, -1, -1],
        "moved": "c",
        "after": [-1, -1, 0],
    }
