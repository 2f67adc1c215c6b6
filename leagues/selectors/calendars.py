"""Round starts as iCalendar (RFC 5545) files: one competition's, or every competition a
player is in (entered, or invited and not declined).

A round is one ``VEVENT`` whose ``UID`` is the competition and the round number, so when a
start time moves, a calendar that subscribed replaces the event instead of adding one; its
``SEQUENCE`` is the competition's stream version, which only grows. Rounds without a start
time (the organiser starts them by hand) are left out: a calendar has nothing to show.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event

from leagues.domain import schedule
from leagues.domain.state import CompetitionState
from leagues.models import Competition
from leagues.services.streams import load

from .competitions import state_of

PRODUCT = "-//Spades platform//Round starts//EN"
UID_DOMAIN = "rounds.spades"
# A calendar event needs an end; how long a round lasts is not known in advance, so the
# event shows the hour from its start.
ROUND_EVENT_DURATION = timedelta(hours=1)
# A player's calendar reads this many of the unfinished competitions changed most
# recently (each is folded from its stream), like the next-matches list.
MAX_CALENDAR_COMPETITIONS = 50


def round_uid(competition_id: str, number: int) -> str:
    """The event's identity, the same in every calendar and every download."""
    return f"competition-{competition_id}-round-{number}@{UID_DOMAIN}"


def _page_path(competition_id: str) -> str:
    return f"/competitions/{competition_id}/"


def _round_events(state: CompetitionState, base_url: str, stamp: datetime) -> Iterable[Event]:
    settings = state.settings
    if settings is None:
        return
    name = settings.name or "Competition"
    for number in range(1, len(settings.round_starts) + 1):
        start = schedule.round_start(state, number)
        if start is None:
            continue
        event = Event()
        event.add("uid", round_uid(state.competition_id, number))
        event.add("dtstamp", stamp)
        event.add("sequence", state.version)
        event.add("dtstart", start.astimezone(UTC))
        event.add("dtend", start.astimezone(UTC) + ROUND_EVENT_DURATION)
        event.add("summary", f"{name}: round {number}")
        event.add("url", f"{base_url}{_page_path(state.competition_id)}")
        event.add(
            "description",
            f"Round {number} of {name} starts. Your table is on the competition's page.",
        )
        yield event


def _calendar(title: str, states: Iterable[CompetitionState], base_url: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", title)
    stamp = datetime.now(UTC).replace(microsecond=0)
    for state in states:
        for event in _round_events(state, base_url, stamp):
            calendar.add_component(event)
    return bytes(calendar.to_ical())


def competition_calendar(competition_id: object, base_url: str) -> tuple[str, bytes]:
    """(file name, iCalendar bytes): the competition's round starts. ``base_url`` is the
    site's origin, for each event's link to the competition page."""
    state = state_of(competition_id)
    name = (state.settings.name if state.settings else "") or "Competition"
    return f"competition-{state.competition_id}.ics", _calendar(name, [state], base_url)


def player_competitions(player: str) -> list[CompetitionState]:
    """The unfinished competitions the player is in (the most recently changed first)."""
    rows = Competition.objects.exclude(status="finished").order_by("-updated_at", "id")
    states = []
    for row in rows[:MAX_CALENDAR_COMPETITIONS]:
        state = load(row.id)
        if state.exists and state.entrant_of_player(player) is not None:
            states.append(state)
    return states


def player_calendar(player: str, base_url: str) -> bytes:
    """The round starts of every unfinished competition the player is in."""
    return _calendar("My Spades rounds", player_competitions(player), base_url)
