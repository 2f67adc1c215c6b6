"""Importing an organiser's CSV of entrants: every line checked, then all registered in
one append, or none.

Each line is a registration (``EntrantRegistered``) like ``POST .../entrants`` with
usernames: its players (and reserve) are invited and accept for themselves. A line is
refused for the file's own rules (``leagues.domain.entrant_import``), a username with no
account, or anything the competition refuses for that entrant (a player already in it);
every refusal is reported with its line, and nothing is written unless there is none.
The competition's own refusals (not an organiser, registration closed) refuse the file
as a whole, as they would each line.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.functions import Lower
from django.utils import timezone

from leagues.core.errors import LeagueError
from leagues.domain import decisions
from leagues.domain.decisions import EntrantRequest
from leagues.domain.entrant_import import (
    ImportLine,
    ImportRefused,
    LineRefusal,
    decode,
    read_entrants,
)
from leagues.domain.state import CompetitionState
from leagues.selectors.players import check_entrant_players

from .quotas import check_new_entrant
from .seeding import with_seeding
from .streams import actor_of, as_organiser, user_id_of

# Refusals about the competition rather than a line: the whole file is refused with them.
COMPETITION_REFUSALS = frozenset(
    {"registration_closed", "competition_finished", "unknown_competition"}
)


def _accounts(lines: list[ImportLine]) -> dict[str, str]:
    """casefolded username -> player id, for the usernames of the file that have one
    (usernames are unique whatever their case)."""
    wanted = {u.lower() for line in lines for u in (*line.usernames, line.reserve) if u}
    rows = (
        get_user_model()
        .objects.annotate(lowered=Lower("username"))
        .filter(lowered__in=wanted, is_active=True)
        .values_list("username", "pk")
    )
    return {name.casefold(): str(pk) for name, pk in rows}


def _request(line: ImportLine, accounts: dict[str, str]) -> EntrantRequest:
    people = [*line.usernames, *([line.reserve] if line.reserve else [])]
    unknown = [u for u in people if u.casefold() not in accounts]
    if unknown:
        raise LeagueError("unknown_player", f"There is no player called {unknown[0]!r}.")
    first, second = (accounts[u.casefold()] for u in line.usernames)
    return EntrantRequest(
        entrant_id=f"import-{uuid.uuid4().hex[:16]}",
        players=(first, second),
        reserve=accounts[line.reserve.casefold()] if line.reserve else None,
        name=line.name,
    )


def _not_in_competition(
    state: CompetitionState, line: ImportLine, accounts: dict[str, str]
) -> None:
    """The decision's own refusal names player ids; an organiser typed usernames."""
    for username in (*line.usernames, *([line.reserve] if line.reserve else [])):
        entrant_id = state.entrant_of_player(accounts[username.casefold()])
        if entrant_id is not None:
            invitation = state.invitations.get(entrant_id)
            entrant = invitation.entrant if invitation else state.entrants.get(entrant_id)
            shown = (entrant.name if entrant else "") or entrant_id
            raise LeagueError(
                "player_in_two_entrants",
                f"{username!r} is already in entrant {shown!r} of this competition.",
            )


def import_entrants(user: Any, competition_id: object, data: bytes) -> tuple[CompetitionState, int]:
    """Register every entrant of the CSV ``data`` (the competition's state after, and how
    many), or refuse it whole with :class:`ImportRefused` (each line's reason)."""
    lines, file_refusals = read_entrants(decode(data))
    registrar = str(user_id_of(user))

    def decide(state: CompetitionState, _organiser: int) -> list[Any]:
        accounts = _accounts(lines)
        now = timezone.now()
        events: list[Any] = []
        refusals = list(file_refusals)
        for line in lines:
            try:
                request = _request(line, accounts)
                _not_in_competition(state, line, accounts)
                events += decisions.decide_register(
                    state,
                    with_seeding(state, request),
                    registrar=registrar,
                    now=now,
                    actor=actor_of(user),
                )
                check_entrant_players(request.players or (), request.reserve)
            except ImportRefused:
                raise
            except LeagueError as refusal:
                if refusal.code in COMPETITION_REFUSALS:
                    raise
                refusals.append(LineRefusal(line.line, refusal.message))
        if refusals:
            raise ImportRefused(sorted(refusals, key=lambda refusal: refusal.line))
        check_new_entrant(state, len(lines))
        return events

    return as_organiser(user, competition_id, decide), len(lines)
