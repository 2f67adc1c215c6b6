"""A tap while the page still shows a finished trick never plays into the next trick.

The table has four human seats: the browser plays south, the test plays the other three
through the services, so it can arrange a first trick that south completes and wins (south
then leads the next trick). Playwright's clock holds the page's pause after that trick, so
the tap lands while the finished trick is on screen, whatever the machine's load.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import PlayCard, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import (
    ORDER,
    continue_table,
    four_human_table,
    hold_clock,
    sign_up,
    stream_version,
)


@BOTH_SCREENS
def test_a_tap_during_the_pause_after_a_trick_is_not_played(page: Any, orm: None) -> None:
    page.clock.install()
    username = sign_up(page)
    table_id, others, firsts, winning = four_human_table(username)
    continue_table(page, table_id)
    for seat, card in zip(ORDER, firsts, strict=True):
        execute(PlayCard(table_id, seat, card), others[seat])

    section = page.locator("#table-section")
    expect(page.locator("#status-line")).to_contain_text("play a card")
    expect(page.locator(".trick-slot .card")).to_have_count(3)
    expect(section).to_have_attribute("data-presenting", "false")
    shown = int(section.get_attribute("data-version"))

    plays: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda request: (
            plays.append(json.loads(request.post_data or "{}"))
            if request.method == "POST" and request.url.endswith("/play")
            else None
        ),
    )

    # Hold the page's timers: the finished trick stays on screen until the clock resumes.
    hold_clock(page)
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
