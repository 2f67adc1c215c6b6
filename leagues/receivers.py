"""Signal receivers of the leagues app (connected in ``LeaguesConfig.ready``).

``on_seated_player_connected``: a seated player opened a table's live connection before
its game started (``games.live.presence``, with the table's owner tag); at a
competition's table that is the player arriving
(``leagues.services.presence.arrive_at_owned_table``), whichever way they came.
"""

from __future__ import annotations

import logging
from typing import Any

from leagues.core.errors import LeagueError
from leagues.services.presence import arrive_at_owned_table

logger = logging.getLogger(__name__)


def on_seated_player_connected(
    sender: Any, *, table_id: str, user: Any, owner: object = None, **_: Any
) -> bool:
    """True when the table is a competition's (the arrival recorded, or refused)."""
    try:
        return arrive_at_owned_table(user, owner) is not None
    except LeagueError as error:
        # E.g. the grace time is over: the player was recorded as a no-show, and a bot
        # (or a forfeit) has their seat. Their table shows them what happened.
        logger.info("arrival at table %s not recorded: %s", table_id, error)
        return True
