"""The live links into a competition, for whom they belong to: its invitation link for
its organisers, a partner link for the player who came in by the invitation link. The
secret rides in the link's fragment (``#link=``, ``#partner=``), which browsers never
send, so no server or proxy log holds it; the landing page reads it and posts it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from leagues.core.errors import LeagueError
from leagues.domain.decisions import require_organiser, secret_matches
from leagues.models import EntryLinkSecret
from leagues.services.streams import load, parse_id, user_id_of

from .competitions import state_of


def join_path(competition_id: str) -> str:
    return f"/competitions/{competition_id}/join/"


def entry_path(competition_id: str, secret: str) -> str:
    return f"{join_path(competition_id)}#link={secret}"


def partner_path(competition_id: str, partnership_id: str, secret: str) -> str:
    query = urlencode({"partner": partnership_id})
    return f"{join_path(competition_id)}?{query}#partner={secret}"


def entry_link(user: Any, competition_id: object) -> dict[str, Any]:
    """The live invitation link (null when none), for an organiser (403 otherwise)."""
    state = state_of(competition_id)
    require_organiser(state, user_id_of(user))
    cid = state.competition_id
    live = state.entry_link
    secret = (
        EntryLinkSecret.objects.filter(competition_id=cid, link_id=live[0])
        .values_list("secret", flat=True)
        .first()
        if live is not None
        else None
    )
    return {
        "link": None if secret is None else {"secret": secret, "path": entry_path(cid, secret)},
        "waiting": len(state.open_partnerships),
    }


def partner_link(user: Any, competition_id: object) -> dict[str, Any]:
    """The signed-in player's place in the competition: their partner link while they
    wait for a partner, else the entrant they are in (both null: not in it)."""
    user_id = user_id_of(user)
    if user_id is None:
        raise LeagueError("not_signed_in", "Sign in first.")
    state = state_of(competition_id)
    cid, player = state.competition_id, str(user_id)
    waiting = state.partnership_of(player)
    secret = (
        EntryLinkSecret.objects.filter(competition_id=cid, link_id=waiting.id, player=player)
        .values_list("secret", flat=True)
        .first()
        if waiting is not None
        else None
    )
    return {
        "partnership_id": None if waiting is None else waiting.id,
        "partner_link": None
        if waiting is None or secret is None
        else {"secret": secret, "path": partner_path(cid, waiting.id, secret)},
        "entrant_id": state.entrant_of_player(player),
    }


def link_is_open(competition_id: object, secret: object, partnership: object = None) -> bool:
    """Whether ``secret`` is the live invitation link of a competition taking entrants
    (or, with ``partnership``, that partnership's partner link): a sign-up that brings it
    counts on the invited sign-up limit. Anything malformed or unknown is not open."""
    if partnership is not None and not (isinstance(partnership, str) and len(partnership) <= 64):
        return False
    try:
        state = load(parse_id(competition_id))
    except LeagueError:
        return False
    if not state.exists or state.rounds or state.finished:
        return False
    if partnership is None:
        return state.entry_link is not None and secret_matches(state.entry_link[1], secret)
    opened = state.open_partnerships.get(partnership)
    return opened is not None and secret_matches(opened.digest, secret)
