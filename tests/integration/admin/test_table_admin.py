"""The admin's table list: players, status, and links to watch and replay. Read only."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import TableFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_the_table_list_shows_players_status_and_page_links(admin_page: Client) -> None:
    alice = UserFactory(username="alice")
    table = TableFactory(
        creator=alice,
        seats={"east": "bot", "south": "bot", "west": "bot"},
        players={"north": alice},
        started=True,
    )

    TableFactory()  # another table, which the search leaves out
    html = admin_page.get("/admin/games/table/", {"q": str(table.pk)[:8]}).content.decode()

    assert "North: alice" in html
    assert "East: bot (" in html
    assert "playing" in html
    assert f'href="/tables/{table.pk}/watch/"' in html
    assert f'href="/tables/{table.pk}/replay/"' in html
    assert html.count('href="/tables/') == 2  # the search found this table only


def test_tables_cannot_be_changed_from_the_admin(admin_page: Client, staff: Any) -> None:
    table = TableFactory()
    url = f"/admin/games/table/{table.pk}/change/"

    assert admin_page.get(url).status_code == 200
    assert admin_page.post(url, {"status": "finished"}).status_code == 403
    table.refresh_from_db()
    assert table.status == "lobby"
    assert admin_page.get("/admin/games/table/add/").status_code == 403
