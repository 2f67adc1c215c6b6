"""The competition's invitation link: a player signs up (or logs in) through it and is
in, with a partner link of their own for their partner.

An organiser issues the link (:func:`decide_issue_link`; issuing again replaces it) and
may revoke it (:func:`decide_revoke_link`). A player who follows it opens a partnership
with themself as first player (:func:`decide_open_partnership`); their partner follows
the partner link and the partnership is entered, both players having agreed by following
the links (:func:`decide_join_partnership`). Each link's secret is 256 random bits the
service draws; events keep only its digest, and a secret is compared with it in constant
time (:func:`secret_matches`). A wrong or revoked secret is refused and writes nothing.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from eventstore.records import NewEvent
from games.domain.table import invitation_digest

from .. import events as ev
from .. import parsing as p
from ..state import CompetitionState
from .guards import require
from .registration import EntrantRequest, _new_entrant, registration_open

Actor = Mapping[str, Any]

#: The longest secret looked at (the service's are 43 characters).
MAX_SECRET = 128


def link_digest(secret: str) -> str:
    """What an event keeps of a link's secret (the seat invitations' scheme)."""
    return invitation_digest(secret)


def secret_matches(digest: str | None, secret: object) -> bool:
    """Whether ``secret`` is the one ``digest`` was made from (constant time; anything
    malformed, or no live digest, matches nothing)."""
    if digest is None or not isinstance(secret, str) or not 0 < len(secret) <= MAX_SECRET:
        return False
    return hmac.compare_digest(link_digest(secret), digest)


_SECRET_CHARS = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class LinkSecretRequest:
    """The secret a link carries (in its fragment; the landing page posts it)."""

    secret: str

    @classmethod
    def parse(cls, body: object) -> LinkSecretRequest:
        fields = p.body_of(body)
        p.known_fields(fields, ("secret",))
        secret = p.required(fields, "secret")
        if (
            not isinstance(secret, str)
            or not 0 < len(secret) <= MAX_SECRET
            or not _SECRET_CHARS.fullmatch(secret)
        ):
            raise p.refuse(
                "invalid",
                f"The secret is the text after '#link=' or '#partner=' in the link: letters, "
                f"digits, '-' and '_', at most {MAX_SECRET} of them.",
            )
        return cls(secret=secret)


LINK_CLOSED = (
    "This invitation link does not work (it was revoked, replaced by a newer one, or "
    "mistyped): ask the organiser for the current link."
)
PARTNER_LINK_CLOSED = (
    "This partner link does not work (your partner left, someone already joined them, or "
    "it was mistyped): ask your partner for their link again."
)


def decide_issue_link(
    state: CompetitionState, *, link_id: str, digest: str, now: datetime, actor: Actor
) -> list[NewEvent]:
    """``EntryLinkIssued`` (replacing any live link) while registration is open."""
    settings = require(state)
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished.")
    registration_open(state, settings, now)
    return [ev.entry_link_issued(link_id=link_id, digest=digest, actor=actor)]


def decide_revoke_link(state: CompetitionState, *, actor: Actor) -> list[NewEvent]:
    require(state)
    if state.entry_link is None:
        raise p.refuse("no_entry_link", "This competition has no invitation link to revoke.")
    return [ev.entry_link_revoked(link_id=state.entry_link[0], actor=actor)]


def _not_in_yet(state: CompetitionState, player: str, you: bool) -> None:
    who = "You are" if you else "That player is"
    entrant = state.entrant_of_player(player)
    if entrant is not None:
        raise p.refuse(
            "player_in_two_entrants",
            f"{who} already in an entrant of this competition ({entrant!r}); a player may "
            "be in only one.",
        )
    if state.partnership_of(player) is not None:
        raise p.refuse(
            "player_in_two_entrants",
            f"{who} already in this competition, waiting for a partner: send the partner "
            "link instead.",
        )


def decide_open_partnership(
    state: CompetitionState,
    *,
    secret: object,
    partnership_id: str,
    partner_digest: str,
    player: str,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    """``PartnershipOpened``: the player followed the live invitation link."""
    settings = require(state)
    link = state.entry_link
    if link is None or not secret_matches(link[1], secret):
        raise p.refuse("entry_link_closed", LINK_CLOSED)
    registration_open(state, settings, now)
    _not_in_yet(state, player, you=True)
    return [
        ev.partnership_opened(
            partnership_id=partnership_id,
            player=player,
            link_id=link[0],
            digest=partner_digest,
            actor=actor,
        )
    ]


def decide_join_partnership(
    state: CompetitionState,
    *,
    partnership_id: str,
    secret: object,
    partner: str,
    rating: int,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    """``PartnerJoined`` then ``EntrantRegistered`` (entered: both players agreed by
    following their links)."""
    settings = require(state)
    partnership = state.open_partnerships.get(partnership_id)
    if partnership is None or not secret_matches(partnership.digest, secret):
        raise p.refuse("partner_link_closed", PARTNER_LINK_CLOSED)
    registration_open(state, settings, now)
    if partnership.player == partner:
        raise p.refuse(
            "same_player_twice",
            "This is your own partner link: send it to your partner, who follows it.",
        )
    _not_in_yet(state, partner, you=True)
    entrant = _new_entrant(
        state,
        EntrantRequest(
            entrant_id=f"l-{partnership.id[:40]}", players=(partnership.player, partner)
        ),
        rating,
    )
    return [
        ev.partner_joined(partnership_id=partnership.id, partner=partner, actor=actor),
        ev.entrant_registered(
            entrant_id=entrant.id,
            players=entrant.players,
            reserve=None,
            name="",
            rating=entrant.rating,
            invited=[],
            proposal_id=partnership.id,
            actor=actor,
        ),
    ]
