"""Staff see no live deck in /admin/ (issue 12, item 6).

The event admin shows each payload through the redactor the games app registers with the
event store (the one visibility filter, as a spectator sees it): a hand in progress shows
no deck, no passed cards and no nonce; once the hand is over they are shown.
"""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from django.test import Client

from eventstore.reading import read_stream
from games.domain import events as ev
from games.domain.streams import table_stream_id
from tests.factories import AdminFactory
from tests.integration.tables.blind_nil import (
    blind_nil_table,
    hand_one_over,
    passes_exchanged,
    play_until,
)

pytestmark = pytest.mark.django_db


def staff_client() -> Client:
    client = Client()
    client.force_login(AdminFactory())
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return html.unescape(response.content.decode())


def hidden_texts(table_id: str) -> dict[int, list[str]]:
    """Per event position, the hidden values of hand 1 as they would be printed."""
    hidden: dict[int, list[str]] = {}
    for event in read_stream(table_stream_id(table_id)):
        if event.type in ev.HIDDEN_FIELDS and event.data["hand_number"] == 1:
            cards = event.data.get("deck") or event.data["cards"]
            hidden[event.position] = [json.dumps(cards), event.data["nonce"]]
    return hidden


def test_the_event_admin_hides_a_hand_in_progress_and_shows_it_once_over(
    users: dict[int, Any],
) -> None:
    client = staff_client()
    table_id = blind_nil_table(users)
    play_until(table_id, users, passes_exchanged)
    hidden = hidden_texts(table_id)
    assert len(hidden) == 5  # the deal and four passes

    listing = page(client, f"/admin/eventstore/event/?q={table_stream_id(table_id)}")
    for position, texts in hidden.items():
        shown = page(client, f"/admin/eventstore/event/{position}/change/")
        assert '"hand_number": 1' in shown  # the payload is on the page...
        for text in texts:  # ...without its hidden fields
            assert text not in shown, (position, text)
            assert text not in listing

    play_until(table_id, users, hand_one_over)
    for position, texts in hidden.items():
        shown = page(client, f"/admin/eventstore/event/{position}/change/")
        for text in texts:
            assert text in shown, (position, text)
