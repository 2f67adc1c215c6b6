"""The replay viewer's pure modules in the browser that runs them: the stepper, the
rescoring comparison and the score chart."""

from __future__ import annotations

import json
import random
from typing import Any

from playwright.sync_api import expect

from games.engine.cards import card_name
from games.engine.record import record_from_game
from games.engine.rules import rules_from_spec
from games.engine.seats import SEAT_NAMES
from games.engine.view import seat_view
from scoring.core.replay import replay_document
from tests.unit.engine.random_play import play_random_game

BLIND_AT_ONCE = rules_from_spec({"blind_nil": True, "blind_nil_min_deficit": 0})


def replay_answer(seed: str) -> tuple[dict[str, Any], list[list[dict[str, str]]]]:
    """A replay answer as GET /api/tables/<id>/replay gives it, from an engine-played game,
    and the seat of every play as the engine's own seat view says."""
    game = play_random_game(BLIND_AT_ONCE, random.Random(seed), seed, first_dealer=1, max_hands=4)
    record = json.loads(json.dumps(record_from_game(game)))
    record["table"] = {"id": "t-1", "preset": {"name": "standard", "version": 1}}
    replayed = replay_document({"rules": record["rules"], "hands": record["hands"]}).as_dict()
    hands = [{"number": k + 1, **hand} for k, hand in enumerate(replayed["hands"])]
    seats = [{"seat": s, "kind": "human", "username": f"p-{s}"} for s in SEAT_NAMES]
    plays = []
    for hand in game.hands:
        view = seat_view(hand, None, (0, 0), (0, 0))
        plays.append([{"seat": SEAT_NAMES[s], "card": _name(c)} for s, c in view.plays])
    return {"record": record, "hands": hands, "seats": seats}, plays


def _name(card: int) -> str:

    return card_name(card)


STEPPER = """async (replay) => {
  const { replaySteps, trickStepIndex } = await import("/static/web/js/replay/stepper.js");
  return replay.hands.map((_, k) => {
    const states = replaySteps(replay, k + 1);
    const last = states[states.length - 1];
    const plays = states.filter((s) => s.step.kind === "play");
    const trick5 = states[trickStepIndex(states, 5)];
    return {
      kinds: states.map((s) => s.step.kind),
      cardsEverywhere: states.map((s) =>
        Object.values(s.face_up).reduce((n, cards) => n + cards.length, 0) + s.hand.plays.length),
      firstFaceUp: states[0].face_up,
      plays: last.hand.plays,
      playSeats: plays.map((s) => s.step.seat),
      tricksWon: last.hand.tricks_won,
      winners: last.hand.trick_winners,
      bids: last.hand.bids,
      lastFaceUp: Object.values(last.face_up).map((c) => c.length),
      totals: last.scores.totals,
      scoredHands: last.scores.hands.length,
      firstTotals: states[0].scores.totals,
      trick5: { trick: trick5.step.trick, cards: trick5.shown.cards.length,
                winner: trick5.shown.winner, partial: trick5.shown.partial },
      labels: [states[0].step.label, plays[3].step.label],
    };
  });
}"""


