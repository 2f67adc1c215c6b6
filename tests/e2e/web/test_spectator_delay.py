"""A spectator of a competition table with a spectator delay of 2 tricks, through the real
stack (daphne, PostgreSQL, Redis) in Chromium: the watch page shows the table 2 completed
tricks behind play, and neither its DOM nor anything it received (REST responses,
WebSocket frames) holds a card of the last two tricks, of the trick in play, or of a hand.
The four seats are humans whose moves this test sends, so the table stands still between
the checks."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from playwright.sync_api import expect

from eventstore.reading import read_stream
from games.services.table_state import reading_state
from leagues.models import CompetitionTable
from leagues.services.presence import arrive
from leagues.services.tables import start_round
from tests.e2e.web.steps import assert_controls_named, shot
from tests.e2e.web.test_competition_pages import users
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves

DELAY = 2
HIDDEN_CARDS = (
    """() => [...document.querySelectorAll("[data-card]")].map((el) => el.dataset.card)"""
)


def delayed_competition_table() -> tuple[str, dict[int, Any]]:
    """A started round-1 table of a competition with a delay of 2 tricks: its id and its
    players by seat."""
    from django.contrib.auth import get_user_model

    organiser, *players = users(5)
    spec = {
        "name": "Delayed night",
        "stages": [{"kind": "swiss", "rounds": 1}],
        "rules": {"preset": "standard", "target_score": 500},
        "grace_minutes": 30,  # the players arrive below, long before any no-show sweep
        "spectator_delay_tricks": DELAY,
    }
    cid = lg.create_competition(organiser, spec).competition_id
    for k in range(2):
        pair = [str(players[2 * k].pk), str(players[2 * k + 1].pk)]
        lg.enter(organiser, cid, entrant_id=f"pair-{k}", players=pair, name=f"P{k}")
    lg.pair_next_round(organiser, cid, round_number=1)
    start_round(organiser, cid, 1)
    for player in players:  # the game starts when its four players are at the table
        arrive(player, cid, 1)
    table_id = str(CompetitionTable.objects.get(competition_id=cid, round=1).table_id)
    with reading_state(table_id) as state:
        assert state.spectator_delay_tricks == DELAY and state.status == "playing"
        by_id = {user.pk: user for user in get_user_model().objects.filter(pk__in=state.players)}
        seated = {seat: by_id[user_id] for seat, user_id in enumerate(state.players)}
    return table_id, seated


def play_to(table_id: str, players: dict[int, Any], tricks: int, extra: int, seed: int) -> None:
    rng = random.Random(seed)
    while True:
        with reading_state(table_id) as state:
            assert state.status == "playing" and state.hand is not None
            if len(state.trick_ends) == tricks and len(state.hand.trick) == extra:
                return
        play_moves(table_id, players, rng, limit=1)


def cards_of(table_id: str) -> list[tuple[int, str]]:
    """(version, card) of every card played so far, in order."""
    return [
        (e.version, e.data["card"])
        for e in read_stream(f"table-{table_id}")
        if e.type == "CardPlayed"
    ]


def wait_for_frame(frames: list[dict[str, Any]], page: Any, version: int, timeout: float) -> None:
    """Until a frame at ``version`` has arrived (the resync brings a delayed spectator's)."""
    deadline = time.monotonic() + timeout
    while not any(frame.get("version") == version for frame in frames):
        assert time.monotonic() < deadline, f"no frame at version {version}: {frames[-1:]}"
        page.wait_for_timeout(100)


TRICKS_SHOWN = """(tricks) => {
  const won = [...document.getElementById("table-section").innerText.matchAll(/won (\\d+)/g)];
  return won.reduce((sum, match) => sum + Number(match[1]), 0) === tricks;
}"""


def wait_for_tricks_shown(page: Any, tricks: int) -> None:
    """Until the teams' lines ("This hand: bid 4, won 2") add up to ``tricks``."""
    page.wait_for_function(TRICKS_SHOWN, arg=tricks)


def names_in_json(value: Any) -> set[str]:
    card = re.compile(r"^(?:[2-9TJQKA][CDHS])$")
    if isinstance(value, str):
        return {value} if card.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(names_in_json(k) | names_in_json(v) for k, v in value.items()))
    if isinstance(value, list):
        return set().union(*(names_in_json(v) for v in value))
    return set()


