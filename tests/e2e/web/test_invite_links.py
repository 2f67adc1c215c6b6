"""A seat kept for a friend, in Chromium: the host's link carries the seat's secret in its
fragment; a stranger with the plain link is refused; the host revokes the link and issues a
new one; the friend signs up through the new link and sits down. axe-core on each screen."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.models import SeatInvitation
from tests.e2e.web.conftest import BOTH_SCREENS
from tests.e2e.web.steps import assert_plain_words, axe_violations, shot, sign_up


def seat_item(page: Any, seat: str) -> Any:
    return page.locator(f'#seat-invites li[data-seat="{seat}"]')


@BOTH_SCREENS
def test_a_friend_joins_by_the_link_of_a_kept_seat(
    page: Any, browser: Any, server_url: str, viewport: dict[str, int], orm: None
) -> None:
    size = f"{viewport['width']}x{viewport['height']}"
    sign_up(page)
    page.check('input[name="company"][value="friends"]')
    page.select_option("#seat-north", "invited")
    page.select_option("#seat-east", "easy")
    page.select_option("#seat-west", "easy")
    page.click("#start-game")
    expect(page.locator("#lobby-panel")).to_be_visible()
    table_id = page.evaluate("JSON.parse(localStorage.getItem('spades.table')).id")
    north = seat_item(page, "north")
    expect(north.locator(".invite-link")).to_have_value(
        f"{server_url}/?join={table_id}&seat=north#invite={secret(table_id)}"
    )
    first_link = north.locator(".invite-link").input_value()
    shot(page, f"invite-host-panel-{size}")
    assert axe_violations(page) == []
    assert_plain_words(page)

    stranger_context = browser.new_context(base_url=server_url, viewport=viewport)
    friend_context = browser.new_context(base_url=server_url, viewport=viewport)
    try:
        # Nobody else sees a free seat at the table, and the plain link does not seat.
        stranger = stranger_context.new_page()
        sign_up(stranger)
        expect(stranger.locator(f'#open-tables .game-item[data-table="{table_id}"]')).to_have_count(
            0
        )
        stranger.goto(f"/?join={table_id}&seat=north")
        expect(stranger.locator("#setup-error")).to_contain_text("kept for an invited friend")

        # The host revokes the link: it no longer seats; a new one does.
        north.get_by_role("button", name="Revoke link").click()
        expect(north).to_contain_text("link revoked")
        expect(north.locator(".invite-link")).to_have_count(0)
        stranger.goto(first_link.replace(server_url, ""))
        expect(stranger.locator("#setup-error")).to_contain_text("kept for an invited friend")
        north.get_by_role("button", name="New link").click()
        expect(north.locator(".invite-link")).to_have_count(1)
        new_link = north.locator(".invite-link").input_value()
        assert new_link != first_link
        assert new_link == f"{server_url}/?join={table_id}&seat=north#invite={secret(table_id)}"

        friend = friend_context.new_page()
        friend.goto(new_link.replace(server_url, ""))
        expect(friend.locator("#auth-heading")).to_contain_text("sit North")
        # The secret leaves the address bar at once (no history entry, no shared screen).
        assert "invite=" not in friend.url
        assert axe_violations(friend) == []
        sign_up(friend, goto=False, lobby=False)
        expect(friend.locator("#table-section")).to_be_visible()
        expect(friend.locator('.seat[data-seat="north"] .seat-name')).to_contain_text("You")
        shot(friend, f"invite-friend-seated-{size}")
        assert axe_violations(friend) == []

        # The host's panel hears the friend sit down; the game can start.
        expect(page.locator("#start-table")).to_be_enabled()
    finally:
        stranger_context.close()
        friend_context.close()


def secret(table_id: str) -> str:
    return str(SeatInvitation.objects.get(table_id=table_id, seat=0).secret)
