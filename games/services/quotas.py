"""How many tables one user may keep open (``settings.SPADES_MAX_*_TABLES_PER_USER``).

An open table is one in the lobby or being played; an all-bot table has four bot seats
and, once started, writes events as fast as its bots move, so it has a smaller quota of
its own.  Abandoned and finished tables do not count.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection

from games.domain.table import BOT, LOBBY, PLAYING_STATUS, TableState
from games.models import Table

from .errors import CommandRejected

# The first key of the advisory lock that makes one user's creations take turns.
_QUOTA_LOCK = 0x5EA7


def is_all_bots(seats: list[dict[str, object]] | None) -> bool:
    """Whether a read model's seat list has a bot at every seat."""
    return bool(seats) and all(seat.get("kind") == BOT for seat in seats or ())


def check_table_quota(user_id: int, new_table: TableState) -> None:
    """Refuse (429) a new table ``user_id`` may not open now.

    Call inside the creating transaction: the lock held until it ends makes two
    concurrent creations by one user count each other.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_QUOTA_LOCK, user_id])
    open_seats = list(
        Table.objects.filter(created_by_id=user_id, status__in=(LOBBY, PLAYING_STATUS)).values_list(
            "seats", flat=True
        )
    )
    most = settings.SPADES_MAX_OPEN_TABLES_PER_USER
    if len(open_seats) >= most:
        raise CommandRejected(
            "too_many_open_tables",
            f"You have {len(open_seats)} open tables, the most one player may have "
            f"({most}); finish or abandon one first.",
            429,
        )
    if all(kind == BOT for kind in new_table.seat_kinds):
        most_bots = settings.SPADES_MAX_BOT_TABLES_PER_USER
        bot_tables = sum(1 for seats in open_seats if is_all_bots(seats))
        if bot_tables >= most_bots:
            raise CommandRejected(
                "too_many_bot_tables",
                f"You have {bot_tables} open tables of four bots, the most one player may "
                f"have ({most_bots}); abandon one first.",
                429,
            )
