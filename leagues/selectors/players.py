"""Players as competitions name them: user ids as text, shown by username.

Competitions store user ids (text) so that a renamed account stays the same player; the
API answers with usernames beside them and accepts usernames where an organiser types
them. The one place leagues reads the accounts' user table. Every player an entrant names
is checked to be a user before anything is written (:func:`users_of`): the tables of a
round seat those users, so an id that is no user is refused at the request that names
it, not later when a round's tables are half created.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model

from leagues.core.errors import LeagueError

MAX_USERNAME = 150  # Django's username length


def usernames_of(player_ids: Iterable[str | None]) -> dict[str, str]:
    """player id -> username, for the ids that name an account (others are left out)."""
    numeric = sorted({int(p) for p in player_ids if p and p.isascii() and p.isdigit()})
    rows = get_user_model().objects.filter(pk__in=numeric).values_list("pk", "username")
    return {str(pk): name for pk, name in rows}


def ids_of(usernames: object, *, field: str = "usernames", count: int = 2) -> list[str]:
    """The player ids of ``count`` usernames, in their order; refuses a malformed list
    (``invalid``) and a username with no account (``unknown_player``)."""
    if (
        not isinstance(usernames, list)
        or len(usernames) != count
        or not all(isinstance(u, str) and 0 < len(u.strip()) <= MAX_USERNAME for u in usernames)
    ):
        raise LeagueError(
            "invalid", f"{field} is a list of {count} usernames of 1 to {MAX_USERNAME} characters."
        )
    names = [u.strip() for u in usernames]
    found = dict(get_user_model().objects.filter(username__in=names).values_list("username", "pk"))
    for name in names:
        if name not in found:
            raise LeagueError("unknown_player", f"There is no player called {name!r}.")
    return [str(found[name]) for name in names]


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


def check_entrant_players(players: Iterable[str], reserve: str | None) -> None:
    """The players and reserve an entrant names are users (see :func:`users_of`)."""
    users_of([*players, *([reserve] if reserve is not None else [])])
