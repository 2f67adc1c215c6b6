"""Four people at one table through the real stack: invite links, a whole hand, a spectator.

Each player has a browser context of their own. The creator makes a table for friends in
the lobby, the three others sign up through their invite links, the creator starts, and the
four pages play a whole hand. Every page shows only its own cards; a spectator watching the
same table sees no card that has not been played, in its DOM or on the wire.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.engine.cards import names_in
from games.services.table_state import reading_state
from tests.e2e.web.conftest import BOTH_SCREENS, SCREENSHOTS
from tests.e2e.web.steps import sign_up

SEATS = ("north", "east", "south", "west")
CARD = re.compile(r'"([2-9TJQKA][SHCD])"')


def unplayed_cards(table_id: str) -> tuple[int, set[str]]:
    """The hand in play and its cards nobody has played yet (hidden from a spectator)."""
    with reading_state(table_id) as state:
        hand = state.hand
        return hand.hand_number, {card for seat in range(4) for card in names_in(hand.hands[seat])}


def hand_cards(page: Any) -> set[str]:
    return set(
        page.locator("#hand button.card").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def act_once(pages: dict[str, Any]) -> bool:
    """Whoever is to act bids 3 or plays their first playable card; False when nobody did.

    A page may redraw between the look and the click (another seat's card arrives): the
    click then finds nothing within a second, and the caller simply looks again.
    """
    for page in pages.values():
        try:
            if page.locator(".bid-button").first.is_visible():
                page.locator('.bid-button[data-bid="3"]').click(timeout=1000)
                return True
            playable = page.locator("#hand .card.playable")
            presenting = page.locator("#table-section").get_attribute("data-presenting")
            if playable.count() and presenting == "false":
                playable.first.click(timeout=1000)
                return True
        except PlaywrightTimeout:
            continue
    return False


@BOTH_SCREENS
def test_four_people_play_a_hand_each_seeing_only_their_cards(
    browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    contexts = [browser.new_context(base_url=server_url, viewport=viewport) for _ in range(5)]
    try:
        pages = {seat: context.new_page() for seat, context in zip(SEATS, contexts, strict=False)}
        creator = pages["south"]
        sign_up(creator)
        creator.check('input[name="company"][value="friends"]')
        for seat in ("north", "east", "west"):
            creator.select_option(f"#seat-{seat}", "human")
        creator.click("#start-game")
        expect(creator.locator("#lobby-panel")).to_be_visible()
        links = {
            seat: creator.locator(
                f'#seat-invites li[data-seat="{seat}"] .invite-link'
            ).input_value()
            for seat in ("north", "east", "west")
        }
        expect(creator.locator("#start-table")).to_be_disabled()

        for seat, link in links.items():
            page = pages[seat]
            page.goto(link.replace(server_url, ""))
            expect(page.locator("#auth-heading")).to_contain_text(f"sit {seat.capitalize()}")
            sign_up(page, goto=False, lobby=False)
            expect(page.locator("#table-section")).to_be_visible()
            expect(page.locator(f'.seat[data-seat="{seat}"] .seat-name')).to_contain_text("You")

        expect(creator.locator("#start-table")).to_be_enabled()
        creator.click("#start-table")
        table_id = creator.evaluate("JSON.parse(localStorage.getItem('spades.table')).id")

        # A spectator, recording everything the server sends it.
        watcher = contexts[4].new_page()
        received: list[str] = []
        watcher.on(
            "websocket", lambda ws: ws.on("framereceived", lambda f: received.append(str(f)))
        )
        watcher.on(
            "response",
            lambda r: received.append(r.text()) if "/api/" in r.url and r.ok else None,
        )
        watcher.goto(f"/tables/{table_id}/watch/")
        expect(watcher.locator("body")).to_have_attribute("data-ready", "true")
        expect(watcher.locator("#hand-number")).to_contain_text("Hand 1")

        for page in pages.values():
            expect(page.locator("#hand button.card")).to_have_count(13)
        dealt = {seat: hand_cards(page) for seat, page in pages.items()}
        assert len(set().union(*dealt.values())) == 52, "each page shows its own 13 cards"

        for _ in range(600):
            # What the pages show is read first and the hidden cards after: cards only go
            # from hidden to played, so a card shown then and still hidden now was never
            # public (and a hand that ended in between stops the check).
            shown = set(
                watcher.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            )
            seen = {c for text in list(received) for c in CARD.findall(text)}
            holdings = {seat: hand_cards(page) for seat, page in pages.items()}
            number, hidden = unplayed_cards(table_id)
            if number > 1:
                break  # hand 1 is over (and public now); hand 2 was dealt
            assert not shown & hidden, f"the spectator's page shows unplayed {shown & hidden}"
            assert not seen & hidden, f"the spectator received unplayed cards {seen & hidden}"
            for seat, cards in holdings.items():
                assert cards <= dealt[seat], f"{seat} sees a card not dealt to it"
            if not act_once(pages):
                creator.wait_for_timeout(100)
        expect(creator.locator("#hand-result")).to_be_visible()
        expect(watcher.locator("#score-sheet-rows tr")).to_have_count(1)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        watcher.screenshot(path=str(SCREENSHOTS / f"watch-after-hand-1-{viewport['width']}.png"))
    except BaseException:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for k, context in enumerate(contexts):
            for n, tab in enumerate(context.pages):
                tab.screenshot(path=str(SCREENSHOTS / f"four-humans-failed-{k}-{n}.png"))
        raise
    finally:
        for context in contexts:
            context.close()
