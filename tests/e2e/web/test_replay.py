"""The replay viewer for auditors, through the real stack: a whole hand card by card,
the rescoring beside it, the verified badge, the download and the score chart; and a
spectator of a table in play sees nothing of the hand in play."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.engine.cards import card_name, names_in
from games.services.table_commands import HandSeatToBot, execute
from games.services.table_state import reading_state
from scoring.services.presets import create_preset
from tests.e2e.web.conftest import SCREENSHOTS
from tests.e2e.web.steps import (
    NAMES,
    QUICK_RULES,
    assert_controls_named,
    assert_plain_words,
    continue_table,
    finished_table,
    human_table,
    sign_up,
    started_table,
)
from tests.integration.tables.helpers import play_moves

SIZES = [pytest.param(1280, 900, id="desktop"), pytest.param(390, 844, id="phone")]
BID_WORDS = {"nil": "Nil", "blind_nil": "Blind nil"}


def table_in_second_hand(seed: int) -> str:
    """A table in play: hand 1 over, hand 2 bid and six cards played."""
    table_id, users = human_table()
    rng = random.Random(seed)
    while True:
        with reading_state(table_id) as state:
            hands = state.game.hands
            if len(hands) >= 2 and len(hands[1].plays) >= 6:
                return table_id
            assert state.status == "playing"
        play_moves(table_id, users, rng, limit=1)


def open_replay(page: Any, table_id: str) -> None:
    page.goto(f"/tables/{table_id}/replay/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


STEP_STATE = """() => {
  const section = document.getElementById("replay-section");
  const faceUp = {};
  for (const list of document.querySelectorAll(".face-up-hand")) {
    faceUp[list.dataset.seat] = [...list.querySelectorAll(".card")].map((c) => c.dataset.card);
  }
  return {
    step: Number(section.dataset.step),
    kind: section.dataset.stepKind,
    trick: [...document.querySelectorAll(".trick-slot .card")].map((c) => c.dataset.card),
    winner: [...document.querySelectorAll(".trick-slot .card.winner")].map((c) => c.dataset.card),
    caption: document.getElementById("trick-caption").textContent,
    label: document.getElementById("step-label").textContent,
    faceUp,
  };
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_an_auditor_steps_through_a_whole_hand_face_up(
    page: Any, orm: None, width: int, height: int
) -> None:
    table_id = finished_table(seed=31)
    replay = page.request.get(f"/api/tables/{table_id}/replay").json()
    record_hand = replay["record"]["hands"][0]
    result = replay["hands"][0]
    page.set_viewport_size({"width": width, "height": height})

    open_replay(page, table_id)

    expect(page.locator("#verification")).to_have_attribute("data-state", "verified")
    expect(page.locator("#hand-picker option")).to_have_count(len(replay["hands"]))
    expect(page.locator("#replay-section")).to_have_attribute("data-step", "0")
    start = page.evaluate(STEP_STATE)
    assert {seat: sorted(cards) for seat, cards in start["faceUp"].items()} == {
        seat: sorted(cards) for seat, cards in record_hand["deal"].items()
    }
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"replay-start-{width}x{height}")
    assert_controls_named(page)

    seen: list[str] = []
    kinds: list[str] = []
    holding = {seat: set(cards) for seat, cards in record_hand["deal"].items()}
    for seat, given in record_hand.get("passes", {}).items():
        partner = NAMES[(NAMES.index(seat) + 2) % 4]
        holding[seat] -= set(given)
        holding[partner] |= set(given)
    step = 0
    while page.locator("#step-forward").is_enabled():
        page.click("#step-forward")
        step += 1
        expect(page.locator("#replay-section")).to_have_attribute("data-step", str(step))
        state = page.evaluate(STEP_STATE)
        kinds.append(state["kind"])
        if state["kind"] != "play":
            continue
        card = record_hand["plays"][len(seen)]
        seen.append(card)
        seat = next(s for s, cards in holding.items() if card in cards)
        holding[seat].discard(card)
        assert card in state["trick"], (step, card)
        assert sorted(state["faceUp"][seat]) == sorted(holding[seat])
        trick = (len(seen) - 1) // 4
        if len(seen) % 4 == 0:
            winner = result["trick_winners"][trick]
            assert len(state["trick"]) == 4
            assert state["caption"] == f"{winner.capitalize()} wins the trick"
            assert f"{winner.capitalize()} wins trick {trick + 1}." in state["label"]
        else:
            assert len(state["trick"]) == len(seen) % 4
        if len(seen) == 26:
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"replay-mid-hand-{width}x{height}")
            assert_plain_words(page)

    assert seen == record_hand["plays"]  # all 52 cards, in the order played
    passes = ["pass"] if "passes" in record_hand else []
    assert kinds == ["bid"] * 4 + passes + ["play"] * 52 + ["result"]
    for seat in NAMES:
        box = page.locator(f'.seat[data-seat="{seat}"]')
        expect(box.locator(".seat-tricks")).to_have_text(str(result["tricks"][seat]))
        bid = record_hand["bids"][seat]
        expect(box.locator(".seat-bid")).to_have_text(BID_WORDS.get(str(bid), str(bid)))
        row = page.locator(f'#bids-rows tr[data-seat="{seat}"]')
        expect(row.locator(".bid")).to_have_text(BID_WORDS.get(str(bid), str(bid)))
        expect(row.locator(".tricks")).to_have_text(str(result["tricks"][seat]))
    expect(page.locator(".face-up-hand .card")).to_have_count(0)
    for team in ("north_south", "east_west"):
        score = page.locator(f'#hand-breakdown .breakdown[data-team="{team}"] [data-hand-score]')
        expect(score).to_have_attribute("data-hand-score", str(result[team]["hand_score"]))
    expect(page.locator("#score-us")).to_have_text(points(result["north_south"]["total"]))
    expect(page.locator("#score-them")).to_have_text(points(result["east_west"]["total"]))

    # Jump to a trick: trick 7 whole, its winner marked.
    page.select_option("#trick-picker", "7")
    state = page.evaluate(STEP_STATE)
    assert sorted(state["trick"]) == sorted(record_hand["plays"][24:28])
    assert len(state["winner"]) == 1
    assert state["caption"] == f"{result['trick_winners'][6].capitalize()} wins the trick"

    # Back one step, then play and pause.
    before = state["step"]
    page.click("#step-back")
    expect(page.locator("#replay-section")).to_have_attribute("data-step", str(before - 1))
    page.click("#play-pause")
    expect(page.locator("#play-pause")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#replay-section")).to_have_attribute("data-step", str(before + 1))
    page.click("#play-pause")
    expect(page.locator("#play-pause")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#play-pause")).to_have_text("Play")

    # The score history: one point per hand for each side, at the replay's totals.
    for team in ("north_south", "east_west"):
        points_drawn = page.locator(f'#history-chart circle[data-team="{team}"]')
        expect(points_drawn).to_have_count(len(replay["hands"]))
        totals = [int(t) for t in points_drawn.evaluate_all("cs => cs.map(c => c.dataset.total)")]
        assert totals == [hand[team]["total"] for hand in replay["hands"]]
    desc = page.locator("#history-chart svg desc").text_content()
    last = replay["hands"][-1]
    assert (
        f"Hand {len(replay['hands'])}: North-South {points(last['north_south']['total'])}" in desc
    )

    # Another hand from the picker.
    if len(replay["hands"]) > 1:
        page.select_option("#hand-picker", "2")
        expect(page.locator("#hand-details-heading")).to_have_text("Hand 2: bids and score")
        expect(page.locator(".face-up-hand .card")).to_have_count(52)


def points(value: int) -> str:
    return f"−{abs(value)}" if value < 0 else str(value)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_same_game_rescored_under_another_preset_marks_the_forbidden_play(
    page: Any, orm: None, width: int, height: int
) -> None:
    name = f"e2e-clubs-{uuid.uuid4().hex[:8]}"
    rules = {k: v for k, v in QUICK_RULES.items() if k != "preset"}
    create_preset(name, {**rules, "first_lead": "two_of_clubs"}, description="2♣ leads")
    table_id = finished_table(seed=32)
    page.set_viewport_size({"width": width, "height": height})
    open_replay(page, table_id)
    replay = page.request.get(f"/api/tables/{table_id}/replay").json()
    rescored = page.request.get(f"/api/tables/{table_id}/rescore?rules={name}").json()
    assert rescored["flags"], "a random game whose every first lead is the 2♣ is unlikely"

    page.select_option("#rescore-preset", name)

    expect(page.locator("#rescore-table")).to_be_visible()
    rows = page.locator("#rescore-rows tr")
    expect(rows).to_have_count(len(replay["hands"]))
    by_number = {hand["hand_number"]: hand for hand in rescored["hands"]}
    for k, own in enumerate(replay["hands"]):
        row = page.locator(f'#rescore-rows tr[data-hand="{k + 1}"]')
        cells = row.locator("td").all_text_contents()
        other = by_number.get(k + 1)
        expected = [cell(own, "north_south"), cell(own, "east_west")]
        expected += [cell(other, "north_south"), cell(other, "east_west")] if other else ["–", "–"]
        assert cells == expected, k + 1
    flagged = {flag["hand"] for flag in rescored["flags"]}
    # The verdict the standings' what-if gives the same table, in the same words.
    assert rescored["comparable"] is False
    expect(page.locator("#rescore-summary")).to_have_attribute("data-comparable", "false")
    expect(page.locator("#rescore-summary")).to_contain_text(rescored["reason"])
    expect(page.locator("#rescore-rows tr.flagged")).to_have_count(len(flagged))
    expect(page.locator("#rescore-flags li")).to_have_count(len(rescored["flags"]))
    shot(page, f"replay-rescored-{width}x{height}")
    assert_plain_words(page)  # the rescoring's rules, results and flags

    flag = next(f for f in rescored["flags"] if f["action"] == "play")
    page.locator(f'#rescore-flags li[data-hand="{flag["hand"]}"] button').click()
    expect(page.locator("#hand-picker")).to_have_value(str(flag["hand"]))
    expect(page.locator("#step-label")).to_contain_text("Forbidden under")
    expect(page.locator("#step-label")).to_contain_text(flag["reason"])
    marked = page.locator(".trick-slot .card.forbidden")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-card", flag["card"])
    assert_controls_named(page)


def cell(result: dict[str, Any], team: str) -> str:
    score = result[team]["hand_score"]
    signed = f"+{score}" if score > 0 else f"−{abs(score)}" if score < 0 else "0"
    return f"{signed} → {points(result[team]['total'])}"


def test_the_badge_links_to_the_recipe_and_the_record_downloads(page: Any, orm: None) -> None:
    table_id = finished_table(seed=33)
    open_replay(page, table_id)
    expect(page.locator("#verification")).to_have_attribute("data-state", "verified")
    expect(page.locator('#verification-checks li[data-status="passed"]')).to_have_count(3)

    with page.expect_download() as info:
        page.click("#download-record")
    download = info.value
    assert download.suggested_filename == f"spades-table-{table_id}.json"
    with open(download.path(), encoding="utf-8") as handle:
        downloaded = json.load(handle)
    assert downloaded == page.request.get(f"/api/tables/{table_id}/export").json()
    assert downloaded["table"]["deal_seed"] and downloaded["head_hash"]

    page.click("#verify-how")
    expect(page.locator("#doc-heading")).to_have_text("Verifying a game by hand")
    expect(page.locator(".doc-text")).to_contain_text("shuffled_deck(seed")
    expect(page.locator(".doc-text")).to_contain_text("prev_hash")
    shot(page, "verifying-by-hand")


def test_a_spectator_of_a_table_in_play_sees_no_card_of_the_hand_in_play(
    page: Any, orm: None
) -> None:

    table_id = table_in_second_hand(seed=34)
    with reading_state(table_id) as state:
        current = state.game.hands[1]
        holdings = [json.dumps(list(names_in(current.dealt[s]))) for s in range(4)]
        plays = json.dumps([card_name(card) for card in current.plays])[1:-1]
        first_deal = {NAMES[s]: sorted(names_in(state.game.hands[0].dealt[s])) for s in range(4)}
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))

    open_replay(page, table_id)

    expect(page.locator("#verification")).to_have_attribute("data-state", "pending")
    expect(page.locator("#hand-picker option")).to_have_count(1)
    expect(page.locator("#in-play-note")).to_have_text(
        "Hand 2 is still being played: it appears here once it is over."
    )
    api_bodies = [r.text() for r in responses if "/api/" in r.url]
    assert len(api_bodies) >= 3  # replay, verification, presets
    html = page.content()
    for text in [*api_bodies, html]:
        for holding in holdings:
            assert holding not in text
        assert plays not in text
        assert '"deck"' not in text
    # What the board shows is hand 1's deal, whatever step is shown.
    state = page.evaluate(STEP_STATE)
    assert {seat: sorted(cards) for seat, cards in state["faceUp"].items()} == first_deal
    page.click("#step-last")
    expect(page.locator(".face-up-hand .card")).to_have_count(0)
    shot(page, "replay-in-play-spectator")
    assert_controls_named(page)


def test_the_play_page_draws_the_score_history_one_point_per_hand(page: Any, orm: None) -> None:

    username = sign_up(page)
    table_id = started_table(
        username, {"preset": "standard", "target_score": 10, "lose_score": -10}
    )
    continue_table(page, table_id)
    expect(page.locator("#score-chart-panel")).to_be_hidden()
    user = get_user_model().objects.get(username=username)
    execute(HandSeatToBot(table_id, "south", level="easy"), user)

    expect(page.locator("#game-over")).to_be_visible(timeout=60_000)
    expect(page.locator("#score-chart-panel")).to_be_visible()
    hands = page.locator("#score-sheet-rows tr").count()
    assert hands >= 1
    for team in ("north_south", "east_west"):
        expect(page.locator(f'#score-chart circle[data-team="{team}"]')).to_have_count(hands)
    final = page.locator('#score-chart circle[data-team="north_south"]').last
    expect(final).to_have_attribute(
        "data-total", page.locator("#score-us").inner_text().replace("−", "-")
    )
    assert page.locator("#score-chart svg title").first.text_content()
    page.set_viewport_size({"width": 1280, "height": 900})
    shot(page, "play-score-history-1280x900")
    assert_controls_named(page)
