"""The invitations of a table's kept seats, for its creator alone.

A seat kept for a friend (``SeatReserved``) is taken only with its invitation secret; the
stream keeps the secret's digest, :class:`games.models.SeatInvitation` the secret itself so
the creator can copy the link again. Nothing else reads those rows: the table's views, its
events, the WebSocket, exports, replays, the lobby and bots show only that a seat is kept.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from games.domain.table import LOBBY, invitation_matches
from games.engine.seats import SEAT_NAMES
from games.models import SeatInvitation
from games.services.errors import CommandRejected
from games.services.table_state import parse_table_id, reading_state

from .visibility import viewer_user_id


def invite_path(table_id: object, seat: int, secret: str) -> str:
    """The page link that seats a friend: the secret rides in the fragment, which browsers
    never send, so it stays out of server and proxy logs; the page posts it."""
    return f"/?{urlencode({'join': str(table_id), 'seat': SEAT_NAMES[seat]})}#invite={secret}"


def seat_invitations(table_id: object, viewer: Any) -> dict[str, Any]:
    """Each kept seat of a table in the lobby: its live invitation (``secret`` and ``path``,
    null once revoked) and whether a friend has sat down. Raises 404 for an unknown table,
    403 for anyone but the table's creator."""
    table_uuid = parse_table_id(table_id)
    with reading_state(table_uuid) as state:
        user_id = viewer_user_id(viewer)
        if user_id is None or state.created_by != user_id:
            raise CommandRejected(
                "not_allowed", "Only the table's creator sees its invitations.", 403
            )
        kept = [seat for seat in range(4) if state.reserved[seat]]
        live = {s: state.invitation_digests[s] is not None for s in kept}
        taken = {s: state.players[s] is not None for s in kept}
        in_lobby = state.status == LOBBY
    secrets_by_seat = (
        dict(
            SeatInvitation.objects.filter(table_id=table_uuid, seat__in=kept).values_list(
                "seat", "secret"
            )
        )
        if in_lobby
        else {}
    )
    rows = []
    for seat in kept if in_lobby else []:
        secret = secrets_by_seat.get(seat) if live[seat] else None
        rows.append(
            {
                "seat": SEAT_NAMES[seat],
                "taken": taken[seat],
                "secret": secret,
                "path": None if secret is None else invite_path(table_uuid, seat, secret),
            }
        )
    return {"table_id": str(table_uuid), "invitations": rows}


def invitation_is_open(table_id: object, seat_name: object, secret: object) -> bool:
    """Whether ``secret`` is the live invitation to the kept seat ``seat_name`` of a table
    still in the lobby, with nobody sat down in it yet (a sign-up that brings it is exempt
    from the plain sign-up limit). Anything malformed or unknown is simply not open."""
    if not isinstance(seat_name, str) or seat_name not in SEAT_NAMES:
        return False
    if not isinstance(secret, str) or not 0 < len(secret) <= 128:
        return False
    try:
        table_uuid = parse_table_id(table_id)
        seat = SEAT_NAMES.index(seat_name)
        with reading_state(table_uuid) as state:
            return (
                state.status == LOBBY
                and state.reserved[seat]
                and state.players[seat] is None
                and invitation_matches(state, seat, secret)
            )
    except CommandRejected:
        return False
