"""What bots read (selectors: they write nothing): whether a bot is due at a table, which
bots are overdue, and the bid suggestion shown on a human's bidding turn."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.db import connection
from django.db.models import Min, Q
from django.utils import timezone

from bots.suggestion import suggest_bid
from games.engine.bidding import bid_label
from games.engine.cards import card_name
from games.engine.hand import BIDDING
from games.engine.seats import SEAT_NAMES
from games.engine.view import seat_view
from games.live.tables import BOT, PASSING, PLAYING
from games.models import Table
from games.selectors.visibility import viewer_seat
from games.services.errors import CommandRejected
from games.services.table_state import reading_state


def bot_is_due(kind: str | None, acting_seats: list[int], seats: list[dict[str, Any]]) -> bool:
    """Whether a bot plays one of the seats the table waits for (the read model lists the
    first one's controller; several seats act while blind nil cards are passed)."""
    if kind == BOT:
        return True
    if len(acting_seats) < 2:
        return False
    return any(
        0 <= seat < len(seats) and seats[seat].get("controller") == BOT for seat in acting_seats
    )


BOT_DUE_SQL = """
SELECT version, seat_to_act_kind, phase, acting_seats, seats
  FROM games_table WHERE id = %s AND status = 'playing'
"""


def bot_due_version(table_id: object) -> int | None:
    """The read model's version if a seat to act is played by a bot, else None.

    Runs after commits whose appender did not say (``bot_to_act``), so it is one plain
    indexed SELECT (no ORM compilation) and decodes the seats only while cards are passed.
    """
    with connection.cursor() as cursor:
        cursor.execute(BOT_DUE_SQL, [str(table_id)])
        row = cursor.fetchone()
    if row is None:
        return None
    version, kind, phase, acting, seats = row
    if kind != BOT and phase != PASSING:
        return None
    acting_seats = json.loads(acting) if isinstance(acting, str) else acting or []
    seat_rows = json.loads(seats) if isinstance(seats, str) else seats or []
    if not bot_is_due(kind, acting_seats, seat_rows):
        return None
    return int(version)


def overdue_bot_tables(overdue_seconds: float) -> list[tuple[str, int]]:
    """(table id, version) of every table in play whose bot has been due (the read model's
    ``due_since``) for at least ``overdue_seconds``."""
    cutoff = timezone.now() - dt.timedelta(seconds=overdue_seconds)
    rows = (
        Table.objects.filter(status=PLAYING, due_since__lte=cutoff)
        .filter(Q(seat_to_act_kind=BOT) | Q(phase=PASSING))
        .values_list("pk", "version", "seat_to_act_kind", "acting_seats", "seats")
    )
    return [
        (str(pk), int(version))
        for pk, version, kind, acting, seats in rows
        if bot_is_due(kind, acting or [], seats or [])
    ]


def bid_suggestion(table_id: object, viewer: Any) -> dict[str, Any]:
    """``{"version", "seat", "bid", "counted", "marks", "reason"}`` for the viewer's own
    bidding turn (``bots.suggestion``: the cards to mark, what they are, the reason).

    ``games.selectors.visibility.table_view`` carries no suggestion, so the client asks
    for it (``bots.api``). It is computed from the viewer's own ``SeatView`` only (the
    same view bots decide from), so it cannot leak anyone else's cards.

    Refusals (``CommandRejected``): 404 no such table, 403 the viewer has no seat, 409 it
    is not the viewer's turn to bid or they have not looked at their cards yet.
    """
    with reading_state(table_id) as state:
        seat = viewer_seat(state, viewer)
        if seat is None:
            raise CommandRejected("not_seated", "You have no seat at this table.", 403)
        hand = state.hand
        if hand is None or hand.phase != BIDDING or hand.turn != seat:
            raise CommandRejected("not_your_bid", "It is not your turn to bid.", 409)
        view = seat_view(hand, seat, state.team_totals(), state.team_bags())
        if not view.looked:
            raise CommandRejected(
                "not_looked", "Look at your cards first: the suggestion counts them.", 409
            )
        suggestion = suggest_bid(view)
        return {
            "version": state.version,
            "seat": SEAT_NAMES[seat],
            "bid": bid_label(suggestion.bid, False),
            "counted": [card_name(card) for card in suggestion.counted],
            "marks": suggestion.marks,
            "reason": suggestion.reason,
        }


def next_bot_overdue(overdue_seconds: float) -> dt.datetime | None:
    """When the earliest bot now due (as :func:`overdue_bot_tables` counts them) becomes
    overdue, or None when no bot is due (the watchdog's next due time)."""
    waiting = Table.objects.filter(status=PLAYING, due_since__isnull=False)
    # A bot first to act: the earliest in SQL (one row, however many bots play).
    first = waiting.filter(seat_to_act_kind=BOT).aggregate(earliest=Min("due_since"))
    due = [first["earliest"]] if first["earliest"] is not None else []
    # Cards passed by several seats at once: a bot may be among them (few rows).
    passing = (
        waiting.filter(phase=PASSING)
        .exclude(seat_to_act_kind=BOT)
        .values_list("due_since", "seat_to_act_kind", "acting_seats", "seats")
    )
    due += [
        since
        for since, kind, acting, seats in passing
        if bot_is_due(kind, acting or [], seats or [])
    ]
    return min(due) + dt.timedelta(seconds=overdue_seconds) if due else None
