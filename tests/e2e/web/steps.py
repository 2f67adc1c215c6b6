"""Steps the browser tests share: signing up, and tables and competitions made for a
test's situation."""

from __future__ import annotations

import itertools
import json
import random
import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from games.engine.cards import card_name
from games.engine.play import legal_cards, play_card
from games.engine.seats import SEAT_NAMES
from games.services.table_commands import (
    PlaceBid,
    PlayCard,
    StartGame,
    TakeSeat,
    create_table,
    execute,
)
from games.services.table_state import reading_state
from tests.e2e.web.conftest import SCREENSHOTS
from tests.factories import TableFactory, UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves

# Installed by bin/test (spades_ensure_axe: npm ci from package-lock.json).
AXE_SCRIPT = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"

BOT_SEATS = {
    "north": {"kind": "bot", "level": "normal"},
    "east": {"kind": "bot", "level": "easy"},
    "west": {"kind": "bot", "level": "easy"},
}


def sign_up(page: Any, *, goto: bool = True, lobby: bool = True) -> str:
    """Register a new player through the page; returns the username.

    ``goto=False`` signs up on the page already open (an invite link); ``lobby=False`` does
    not expect the lobby afterwards (an invite link opens its table instead).
    """
    username = f"e2e-{uuid.uuid4().hex[:10]}"
    if goto:
        page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.fill("#register-username", username)
    page.fill("#register-password", "correct-horse-42")
    page.click("#register-form button[type=submit]")
    if lobby:
        expect(page.locator("#setup-section")).to_be_visible()
    expect(page.locator("#account-name")).to_have_text(username)
    # The setup form shows before its rules list is loaded; filling the list resets the
    # custom options, so a choice made earlier is lost. Start is enabled once it is filled.
    expect(page.locator("#start-game")).to_be_enabled()
    return username


def started_table(username: str, rules: dict[str, Any], first_dealer: str = "east") -> str:
    """A started table under ``rules``: the player in south, bots elsewhere (needs ``orm``).

    The default dealer, east, makes south bid first.
    """
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=username)
    table_id = str(create_table(actor=user, rules=rules, seats=BOT_SEATS).table_id)
    execute(TakeSeat(table_id, "south"), user)
    execute(StartGame(table_id, first_dealer), user)
    return table_id


def continue_table(page: Any, table_id: str) -> None:
    """Make ``table_id`` the browser's game and press Continue, as after a reload."""
    page.evaluate(
        "value => localStorage.setItem('spades.table', value)", json.dumps({"id": table_id})
    )
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.click("#continue-game")
    expect(page.locator("#table-section")).to_be_visible()


# Visible buttons, inputs and selects with no accessible name (label, aria-label or text).
UNNAMED_CONTROLS = """() => [...document.querySelectorAll("button, input, select")]
    .filter((el) => el.offsetParent !== null && el.type !== "hidden")
    .filter((el) => !(el.getAttribute("aria-label") || (el.labels && el.labels.length)
                      || el.textContent.trim()))
    .map((el) => el.outerHTML.slice(0, 120))"""


def assert_controls_named(page: Any) -> None:
    """Every visible control can be told apart by a screen reader."""
    assert page.evaluate(UNNAMED_CONTROLS) == []


SOUTH = 2
ORDER = ("west", "north", "east")  # with south dealing, west leads and south plays last


def south_wins_first_trick(table_id: str) -> tuple[list[str], str] | None:
    """Cards for west, north, east and then south such that south wins trick 1, or None."""
    with reading_state(table_id) as state:
        start = state.hand.copy()

    def lines(hand: Any, depth: int) -> Any:
        for card in legal_cards(hand):
            after = hand.copy()
            seat = after.turn
            play_card(after, seat, card)
            if depth == 3:
                if seat == SOUTH and after.trick_winners[-1] == SOUTH:
                    yield [card]
            else:
                for rest in lines(after, depth + 1):
                    yield [card, *rest]

    for line in itertools.islice(lines(start, 0), 1):
        names = [card_name(card) for card in line]
        return names[:3], names[3]
    return None


def stream_version(table_id: str) -> int:
    """The table's stream version now, as the services read it."""
    with reading_state(table_id) as state:
        return int(state.version)


def four_human_table(south_name: str) -> tuple[str, dict[str, Any], list[str], str]:
    """A started table, all four seats human, every bid made, where south can win trick 1."""
    from django.contrib.auth import get_user_model

    south = get_user_model().objects.get(username=south_name)
    for _ in range(20):  # a deal where south cannot win the first trick is rare: deal again
        others = {s: UserFactory(username=f"e2e-{s}-{uuid.uuid4().hex[:8]}") for s in ORDER}
        table_id = str(create_table(actor=south, rules={"preset": "standard"}).table_id)
        for seat, user in {**others, "south": south}.items():
            execute(TakeSeat(table_id, seat), user)
        execute(StartGame(table_id, first_dealer="south"), south)
        for seat in (*ORDER, "south"):
            user = others.get(seat, south)
            execute(PlaceBid(table_id, seat, 3), user)
        line = south_wins_first_trick(table_id)
        if line is not None:
            return table_id, others, line[0], line[1]
    raise AssertionError("no deal in 20 where south can win the first trick")