def test_a_spectator_of_a_delayed_competition_table_sees_play_two_tricks_late(
    page: Any, orm: None
) -> None:
    table_id, players = delayed_competition_table()
    # Hand 1: five tricks done and two cards of the sixth down; the spectator is shown
    # tricks 1-3 only.
    play_to(table_id, players, 5, 2, seed=21)
    played = cards_of(table_id)
    assert len(played) == 22
    cut = played[11][0]

    # The table sockets' frames; the tournament page's competition socket (its own
    # versions, no cards) is checked for cards only.
    frames: list[dict[str, Any]] = []
    other_frames: list[dict[str, Any]] = []

    def listen(socket: Any) -> None:
        kept = frames if "/ws/tables/" in socket.url else other_frames
        socket.on("framereceived", lambda payload: kept.append(json.loads(payload)))

    page.on("websocket", listen)
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))

    page.goto(f"/tables/{table_id}/watch/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#watch-delay")).to_have_text(
        "Shown 2 tricks behind play: this competition delays what spectators see."
    )
    # The page read the table at the delayed version (its socket then waits for the next).
    views = [r for r in responses if r.url.endswith(f"/api/tables/{table_id}")]
    assert views and views[0].json()["version"] == cut
    wait_for_tricks_shown(page, 3)
    # Tricks 1-3 are what the page shows: their cards, never a later one.
    shown = {card for _, card in played[:12]}
    check_nothing_newer(page, frames, responses, shown, {cut})
    shot(page, "watch-delayed-spectator")
    assert_controls_named(page)

    # One more trick: the page moves on to trick 4, on the server's resync, and no further.
    play_to(table_id, players, 6, 0, seed=22)
    played = cards_of(table_id)
    later_cut = played[15][0]
    wait_for_frame(frames, page, later_cut, 30)
    wait_for_tricks_shown(page, 4)
    check_nothing_newer(
        page, frames, responses, {card for _, card in played[:16]}, {cut, later_cut}
    )

    # The tournament page's tile for the same table is held to the same delay. (The watch
    # page's responses were checked: their bodies go with the page.)
    responses.clear()
    page.goto(f"/competitions/{competition_of(table_id)}/")
    tile = page.locator(f'#board-tiles .board-tile[data-table="{table_id}"]')
    expect(tile.locator('[data-part="delay-note"]')).to_have_text(
        "Shown 2 tricks behind play: this competition delays what spectators see.",
        timeout=30_000,
    )
    check_nothing_newer(
        page, frames, responses, {card for _, card in played[:16]}, {cut, later_cut}
    )
    for frame in other_frames:
        assert not names_in_json(frame), f"a competition frame holds {names_in_json(frame)}"
    shot(page, "competition-delayed-tile")


def competition_of(table_id: str) -> str:
    return str(CompetitionTable.objects.get(table_id=table_id).competition_id)


def check_nothing_newer(
    page: Any,
    frames: list[dict[str, Any]],
    responses: list[Any],
    shown: set[str],
    versions: set[int],
) -> None:
    """The DOM, the frames and the API bodies hold only cards of the tricks shown, and
    every frame is at one of the delayed ``versions`` (never the table's own)."""
    in_dom = set(page.evaluate(HIDDEN_CARDS))
    assert in_dom <= shown, f"the page shows cards not yet shown: {in_dom - shown}"
    for frame in frames:
        assert "committed_at" not in frame
        if "version" in frame:
            assert frame["version"] in versions, frame["version"]
        leaked = names_in_json(frame) - shown
        assert not leaked, f"a WebSocket frame holds {leaked}"
        hand = (frame.get("table") or {}).get("hand") or {}
        assert "you" not in hand and not hand.get("revealed")
    for response in responses:
        if "/api/tables/" not in response.url or response.status != 200:
            continue
        body = response.json()
        leaked = names_in_json(body) - shown
        assert not leaked, f"{response.url} holds {leaked}"
        if "version" in body:
            assert body["version"] in versions
