"""Round starts as iCalendar files (issue 19, point 5): per competition (public), per
player (with the API token, or a secret address that can be revoked). Parsed back with
icalendar."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from icalendar import Calendar
from rest_framework.test import APIClient

from leagues.models import CalendarFeed
from leagues.selectors.calendars import round_uid

from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db

FIRST = datetime(2031, 5, 3, 18, 0, tzinfo=UTC)
SECOND = datetime(2031, 5, 10, 18, 30, tzinfo=UTC)


def parsed(response: Any) -> Calendar:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def rounds_of(calendar: Calendar) -> dict[str, Any]:
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def test_a_competitions_calendar_is_public_with_one_event_per_timed_round(swiss: Any) -> None:
    cid = swiss(2, rounds=3, round_starts=[FIRST.isoformat(), SECOND.isoformat()])

    first = parsed(APIClient().get(f"/api/competitions/{cid}/calendar.ics"))
    again = parsed(
        APIClient().get(f"/api/competitions/{cid}/calendar.ics", HTTP_ACCEPT="text/calendar")
    )

    events = rounds_of(first)
    # Round 3 has no start time (the organiser starts it): nothing to show.
    assert set(events) == {round_uid(cid, 1), round_uid(cid, 2)}
    assert events[round_uid(cid, 1)].decoded("DTSTART") == FIRST
    assert events[round_uid(cid, 2)].decoded("DTSTART") == SECOND
    assert str(events[round_uid(cid, 2)]["SUMMARY"]) == "Club Swiss: round 2"
    assert str(events[round_uid(cid, 1)]["URL"]).endswith(f"/competitions/{cid}/")
    # The same UIDs every time, so a subscribed calendar replaces rather than adds.
    assert set(rounds_of(again)) == set(events)
    assert str(first["VERSION"]) == "2.0" and first["PRODID"]


def test_an_unknown_competitions_calendar_is_404() -> None:
    answer = APIClient().get(f"/api/competitions/{'0' * 8}-0000-0000-0000-{'0' * 12}/calendar.ics")
    assert answer.status_code == 404
    assert answer.json()["code"] == "unknown_competition"


def test_a_players_calendar_has_the_rounds_of_their_competitions_only(
    swiss: Any, players: Any
) -> None:
    mine = swiss(2, rounds=1, round_starts=[FIRST.isoformat()])
    other = swiss(2, rounds=1, round_starts=[SECOND.isoformat()])
    # swiss() made player0..player3 for the first competition, player4..7 for the second.
    me = get_user_model().objects.get(username="player0")

    events = rounds_of(parsed(client_for(me).get("/api/players/me/calendar.ics")))

    assert set(events) == {round_uid(mine, 1)}
    assert round_uid(other, 1) not in events
    assert APIClient().get("/api/players/me/calendar.ics").status_code == 401


def test_a_secret_calendar_address_works_without_a_token_until_revoked(swiss: Any) -> None:
    cid = swiss(2, rounds=1, round_starts=[FIRST.isoformat()])
    me = client_for(get_user_model().objects.get(username="player1"))
    assert me.get("/api/players/me/calendar-feed").json() == {"active": False}

    issued = me.post("/api/players/me/calendar-feed")
    assert issued.status_code == 201 and issued["Cache-Control"] == "no-store"
    secret, path = issued.json()["secret"], issued.json()["path"]
    assert path == f"/api/calendar.ics?key={secret}"
    # Only the digest is kept.
    stored = CalendarFeed.objects.get()
    assert secret not in stored.digest and len(stored.digest) == 64

    assert set(rounds_of(parsed(APIClient().get(path)))) == {round_uid(cid, 1)}
    assert me.get("/api/players/me/calendar-feed").json() == {"active": True}

    # Issuing again replaces the address; revoking ends it.
    second = me.post("/api/players/me/calendar-feed").json()["path"]
    assert APIClient().get(path).status_code == 404
    assert APIClient().get(second).status_code == 200
    assert me.delete("/api/players/me/calendar-feed").status_code == 204
    gone = APIClient().get(second)
    assert gone.status_code == 404 and gone.json()["code"] == "unknown_calendar"
    assert APIClient().post("/api/players/me/calendar-feed").status_code == 401


class Messages(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_the_access_log_never_holds_a_calendar_secret(swiss: Any) -> None:
    swiss(2, rounds=1, round_starts=[FIRST.isoformat()])
    me = client_for(get_user_model().objects.get(username="player1"))
    issued = me.post("/api/players/me/calendar-feed").json()
    handler = Messages()
    access = logging.getLogger("spades.access")
    access.addHandler(handler)
    try:
        assert APIClient().get(issued["path"]).status_code == 200
    finally:
        access.removeHandler(handler)
    [line] = handler.messages
    assert "/api/calendar.ics 200" in line and issued["secret"] not in line


@pytest.mark.parametrize("secret", ["x", "x" * 500, "%00", "..%2F..%2Fetc"])
def test_hostile_calendar_addresses_are_404(secret: str) -> None:
    assert APIClient().get("/api/calendar.ics", {"key": secret}).status_code == 404
