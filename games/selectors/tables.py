"""The table listing: pages of the read model's rows (public facts only)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.core.paginator import Paginator

from games.models import Table

TABLES_PER_PAGE = 50


@dataclass(frozen=True)
class TablePage:
    """One page of tables, newest first; ``page`` is the page shown (the last one when the
    asked page is past the end)."""

    count: int
    page: int
    pages: int
    tables: list[Table]


def table_page(*, page: int, status: str | None = None, player_id: int | None = None) -> TablePage:
    """Page ``page`` (from 1) of the tables, newest first, only ``status`` ones if given, and
    only those where user ``player_id`` has a seat if given."""
    tables = Table.objects.order_by("-created_at", "id")
    if status:
        tables = tables.filter(status=status)
    if player_id is not None:
        tables = tables.filter(seats__contains=[{"user_id": player_id}])
    paginator = Paginator(tables, TABLES_PER_PAGE, allow_empty_first_page=True)
    number = min(page, paginator.num_pages)
    return TablePage(
        paginator.count, number, paginator.num_pages, list(paginator.page(number).object_list)
    )


def table_exists(table_id: uuid.UUID) -> bool:
    """Whether there is a table ``table_id`` (its read model row)."""
    return Table.objects.filter(pk=table_id).exists()


def tables_waiting_on(user_id: int) -> list[str]:
    """The ids of the tables where user ``user_id`` holds a seat a person must still
    play: at a table not yet started, or one in play that no bot plays for them."""
    waiting = []
    rows = Table.objects.filter(
        status__in=("lobby", "playing"), seats__contains=[{"user_id": user_id}]
    ).values_list("id", "status", "seats")
    for table_id, status, seats in rows:
        mine = [seat for seat in seats if seat.get("user_id") == user_id]
        if status == "lobby" or any(seat.get("controller") == "human" for seat in mine):
            waiting.append(str(table_id))
    return waiting
