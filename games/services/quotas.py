"""How many tables one user may keep open (``settings.SPADES_MAX_*_TABLES_PER_USER``).

An open table is one in the lobby or being played; an all-bot table has four bot seats
and, once started, writes events as fast as its bots move, so it has a smaller quota of
its own.  Abandoned and finished tables do not count.

The all-bot quota also counts the all-bot tables a user answers for that games did not
create in their name: a competition's tables are created by its director (no
``created_by``) and count against the competition's creator.  games imports none of the
apps that open such tables (import contracts); each connects a counter to
:data:`bot_tables_elsewhere` (leagues in ``LeaguesConfig.ready``) and asks for room with
:func:`check_bot_table_quota` before it creates them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.dispatch import Signal

from games.domain.table import BOT, LOBBY, PLAYING_STATUS, TableState
from games.models import Table

from .errors import CommandRejected

# The first key of the advisory lock that makes one user's creations take turns.
_QUOTA_LOCK = 0x5EA7

#: Sent with ``user_id``; each receiver answers how many open all-bot tables, not created
#: by that user, count against their all-bot quota (a whole number).
bot_tables_elsewhere = Signal()


def is_all_bots(seats: list[dict[str, object]] | None) -> bool:
    """Whether a read model's seat list has a bot at every seat."""
    return bool(seats) and all(seat.get("kind") == BOT for seat in seats or ())


def open_bot_tables(tables: QuerySet[Table]) -> int:
    """How many of ``tables`` are open (lobby or playing) with a bot at every seat."""
    seats = tables.filter(status__in=(LOBBY, PLAYING_STATUS)).values_list("seats", flat=True)
    return sum(1 for table_seats in seats if is_all_bots(table_seats))


def lock_quota(user_id: int) -> None:
    """Make ``user_id``'s table creations take turns until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_QUOTA_LOCK, user_id])


def _bot_tables_of(user_id: int, own: int) -> int:
    elsewhere = bot_tables_elsewhere.send(sender=Table, user_id=user_id)
    return own + sum(int(count) for _, count in elsewhere)


def _refuse_bot_tables(held: int, adding: int, what: str) -> CommandRejected:
    most = settings.SPADES_MAX_BOT_TABLES_PER_USER
    return CommandRejected(
        "too_many_bot_tables",
        f"{what} {adding} table{'s' if adding != 1 else ''} of four bots; with the {held} "
        f"open that you answer for, that is more than one player may have ({most}). "
        "Finish or abandon some first.",
        429,
    )


def check_table_quota(user_id: int, new_table: TableState) -> None:
    """Refuse (429) a new table ``user_id`` may not open now.

    Call inside the creating transaction: the lock held until it ends makes two
    concurrent creations by one user count each other.
    """
    lock_quota(user_id)
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
        held = _bot_tables_of(user_id, sum(1 for seats in open_seats if is_all_bots(seats)))
        if held >= settings.SPADES_MAX_BOT_TABLES_PER_USER:
            raise _refuse_bot_tables(held, 1, "A new table would open")


def check_bot_table_quota(user_id: int, adding: int, what: str = "This would open") -> None:
    """Refuse (429) ``adding`` all-bot tables that ``user_id`` would answer for (e.g. a
    competition round's, before the first is created); ``what`` starts the refusal's
    sentence ("Round 2 opens"). Counts inside a transaction of its own under the user's
    lock, so a concurrent check by the same user waits for this one; tables created
    after it returns count for the next check once they exist."""
    if adding <= 0:
        return
    with transaction.atomic():
        lock_quota(user_id)
        held = _bot_tables_of(user_id, open_bot_tables(Table.objects.filter(created_by_id=user_id)))
    if held + adding > settings.SPADES_MAX_BOT_TABLES_PER_USER:
        raise _refuse_bot_tables(held, adding, what)