def open_site(page: Any) -> None:
    page.goto("/calculator/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def test_the_stepper_turns_each_hand_into_52_card_states_face_up(page: Any) -> None:
    # A seed whose game has a blind nil (so a pass step) among its first hands.
    for seed in ("replay-1", "replay-2", "replay-3", "replay-4", "replay-5", "replay-6"):
        replay, engine_plays = replay_answer(seed)
        if any("passes" in hand for hand in replay["record"]["hands"]):
            break
    else:
        raise AssertionError("no seed with a blind nil pass")
    open_site(page)

    result = page.evaluate(STEPPER, replay)

    for k, hand in enumerate(result):
        record_hand = replay["record"]["hands"][k]
        derived = replay["hands"][k]
        passes = "passes" in record_hand
        assert hand["kinds"] == (
            ["deal"] + ["bid"] * 4 + (["pass"] if passes else []) + ["play"] * 52 + ["result"]
        )
        assert set(hand["cardsEverywhere"]) == {52}
        assert hand["firstFaceUp"] == record_hand["deal"]
        assert [p["card"] for p in hand["plays"]] == record_hand["plays"]
        assert hand["plays"] == engine_plays[k]
        assert hand["playSeats"] == [p["seat"] for p in engine_plays[k]]
        assert hand["tricksWon"] == derived["tricks"]
        assert hand["winners"] == derived["trick_winners"]
        assert hand["bids"] == record_hand["bids"]
        assert hand["lastFaceUp"] == [0, 0, 0, 0]
        assert hand["totals"] == {t: derived[t]["total"] for t in ("north_south", "east_west")}
        assert hand["scoredHands"] == k + 1
        before = replay["hands"][k - 1] if k else None
        assert hand["firstTotals"] == {
            t: before[t]["total"] if before else 0 for t in ("north_south", "east_west")
        }
        assert hand["trick5"] == {
            "trick": 5,
            "cards": 4,
            "winner": derived["trick_winners"][4],
            "partial": False,
        }
        assert hand["labels"][0].startswith(f"Hand {k + 1}: ")
        assert hand["labels"][1].startswith("Trick 1, card 4: ")
        assert hand["labels"][1].endswith("wins trick 1.")


COMPARISON = """async () => {
  const { comparisonRows, flagText } = await import("/static/web/js/replay/comparison.js");
  const { cardText } = await import("/static/web/js/cards.js");
  const team = (hand_score, total) => ({ hand_score, total });
  const own = [
    { north_south: team(62, 62), east_west: team(-40, -40) },
    { north_south: team(100, 162), east_west: team(31, -9) },
    { north_south: team(50, 212), east_west: team(20, 11) },
  ];
  const flag = { hand: 2, action: "play", index: 17, seat: "west", card: "5S",
                 reason: "Spades have not been broken." };
  const rescored = {
    hands: [
      { hand_number: 1, north_south: team(62, 62), east_west: team(-40, -40) },
      { hand_number: 2, north_south: team(-100, -38), east_west: team(31, -9) },
    ],
    flags: [flag],
  };
  const rows = comparisonRows(own, rescored);
  return { rows, text: flagText(flag, cardText),
           bid: flagText(
             { action: "bid", index: 2, seat: "north", bid: "nil", reason: "No nil." }, cardText) };
}"""


def test_the_comparison_pairs_each_hand_under_both_rules_with_its_flag(page: Any) -> None:
    open_site(page)

    result = page.evaluate(COMPARISON)

    rows = result["rows"]
    assert [r["hand"] for r in rows] == [1, 2, 3]
    assert rows[1]["own"]["north_south"] == {"hand_score": 100, "total": 162}
    assert rows[1]["other"]["north_south"] == {"hand_score": -100, "total": -38}
    assert rows[1]["flag"]["card"] == "5S"
    assert rows[0]["flag"] is None
    assert rows[2]["other"] is None  # the other rules' game was over before hand 3
    assert result["text"] == "Play 17 (West, 5♠): Spades have not been broken."
    assert result["bid"] == "Bid 2 (North bid nil): No nil."


CHART = """async () => {
  const { chartData, scoreChart } = await import("/static/web/js/chart.js");
  const team = (total) => ({ total });
  const hands = [
    { north_south: team(62), east_west: team(-40) },
    { north_south: team(162), east_west: team(-9) },
    { north_south: team(212), east_west: team(11) },
  ];
  const marks = [{ value: 500, label: "Game 500" }];
  const svg = scoreChart(hands, { title: "Score history", marks, current: 2 });
  document.body.append(svg);
  const circles = (team) => [...svg.querySelectorAll(`circle[data-team="${team}"]`)];
  const ys = circles("north_south").map((c) => Number(c.getAttribute("cy")));
  const labelled = svg.getAttribute("aria-labelledby").split(" ")
    .map((id) => document.getElementById(id).textContent);
  return {
    tag: svg.tagName, role: svg.getAttribute("role"), labelled,
    ns: circles("north_south").map((c) => [c.dataset.hand, c.dataset.total]),
    ew: circles("east_west").map((c) => Number(c.dataset.total)),
    rising: ys[0] > ys[1] && ys[1] > ys[2],
    current: svg.querySelectorAll("circle.current").length,
    data: chartData(hands, [500]),
    empty: scoreChart([]).querySelector("desc").textContent,
    inside: [...svg.querySelectorAll("circle")].every((c) => {
      const [x, y] = [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))];
      return x >= 0 && x <= 320 && y >= 0 && y <= 170;
    }),
  };
}"""


def test_the_chart_draws_one_point_per_hand_per_team_and_says_its_numbers(page: Any) -> None:
    open_site(page)

    result = page.evaluate(CHART)

    assert result["tag"] == "svg" and result["role"] == "img"
    assert result["labelled"] == [
        "Score history",
        "Hand 1: North-South 62, East-West −40. Hand 2: North-South 162, East-West −9. "
        "Hand 3: North-South 212, East-West 11.",
    ]
    assert result["ns"] == [["1", "62"], ["2", "162"], ["3", "212"]]
    assert result["ew"] == [-40, -9, 11]
    assert result["rising"]  # a higher total is drawn higher (smaller y)
    assert result["current"] == 2  # both teams' point of the current hand
    assert result["data"]["min"] == -40 and result["data"]["max"] == 500
    assert result["inside"]
    assert result["empty"] == "No hand has been scored yet."