def shot(page: Any, name: str) -> Path:
    """Save what the page shows now as SCREENSHOTS/<name>.png, for a reviewer to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# axe's findings, each cut to what a failure message needs.
RUN_AXE = """async () => {
  const results = await axe.run(document, { resultTypes: ["violations"] });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.html.slice(0, 160)),
  }));
}"""


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[Any]:
    """axe-core's violations of the page as it is now, of the given impacts."""
    if not AXE_SCRIPT.exists():
        raise AssertionError(f"{AXE_SCRIPT} is missing: run bin/test (it runs npm ci)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated by the browser's driver, not added as a <script>: the site's
        # Content-Security-Policy refuses inline scripts, and rightly.
        page.evaluate(AXE_SCRIPT.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in impacts]


# What a person reads: the visible text, and the names a screen reader says instead.
READ_TEXT = """() => {
  const said = [...document.querySelectorAll("[aria-label], [title], [alt]")]
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => [el.getAttribute("aria-label"), el.getAttribute("title"), el.getAttribute("alt")]
      .filter(Boolean).join(" "));
  return [document.title, document.body.innerText, ...said].join("\\n");
}"""
# A program's words: identifiers (north_south, blind_nil, bag_penalty), the seed file's name.
RAW_WORDS = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|seed rules|rules rules", re.IGNORECASE)


def assert_plain_words(page: Any) -> None:
    """Nothing the page shows or says is a raw id or a developer's phrase."""
    found = sorted(set(RAW_WORDS.findall(page.evaluate(READ_TEXT))))
    assert found == [], f"raw words on {page.url}: {found}"


def play_out_hand(table_id: str, users: dict[str, Any]) -> None:
    """Every seat plays its first legal card until the hand in play is over (needs ``orm``).

    ``users`` maps each seat's name to the user sitting there.
    """
    with reading_state(table_id) as state:
        number = state.hand.hand_number
    for _ in range(53):  # 52 cards, then a look at the next hand
        with reading_state(table_id) as state:
            hand = state.hand
            if hand.hand_number != number:
                return
            seat = SEAT_NAMES[hand.turn]
            card = card_name(legal_cards(hand)[0])
        execute(PlayCard(table_id, seat, card), users[seat])
    raise AssertionError(f"hand {number} of {table_id} did not end after 52 cards")


NAMES = ("north", "east", "south", "west")
# A short game (a few hands) with every kind of bid.
QUICK_RULES = {"preset": "standard", "target_score": 150, "lose_score": -150, "blind_nil": True}


def human_table() -> tuple[str, dict[int, Any]]:
    """A started table of four human players (needs ``orm``)."""
    users = {s: UserFactory(username=f"e2e-{NAMES[s]}-{uuid.uuid4().hex[:8]}") for s in range(4)}
    table = TableFactory(
        creator=users[0],
        rules=QUICK_RULES,
        players={NAMES[s]: users[s] for s in range(4)},
        started=True,
    )
    return str(table.id), users


def finished_table(seed: int) -> str:
    """A finished game of four human players, played through the services (needs ``orm``)."""
    table_id, users = human_table()
    play_moves(table_id, users, random.Random(seed))
    return table_id


def hold_clock(page: Any) -> None:
    """Stop the page's clock (installed with ``page.clock.install()``) 50 ms from now: its
    timers fire only when the test runs it on. Playwright takes the time in seconds."""
    page.clock.pause_at((page.evaluate("Date.now()") + 50) / 1000)


def competition_of_teams(
    organiser: Any,
    players: list[Any],
    spec: dict[str, Any],
    teams: int,
    reserves: Mapping[int, Any] | None = None,
) -> str:
    """``organiser``'s competition under ``spec`` with ``teams`` entrants, "team-k" named
    "Team k", of ``players`` two by two; ``reserves`` gives team k a reserve player.
    Returns the competition's id (needs ``orm``)."""
    cid: str = lg.create_competition(organiser, spec).competition_id
    for k in range(teams):
        reserve = (reserves or {}).get(k)
        lg.enter(
            organiser,
            cid,
            entrant_id=f"team-{k}",
            players=[str(players[2 * k].pk), str(players[2 * k + 1].pk)],
            name=f"Team {k}",
            reserve=str(reserve.pk) if reserve is not None else None,
        )
    return cid
