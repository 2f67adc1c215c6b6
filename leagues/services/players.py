"""Players of a competition are users of the platform: checked before anything is written.

An entrant's players (and reserve, and a substitute coming in) are user ids as text
(``"42"``); the tables of a round seat those users, so an id that is no user is refused
at the request that names it, not later when a round's tables are half created.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model

from leagues.core.errors import LeagueError

MAX_USER_ID = 2**63 - 1


def _pk(player: object) -> int | None:
    if not isinstance(player, str) or not player.isascii() or not player.isdecimal():
        return None
    number = int(player)
    return number if 0 < number <= MAX_USER_ID else None


def users_of(players: Iterable[object]) -> dict[str, Any]:
    """Player id -> user, every one of them; ``unknown_player`` names the first that is
    not a user (values that are not texts are left for the decision's own message)."""
    wanted = [p for p in players if isinstance(p, str)]
    keys = {p: _pk(p) for p in wanted}
    found = get_user_model().objects.in_bulk([k for k in keys.values() if k is not None])
    users: dict[str, Any] = {}
    for player, key in keys.items():
        user = found.get(key) if key is not None else None
        if user is None:
            raise LeagueError(
                "unknown_player", f"Player {player!r} is not a user of this platform."
            )
        users[player] = user
    return users


def check_entrant_players(entrant: dict[str, Any]) -> None:
    """The players and reserve of an entrant request are users (see :func:`users_of`)."""
    players = entrant.get("players")
    named = list(players) if isinstance(players, list | tuple) else []
    if entrant.get("reserve") is not None:
        named.append(entrant["reserve"])
    users_of(named)
