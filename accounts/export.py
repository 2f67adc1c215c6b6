"""A person's own data as one JSON document: the account, ratings, competitions and games.

Written out piece by piece (:func:`export_chunks`), so a player with thousands of games
never has the whole document in memory; at most ``SPADES_EXPORT_MAX_TABLES`` tables go in
one download, newest first, and ``tables.next_offset`` says where the next one starts
(``?tables_offset=``). Each game is its game record as the player may see it (the one
export format, ``games.services.export``; docs/formats.md). The format is in docs/api.md
("Your data").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from eventstore.models import Event
from games.models import Table
from games.selectors.visibility import visible_version
from games.services.export import export_table
from leagues.domain import events as ev
from leagues.models import Competition
from leagues.selectors.competitions import pairings, ratings_of_player, state_of

FORMAT = "spades-account-export"
VERSION = 1
# The events that make a player part of an entrant (as a player, reserve or substitute).
ENTRANT_EVENTS = (ev.ENTRANT_REGISTERED, ev.ENTRANT_LATE_JOINED, ev.ENTRANT_SUBSTITUTED)
CHUNK_BYTES = 64 * 1024


def _dump(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat()


def account_data(user: Any) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "date_joined": _iso(user.date_joined),
        "last_login": _iso(user.last_login),
        "is_staff": user.is_staff,
    }


def _competition_ids(player: str) -> list[str]:
    """The competitions whose entrant events name ``player``: read from the competition
    streams' own events (by stream, on the store's index), not from every table's."""
    streams = [
        ev.competition_stream_id(str(cid))
        for cid in Competition.objects.values_list("id", flat=True)
    ]
    named = (
        Event.objects.filter(stream_id__in=streams, type__in=ENTRANT_EVENTS)
        .filter(
            Q(data__players__contains=[player])
            | Q(data__reserve=player)
            | Q(data__player_in=player)
        )
        .values_list("stream_id", flat=True)
        .distinct()
    )
    return sorted(cid for cid in map(ev.competition_id_of, named) if cid is not None)


def competitions_of(player: str) -> Iterator[dict[str, Any]]:
    """The competitions ``player`` (a user id as text) is an entrant of: their entrant and
    every match their entrant was paired in, with its result."""
    for competition_id in _competition_ids(player):
        state = state_of(competition_id)
        entrant_id = state.entrant_of_player(player) if state.exists else None
        if entrant_id is None:
            continue
        invitation = state.invitations.get(entrant_id)
        entrant = invitation.entrant if invitation else state.entrants[entrant_id]
        assert state.settings is not None  # state_of refuses a competition not created
        matches = []
        for paired in pairings(competition_id):
            for match in paired["matches"]:
                if entrant_id in (match.get("north_south"), match.get("east_west")):
                    matches.append({"round": paired["round"], **match})
        yield {
            "competition_id": competition_id,
            # Names as every read shows them (resolved by state_of; "" once erased).
            "name": state.settings.name,
            "finished": state.finished,
            "entrant": {
                "id": entrant.id,
                "name": entrant.name,
                "players": list(entrant.players),
                "reserve": entrant.reserve,
            },
            "matches": matches,
        }


def _tables(user: Any) -> Any:
    return (
        Table.objects.filter(Q(seats__contains=[{"user_id": user.pk}]) | Q(created_by=user.pk))
        .order_by("-created_at", "id")
        .values_list("id", "status", "created_at", "seats")
    )


def table_data(
    user: Any, table_id: Any, status: str, created_at: Any, seats: Any
) -> dict[str, Any]:
    """One game as the player may see it: their seat and its game record."""
    mine = [s["seat"] for s in seats if s.get("user_id") == user.pk]
    return {
        "id": str(table_id),
        "status": status,
        "created_at": _iso(created_at),
        "seats": [mine[0]] if len(mine) == 1 else mine,
        "record": export_table(table_id, up_to=visible_version(table_id, user)),
    }


def export_chunks(user: Any, tables_offset: int = 0) -> Iterator[bytes]:
    """The document, in pieces of about ``CHUNK_BYTES`` (see the module)."""
    limit = settings.SPADES_EXPORT_MAX_TABLES
    tables = _tables(user)
    total = tables.count()
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": account_data(user),
        "ratings": ratings_of_player(str(user.pk)),
        "competitions": list(competitions_of(str(user.pk))),
    }
    page = list(tables[tables_offset : tables_offset + limit])
    next_offset = tables_offset + len(page) if tables_offset + len(page) < total else None
    # The head's members, then "tables" written item by item.
    buffer = bytearray(_dump(head)[:-1])
    summary = {"total": total, "offset": tables_offset, "next_offset": next_offset}
    buffer += b',"tables":' + _dump(summary)[:-1] + b',"items":['
    for index, row in enumerate(page):
        if index:
            buffer += b","
        buffer += _dump(table_data(user, *row))
        if len(buffer) >= CHUNK_BYTES:
            yield bytes(buffer)
            buffer.clear()
    buffer += b"]}}"
    yield bytes(buffer)
