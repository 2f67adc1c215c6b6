"""The competition's invitation link and each player's partner link (club onboarding,
docs/leagues.md "The invitation link").

Secrets are 256 random bits (``secrets.token_urlsafe(32)``); the event keeps the digest,
:class:`~leagues.models.EntryLinkSecret` the secret (so the organiser, or the player,
can copy the link again), both in one transaction. A wrong, revoked or used secret is
refused in words and writes nothing.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from django.utils import timezone

from eventstore.records import StoredEvent
from leagues.domain import decisions
from leagues.domain.state import CompetitionState
from leagues.models import EntryLinkSecret

from .quotas import check_new_entrant
from .registration import _player
from .seeding import projected_rating
from .streams import actor_of, as_organiser, execute, parse_id

#: The invitation link's row (one per competition): its ``link_id`` is the event's.
ENTRY = "entry"


def _secret() -> str:
    return secrets.token_urlsafe(32)


def issue_link(user: Any, competition_id: object) -> CompetitionState:
    """A new invitation link (the old one, if any, stops working)."""
    secret = _secret()
    link_id = uuid.uuid4().hex[:16]
    cid = parse_id(competition_id)

    def keep(_state: CompetitionState, _events: list[StoredEvent]) -> None:
        EntryLinkSecret.objects.filter(competition_id=cid, player="").delete()
        EntryLinkSecret.objects.create(competition_id=cid, link_id=link_id, secret=secret)

    return as_organiser(
        user,
        cid,
        lambda state, _organiser: decisions.decide_issue_link(
            state,
            link_id=link_id,
            digest=decisions.link_digest(secret),
            now=timezone.now(),
            actor=actor_of(user),
        ),
        after=keep,
    )


def revoke_link(user: Any, competition_id: object) -> CompetitionState:
    cid = parse_id(competition_id)

    def forget(_state: CompetitionState, _events: list[StoredEvent]) -> None:
        EntryLinkSecret.objects.filter(competition_id=cid, player="").delete()

    return as_organiser(
        user,
        cid,
        lambda state, _organiser: decisions.decide_revoke_link(state, actor=actor_of(user)),
        after=forget,
    )


def enter_by_link(user: Any, competition_id: object, secret: str) -> str:
    """The signed-in player follows the invitation link: a partnership with them as first
    player, waiting for a partner; answers its id (the partner link: ``partner_link``)."""
    player = _player(user)
    cid = parse_id(competition_id)
    partnership_id = uuid.uuid4().hex[:16]
    partner_secret = _secret()

    def decide(state: CompetitionState) -> list[Any]:
        events = decisions.decide_open_partnership(
            state,
            secret=secret,
            partnership_id=partnership_id,
            partner_digest=decisions.link_digest(partner_secret),
            player=player,
            now=timezone.now(),
            actor=actor_of(user),
        )
        check_new_entrant(state)
        return events

    def keep(_state: CompetitionState, _events: list[StoredEvent]) -> None:
        EntryLinkSecret.objects.create(
            competition_id=cid, link_id=partnership_id, player=player, secret=partner_secret
        )

    execute(cid, decide, after=keep)
    return partnership_id


def join_partner(
    user: Any, competition_id: object, partnership_id: str, secret: str
) -> CompetitionState:
    """The signed-in player follows a partner link: the partnership is entered (it held
    its place in the competition's quota from the moment it was opened)."""
    partner = _player(user)
    cid = parse_id(competition_id)

    def decide(state: CompetitionState) -> list[Any]:
        opened = state.open_partnerships.get(partnership_id)
        rating = projected_rating(state, [opened.player, partner]) if opened else None
        return decisions.decide_join_partnership(
            state,
            partnership_id=partnership_id,
            secret=secret,
            partner=partner,
            rating=rating or 0,
            now=timezone.now(),
            actor=actor_of(user),
        )

    def used(_state: CompetitionState, _events: list[StoredEvent]) -> None:
        EntryLinkSecret.objects.filter(competition_id=cid, link_id=partnership_id).delete()

    return execute(cid, decide, after=used)[0]
