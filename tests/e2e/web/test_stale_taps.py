"""A tap while the page still shows a finished trick never plays into the next trick.

The table has four human seats: the browser plays south, the test plays the other three
through the services, so it can arrange a first trick that south completes and wins (south
then leads the next trick). Playwright's clock holds the page's pause after that trick, so
the tap lands while the finished trick is on screen, whatever the machine's load.
"""

from __future__ import annotations

import itertools
import json
import uuid
from typing import Any

from playwright.sync_api import expect

from tests.e2e.web.steps import continue_table, sign_up

SOUTH = 2
ORDER = ("west", "north", "east")  # with south dealing, west leads and south plays last


def south_wins_first_trick(table_id: str) -> tuple[list[str], str] | None:
    """Cards for west, north, east and then south such that south wins trick 1, or None."""
    from games.engine.cards import card_name
    from games.engine.play import legal_cards, play_card
    from games.services.table_state import reading_state

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
    from games.services.table_state import reading_state

    with reading_state(table_id) as state:
        return int(state.version)


def four_human_table(south_name: str) -> tuple[str, dict[str, Any], list[str], str]:
    """A started table, all four seats human, every bid made, where south can win trick 1."""
    from django.contrib.auth import get_user_model

    from games.services import commands
    from tests.factories import UserFactory

    south = get_user_model().objects.get(username=south_name)
    for _ in range(20):  # a deal where south cannot win the first trick is rare: deal again
        others = {seat: UserFactory(username=f"e2e-{seat}-{uuid.uuid4().hex[:8]}") for seat in ORDER}
        table_id = str(commands.create_table(actor=south, rules={"preset": "standard"}).table_id)
        for seat, user in {**others, "south": south}.items():
            commands.take_seat(table_id, actor=user, seat=seat)
        commands.start_game(table_id, actor=south, first_dealer="south")
        for seat in (*ORDER, "south"):
            user = others.get(seat, south)
            commands.place_bid(table_id, actor=user, seat=seat, bid=3)
        line = south_wins_first_trick(table_id)
        if line is not None:
            return table_id, others, line[0], line[1]
    raise AssertionError("no deal in 20 where south can win the first trick")


def test_a_tap_during_the_pause_after_a_trick_is_not_played(page: Any, orm: None) -> None:
    from games.services import commands

    page.clock.install()
    username = sign_up(page)
    table_id, others, firsts, winning = four_human_table(username)
    continue_table(page, table_id)
    for seat, card in zip(ORDER, firsts, strict=True):
        commands.play_card(table_id, actor=others[seat], seat=seat, card=card)

    section = page.locator("#table-section")
    expect(page.locator("#status-line")).to_contain_text("play a card")
    expect(page.locator(".trick-slot .card")).to_have_count(3)
    expect(section).to_have_attribute("data-presenting", "false")
    shown = int(section.get_attribute("data-version"))

    plays: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda request: plays.append(json.loads(request.post_data or "{}"))
        if request.method == "POST" and request.url.endswith("/play")
        else None,
    )

    # Hold the page's timers: the finished trick stays on screen until the clock resumes.
    page.clock.pause_at(page.evaluate("Date.now()") + 50)
    with page.expect_response(lambda r: r.url.endswith("/play")) as answer:
        page.click(f'.hand button.card[data-card="{winning}"]')
    assert answer.value.ok
    assert plays == [{"seat": "south", "card": winning, "expected_version": shown}]

    expect(page.locator("#trick")).to_have_class("trick finished")
    expect(page.locator("#trick-caption")).to_have_text("You win the trick")
    expect(section).to_have_attribute("data-presenting", "true")

    # South leads the next trick, but the screen still shows the last one: a tap is refused.
    page.locator(".hand .card.playable").first.click()
    expect(page.locator("#move-message")).to_contain_text("catching up")
    assert len(plays) == 1, f"a tap during the pause was sent: {plays[1:]}"
    after_trick = int(answer.value.json()["table"]["version"])
    assert stream_version(table_id) == after_trick, "something was appended after the trick"

    page.clock.resume()
    expect(section).to_have_attribute("data-presenting", "false")
    expect(page.locator("#move-message")).to_have_text("")
    expect(page.locator(".trick-slot .card")).to_have_count(0)
    lead = page.locator(".hand .card.playable").first
    card = lead.get_attribute("data-card")
    with page.expect_response(lambda r: r.url.endswith("/play")) as second:
        lead.click()
    assert second.value.ok
    assert plays[1]["expected_version"] == after_trick
    expect(page.locator(".trick-slot .card")).to_have_count(1)
    expect(page.locator(f'.trick-slot .card[data-card="{card}"]')).to_be_visible()
