"""What one user may hold in leagues at once (``services/settings.py``, docs/leagues.md
"Quotas"): over a quota the API answers 429 ``too_many_*`` and nothing is written.

- all-bot tables: a competition's tables are created by its director, not in anyone's
  name; its all-bot tables count against its *creator's* all-bot table quota
  (``SPADES_MAX_BOT_TABLES_PER_USER``, ``games.services.quotas``), the one the creator's
  own all-bot tables count against. The creator, not every organiser: a creator may name
  organisers who never agreed, and must not spend their quota. A round whose tables
  would go past it is refused before its first table is created;
- unfinished competitions one user created (``SPADES_MAX_OPEN_COMPETITIONS_PER_USER``);
- entrants, entered or invited, of one competition (``SPADES_MAX_ENTRANTS_PER_COMPETITION``)
  and of all the unfinished competitions its creator created
  (``SPADES_MAX_ENTRANTS_PER_ORGANISER``);
- a player's open partnership proposals in one competition
  (``SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER``).

The checks that count rows of other competitions run inside the appending transaction
under an advisory lock of the creator, so two requests at once count each other.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Sum

from games.models import Table
from games.services import quotas as table_quotas
from games.services.errors import CommandRejected
from leagues.core.errors import LeagueError
from leagues.domain.state import CompetitionState
from leagues.models import Competition, CompetitionTable

# The first key of the advisory lock that makes one creator's competitions take turns
# (games' table quota uses its own key).
_LEAGUES_QUOTA_LOCK = 0x1EA6


def _lock(user_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LEAGUES_QUOTA_LOCK, user_id])


def _created_by(user_id: int) -> Any:
    """The competitions ``user_id`` created (the first organiser is the creator)."""
    return Competition.objects.filter(organisers__0=user_id)


def creator_of(state: CompetitionState) -> int:
    organisers = state.organisers
    assert organisers, "every competition has its creator as first organiser"
    return organisers[0]


# ---------------------------------------------------------------- all-bot tables


def open_competition_bot_tables(user_id: int, **_: Any) -> int:
    """Open all-bot tables of the competitions ``user_id`` created (the receiver of
    ``games.services.quotas.bot_tables_elsewhere``)."""
    tables = CompetitionTable.objects.filter(
        competition_id__in=_created_by(user_id).values("id")
    ).values("table_id")
    return table_quotas.open_bot_tables(Table.objects.filter(id__in=tables))


def check_round_tables(state: CompetitionState, round_number: int, tables: int) -> None:
    """Refuse a round of a competition played by bots whose ``tables`` would take its
    creator past the all-bot table quota (before any table is created)."""
    assert state.settings is not None
    if not state.settings.bot_level:
        return
    try:
        table_quotas.check_bot_table_quota(
            creator_of(state), tables, f"Round {round_number} of this competition opens"
        )
    except CommandRejected as refusal:
        raise LeagueError(refusal.code, refusal.message) from None


# ---------------------------------------------------------------- competitions, entrants


def check_new_competition(user_id: int) -> None:
    """Refuse a competition ``user_id`` may not create now (call in the appending
    transaction)."""
    _lock(user_id)
    most = settings.SPADES_MAX_OPEN_COMPETITIONS_PER_USER
    held = _created_by(user_id).exclude(status="finished").count()
    if held >= most:
        raise LeagueError(
            "too_many_competitions",
            f"You have created {held} competitions that are not finished, the most one "
            f"organiser may have ({most}); finish one first.",
        )


def entrants_of(state: CompetitionState) -> int:
    """Entrants a competition holds a place for: entered, invited and not declined, or
    opened by the invitation link and waiting for a partner."""
    return len(state.entrants) + len(state.invitations) + len(state.open_partnerships)


def check_new_entrant(state: CompetitionState, count: int = 1) -> None:
    """Refuse ``count`` more entrants in ``state``'s competition (call in the appending
    transaction, after the competition's own refusals)."""
    held = entrants_of(state)
    adding = "" if count == 1 else f"; {count} more would pass it"
    most = settings.SPADES_MAX_ENTRANTS_PER_COMPETITION
    if held + count > most:
        raise LeagueError(
            "too_many_entrants",
            f"This competition is full: it has {held} entrants (entered, invited or waiting "
            f"for a partner), the most one competition may have ({most}){adding}.",
        )
    creator = creator_of(state)
    _lock(creator)
    others = (
        _created_by(creator)
        .exclude(status="finished")
        .exclude(id=state.competition_id)
        .aggregate(total=Sum("entrants"))["total"]
        or 0
    )
    most = settings.SPADES_MAX_ENTRANTS_PER_ORGANISER
    if others + held + count > most:
        raise LeagueError(
            "too_many_entrants",
            f"The unfinished competitions of this competition's creator have {others + held} "
            f"entrants (entered or invited), the most one organiser may have ({most}){adding}.",
        )


def check_new_proposal(state: CompetitionState, player: str) -> None:
    """Refuse one more open partnership proposal by ``player`` in this competition."""
    held = sum(1 for proposal in state.proposals.values() if proposal.player == player)
    most = settings.SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER
    if held >= most:
        raise LeagueError(
            "too_many_proposals",
            f"You have {held} open partnership proposals here, the most one player may have "
            f"({most}); wait for an answer first.",
        )
