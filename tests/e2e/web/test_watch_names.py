"""The spectator's page names the players as the play page does (the same renderer): each
seat shows its player's username, a bot's seat its level, at both screen sizes; and it
shows no hand (nothing hidden reaches a spectator)."""

from __future__ import annotations

import uuid
from typing import Any

from playwright.sync_api import expect

from games.services.table_commands import StartGame, TakeSeat, create_table, execute
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import shot
from tests.factories import UserFactory

HUMANS = ("north", "south", "west")


def table_with_a_bot() -> tuple[str, dict[str, str]]:
    """A started table: three players and an easy bot at East; (table, seat -> name)."""
    users = {
        seat: UserFactory(username=f"watched-{seat}-{uuid.uuid4().hex[:6]}") for seat in HUMANS
    }
    table_id = str(
        create_table(
            actor=users["north"],
            rules={"preset": "standard"},
            seats={"east": {"kind": "bot", "level": "easy"}},
        ).table_id
    )
    for seat, user in users.items():
        execute(TakeSeat(table_id, seat), user)
    execute(StartGame(table_id, first_dealer="east"), users["north"])
    return table_id, {seat: user.username for seat, user in users.items()}


@BOTH_SCREENS
def test_the_watch_page_names_the_players_and_the_bot(
    page: Any, viewport: dict[str, int], orm: None
) -> None:
    table_id, names = table_with_a_bot()
    page.goto(f"/tables/{table_id}/watch/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#hand-number")).to_contain_text("Hand 1")
    for seat, name in names.items():
        role = page.locator(f'.seat[data-seat="{seat}"] .seat-role')
        expect(role).to_have_text(name)
        expect(role).to_be_visible()
    bot = page.locator('.seat[data-seat="east"] .seat-role')
    expect(bot).to_have_text("Easy computer")
    expect(bot).to_be_visible()
    # A spectator is nobody's "You" or "Partner", and sees no hand.
    assert sorted(page.locator(".seat-name").all_inner_texts()) == [
        "East",
        "North",
        "South",
        "West",
    ]
    expect(page.locator(".hand [data-card]")).to_have_count(0)
    shot(page, f"watch-names-{viewport['width']}")
