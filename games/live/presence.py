"""A player seated at a table opened its live connection while the game waits to start.

The table socket (``games.consumers``) sends ``seated_player_connected`` (``table_id``,
``user``) when a signed-in viewer who holds a seat connects, or reconnects, to a table
still in the lobby: however the page was opened (a link, a bookmark, "My games", a
reconnect), the socket is the one sign that the player is at the table. Games import no
leagues: a competition hears of it through this signal (``leagues.receivers``: the player
has arrived). A started or finished table, or a spectator, sends nothing, so such
connections pay nothing for it.

Until a receiver takes it, the announcement is repeated at the socket's periodic resync,
at most :data:`REPEATS` times: a competition seats its players a moment before it stores
which of its tables the round's are, and a player who connected in between is checked in
at the next resync instead of never.
"""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import Signal

from games.domain.table import LOBBY

logger = logging.getLogger(__name__)

seated_player_connected = Signal()

#: How many resyncs repeat an announcement no receiver took (a table that is no
#: competition's pays one indexed read each, then nothing).
REPEATS = 12


def is_seated_in_lobby(view: dict[str, Any]) -> bool:
    """Whether ``view`` (a viewer's table view) is a seated player's at a table whose game
    has not started."""
    return view.get("your_seat") is not None and view.get("status") == LOBBY


def announce_seated_player(table_id: str, user: Any) -> bool:
    """Tell the receivers; whether one of them took the announcement (answered True: the
    table is theirs, e.g. a competition's). One that fails is logged and never fails the
    connection (the player can still check in from the competition's page)."""
    outcomes = seated_player_connected.send_robust(sender=None, table_id=table_id, user=user)
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
