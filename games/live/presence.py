"""A player seated at a table opened its live connection while the game waits to start.

The table socket (``games.consumers``) sends ``seated_player_connected`` (``table_id``,
``user``, ``owner``) when a signed-in viewer who holds a seat connects, or reconnects, to
a table still in the lobby that has an owner tag (``TableCreated`` v3: whatever created
the table for itself, e.g. a competition's round): however the page was opened (a link, a
bookmark, "My games", a reconnect), the socket is the one sign that the player is at the
table. Games import no leagues and never read the tag: a competition hears of it through
this signal (``leagues.receivers``: the player has arrived) and reads its own tag. A table
without an owner, a started or finished table, or a spectator, sends nothing, so such
connections pay nothing for it (no lookup either).

The announcement is sent once a connection: an owner records its tables before it creates
them (``leagues.services.tables``), so the tag is always known to it when a player can be
seated.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import Signal

from games.domain.table import LOBBY

logger = logging.getLogger(__name__)

seated_player_connected = Signal()


def is_seated_in_lobby(view: dict[str, Any]) -> bool:
    """Whether ``view`` (a viewer's table view) is a seated player's at a table with an
    owner whose game has not started."""
    return (
        view.get("your_seat") is not None
        and view.get("status") == LOBBY
        and view.get("owner") is not None
    )


def announce_seated_player(table_id: str, user: Any, owner: dict[str, Any]) -> bool:
    """Tell the receivers, with the table's owner tag; whether one of them took the
    announcement (answered True: the tag is theirs). One that fails is logged and never
    fails the connection (the player can still check in from the competition's page)."""
    outcomes = seated_player_connected.send_robust(
        sender=None, table_id=table_id, user=user, owner=owner
    )
    taken = False
    for receiver, outcome in outcomes:
        if isinstance(outcome, Exception):
            logger.error(
                "seated_player_connected receiver %r failed for table %s",
                receiver,
                table_id,
                exc_info=outcome,
            )
        elif outcome is True:
            taken = True
    return taken
