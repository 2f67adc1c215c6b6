"""Registration: who plays in a competition, and only with their consent.

An organiser registers a partnership (:func:`decide_register`, or :func:`decide_late_join`
after round 1); every player it names but the organiser registering is *invited*, and the
partnership is entered (paired, ranked, rated) only once each of its two players has
accepted (:func:`decide_accept`). A named player may decline (:func:`decide_decline`),
which ends the invitation, and a player may leave (:func:`decide_leave`): an invitation
is declined, an entered entrant withdrawn. A player may also propose a partnership
themself (:func:`decide_propose`), entered when the partner confirms it
(:func:`decide_confirm`). Withdrawal, substitution and check-in follow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from eventstore.records import NewEvent
from leagues.core.entrants import MAX_RATING, Entrant, check_entrants

from .. import events as ev
from .. import parsing as p
from ..settings import CompetitionSettings
from ..state import CompetitionState
from .guards import known_entrant, require

Actor = Mapping[str, Any]

ENTRANT_FIELDS = ("entrant_id", "players", "usernames", "reserve", "name", "rating")
PROPOSAL_FIELDS = ("partner", "name")
SUBSTITUTION_FIELDS = ("player_out", "player_in", "username_in")
REASON_FIELDS = ("reason",)


# ---------------------------------------------------------------- requests


@dataclass(frozen=True, slots=True)
class EntrantRequest:
    """A partnership to register (or late-join): its players by user id (``players``), or
    by the ``usernames`` an organiser types (the service resolves them into ``players``
    before deciding); ``rating`` None: seeded from the ratings."""

    entrant_id: str
    players: tuple[str, str] | None = None
    usernames: tuple[str, ...] | None = None
    reserve: str | None = None
    name: str = ""
    rating: int | None = None

    @classmethod
    def parse(cls, body: object) -> EntrantRequest:
        fields = p.body_of(body)
        p.known_fields(fields, ENTRANT_FIELDS)
        entrant_id = p.entrant_id(p.required(fields, "entrant_id"))
        players_raw, usernames_raw = fields.get("players"), fields.get("usernames")
        if players_raw is not None and usernames_raw is not None:
            raise p.refuse("invalid", "Give players (user ids) or usernames, not both.")
        if players_raw is None and usernames_raw is None:
            raise p.refuse(
                "invalid", "players (two user ids) or usernames (two usernames) is required."
            )
        players = None
        if players_raw is not None:
            if not isinstance(players_raw, list | tuple) or len(players_raw) != 2:
                raise p.refuse("invalid", "players is a list of exactly two players.")
            players = (
                p.player(players_raw[0], "players[0]"),
                p.player(players_raw[1], "players[1]"),
            )
        reserve = fields.get("reserve")
        rating = fields.get("rating")
        return cls(
            entrant_id=entrant_id,
            players=players,
            usernames=None if usernames_raw is None else p.usernames(usernames_raw, "usernames", 2),
            reserve=None if reserve is None else p.player(reserve, "reserve"),
            name=p.text(fields.get("name"), "name"),
            rating=None if rating is None else p.whole(rating, "rating", -MAX_RATING, MAX_RATING),
        )

    def with_players(self, players: tuple[str, str]) -> EntrantRequest:
        """The request with its usernames resolved into user ids."""
        return replace(self, players=players, usernames=None)

    def with_rating(self, rating: int) -> EntrantRequest:
        return replace(self, rating=rating)


@dataclass(frozen=True, slots=True)
class ProposalRequest:
    """A player proposes a partnership with ``partner`` (a user id)."""

    partner: str
    name: str = ""

    @classmethod
    def parse(cls, body: object) -> ProposalRequest:
        fields = p.body_of(body)
        p.known_fields(fields, PROPOSAL_FIELDS)
        return cls(
            partner=p.player(p.required(fields, "partner"), "partner"),
            name=p.text(fields.get("name"), "name"),
        )


@dataclass(frozen=True, slots=True)
class SubstitutionRequest:
    """``player_in`` (a user id, or ``username_in`` resolved by the service) plays for
    ``player_out`` from the next round."""

    player_out: str
    player_in: str | None = None
    username_in: str | None = None

    @classmethod
    def parse(cls, body: object) -> SubstitutionRequest:
        fields = p.body_of(body)
        p.known_fields(fields, SUBSTITUTION_FIELDS)
        player_in, username_in = fields.get("player_in"), fields.get("username_in")
        if player_in is not None and username_in is not None:
            raise p.refuse("invalid", "Give player_in (a user id) or username_in, not both.")
        if player_in is None and username_in is None:
            raise p.refuse("invalid", "player_in (a user id) or username_in is required.")
        return cls(
            player_out=p.player(p.required(fields, "player_out"), "player_out"),
            player_in=None if player_in is None else p.player(player_in, "player_in"),
            username_in=None
            if username_in is None
            else p.usernames([username_in], "username_in", 1)[0],
        )

    def with_player_in(self, player_in: str) -> SubstitutionRequest:
        return replace(self, player_in=player_in, username_in=None)


@dataclass(frozen=True, slots=True)
class ReasonRequest:
    """A withdrawal, a declined invitation or a player leaving: an optional reason."""

    reason: str = ""

    @classmethod
    def parse(cls, body: object) -> ReasonRequest:
        fields = p.body_of(body)
        p.known_fields(fields, REASON_FIELDS)
        return cls(reason=p.text(fields.get("reason"), "reason", p.MAX_REASON))


# ---------------------------------------------------------------- entrants


def registration_open(
    state: CompetitionState, settings: CompetitionSettings, now: datetime
) -> None:
    if state.rounds:
        raise p.refuse(
            "registration_closed",
            "Round 1 has been paired: registration is closed (a late join may still be open).",
        )
    closes = settings.registration_closes_at
    if closes is not None and now > closes:
        raise p.refuse("registration_closed", f"Registration closed at {closes.isoformat()}.")


def late_join_open(state: CompetitionState, settings: CompetitionSettings, joined: int) -> None:
    """A late entrant may join from round ``joined`` (refused: ``late_join_closed``)."""
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished.")
    until = settings.late_join_until_round
    if joined > until:
        raise p.refuse(
            "late_join_closed",
            f"Late entrants can join until round {until}; the next round is {joined}."
            if until
            else "This competition takes no late entrants.",
        )
    if state.rounds[-1].stage != 0 or state.stage != 0:
        raise p.refuse("late_join_closed", "Late entrants join during the first stage only.")
    first = settings.stages[0].kind
    if first != "swiss":
        raise p.refuse(
            "late_join_closed",
            f"A {first.replace('_', ' ')} draws its schedule once, before round 1: "
            "late entrants can join a Swiss stage only.",
        )


def _new_entrant(
    state: CompetitionState, request: EntrantRequest, rating: int, joined_round: int = 1
) -> Entrant:
    if request.players is None:
        raise p.refuse("invalid", "players is a list of exactly two players.")
    entrant = Entrant(
        id=request.entrant_id,
        players=request.players,
        reserve=request.reserve,
        rating=rating,
        name=request.name,
        joined_round=joined_round,
    )
    if entrant.id in state.entrants or entrant.id in state.invitations:
        raise p.refuse("duplicate_entrant", f"Entrant {entrant.id!r} is registered already.")
    invited = [i.entrant for i in state.invitations.values()]
    check_entrants([*state.entrants.values(), *invited, entrant])
    # check_entrants sees registered players and reserves; substitutes count too.
    for person in (*entrant.players, entrant.reserve):
        other = None if person is None else state.entrant_of_player(person)
        if other is not None:
            raise p.refuse(
                "player_in_two_entrants",
                f"Player {person!r} is already in entrant {other!r}; "
                "a player may be in only one entrant of a competition.",
            )
    return entrant


def _named_people(entrant: Entrant) -> list[str]:
    """The players and reserve an entrant names (its name and reasons are about them)."""
    return [*entrant.players, *([entrant.reserve] if entrant.reserve else [])]


def _invited(entrant: Entrant, registrar: str | None) -> list[str]:
    """Everyone the entrant names but whoever registers it: their answer is awaited."""
    named = [*entrant.players, *([entrant.reserve] if entrant.reserve else [])]
    return [person for person in named if person != registrar]


def decide_register(
    state: CompetitionState,
    request: EntrantRequest,
    *,
    registrar: str | None,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    """``EntrantRegistered``: entered at once only when ``registrar`` (the organiser,
    as a player id) is each of its players; otherwise an invitation."""
    settings = require(state)
    registration_open(state, settings, now)
    entrant = _new_entrant(state, request, request.rating or 0)
    return [
        ev.entrant_registered(
            entrant_id=entrant.id,
            players=entrant.players,
            reserve=entrant.reserve,
            name=ev.typed(entrant.name, ev.typist(actor), _named_people(entrant)),
            rating=entrant.rating,
            invited=_invited(entrant, registrar),
            actor=actor,
        )
    ]


def decide_late_join(
    state: CompetitionState, request: EntrantRequest, *, registrar: str | None, actor: Actor
) -> list[NewEvent]:
    """A late entrant plays from the next round (once its players have accepted); each
    round missed gives ``late_join`` points."""
    settings = require(state)
    if not state.rounds:
        raise p.refuse("not_late", "No round has been paired yet: register the entrant instead.")
    joined = state.last_round + 1
    late_join_open(state, settings, joined)
    entrant = _new_entrant(state, request, request.rating or 0, joined)
    return [
        ev.entrant_late_joined(
            entrant_id=entrant.id,
            players=entrant.players,
            reserve=entrant.reserve,
            name=ev.typed(entrant.name, ev.typist(actor), _named_people(entrant)),
            rating=entrant.rating,
            invited=_invited(entrant, registrar),
            joined_round=joined,
            actor=actor,
        )
    ]


def _named(state: CompetitionState, entrant_id: str) -> Entrant:
    """The entrant, entered or invited."""
    invitation = state.invitations.get(entrant_id)
    if invitation is not None:
        return invitation.entrant
    entrant = state.entrants.get(entrant_id)
    if entrant is None:
        raise p.refuse("unknown_entrant", f"{entrant_id!r} is not an entrant of this competition.")
    return entrant


def decide_accept(
    state: CompetitionState, *, entrant_id: str, player: str, actor: Actor
) -> list[NewEvent]:
    """``InvitationAccepted``: a player named in the entrant (as a player, its reserve or
    a substitute) agrees to play; the last of its two players' answers enters it, from
    the next round to be paired (after round 1 has been paired that is a late join, and
    only while one is open)."""
    settings = require(state)
    entrant = _named(state, entrant_id)
    if player not in state.awaiting(entrant.id):
        if state.entrant_of_player(player) == entrant.id:
            raise p.refuse("already_accepted", f"You have accepted {entrant.id!r} already.")
        raise p.refuse("not_invited", f"{entrant.id!r} does not name you.")
    joined_round = None
    invitation = state.invitations.get(entrant.id)
    if invitation is not None and invitation.awaiting == {player}:
        joined_round = state.last_round + 1
        if joined_round > 1:
            late_join_open(state, settings, joined_round)
    return [
        ev.invitation_accepted(
            entrant_id=entrant.id, player=player, joined_round=joined_round, actor=actor
        )
    ]


def decide_decline(
    state: CompetitionState, *, entrant_id: str, player: str, reason: str, actor: Actor
) -> list[NewEvent]:
    """``InvitationDeclined``: a player of an invitation ends it (it was never entered);
    a reserve who does not play for it takes themself off."""
    require(state)
    entrant = _named(state, entrant_id)
    invited = entrant.id in state.invitations
    declinable = (invited and player in entrant.players) or (
        entrant.reserve == player
        and (invited or player not in state.players_in(entrant.id, state.last_round + 1))
    )
    if declinable:
        pass
    elif state.entrant_of_player(player) == entrant.id:
        raise p.refuse(
            "entered",
            f"You play for {entrant.id!r}, which is entered: leave the competition instead.",
        )
    else:
        raise p.refuse("not_invited", f"{entrant.id!r} does not name you.")
    said = ev.typed(reason, ev.typist(actor), [player, *_named_people(entrant)])
    return [ev.invitation_declined(entrant_id=entrant.id, player=player, reason=said, actor=actor)]


def decide_leave(
    state: CompetitionState, *, player: str, reason: str, actor: Actor
) -> list[NewEvent]:
    """A player leaves the competition: an invitation (or a reserve's place) is declined;
    a player of an entered entrant withdraws it (``EntrantWithdrawn`` naming the player)."""
    require(state)
    partnership = state.partnership_of(player)
    if partnership is not None:
        # Came in by the invitation link, no partner yet: the partner link stops working.
        return [ev.partnership_closed(partnership_id=partnership.id, player=player, actor=actor)]
    entrant_id = state.entrant_of_player(player)
    if entrant_id is None:
        raise p.refuse("not_in_competition", "You are in no entrant of this competition.")
    entrant = _named(state, entrant_id)
    playing = entrant_id in state.entrants and player in state.players_in(
        entrant_id, state.last_round + 1
    )
    if entrant_id in state.invitations or (entrant.reserve == player and not playing):
        return decide_decline(
            state, entrant_id=entrant_id, player=player, reason=reason, actor=actor
        )
    if not playing:
        raise p.refuse(
            "not_playing", f"You no longer play for {entrant_id!r}: there is nothing to leave."
        )
    return _withdrawal(state, entrant, reason=reason, player=player, actor=actor)


def _withdrawal(
    state: CompetitionState, entrant: Entrant, *, reason: str, player: str | None, actor: Actor
) -> list[NewEvent]:
    """``EntrantWithdrawn`` after the last round paired (``player``: who left)."""
    if entrant.withdrawn_after_round is not None:
        raise p.refuse("already_withdrawn", f"Entrant {entrant.id!r} has withdrawn already.")
    return [
        ev.entrant_withdrawn(
            entrant_id=entrant.id,
            after_round=state.last_round,
            reason=ev.typed(reason, ev.typist(actor), _named_people(entrant)),
            player=player,
            actor=actor,
        )
    ]


def decide_propose(
    state: CompetitionState,
    request: ProposalRequest,
    *,
    proposal_id: str,
    player: str,
    now: datetime,
    actor: Actor,
) -> list[NewEvent]:
    """A player proposes a partnership with ``partner``; it counts once the partner confirms."""
    settings = require(state)
    registration_open(state, settings, now)
    if request.partner == player:
        raise p.refuse("same_player_twice", "A partnership is two different players.")
    for person in (player, request.partner):
        other = state.entrant_of_player(person)
        if other is not None:
            raise p.refuse(
                "player_in_two_entrants", f"Player {person!r} is already in entrant {other!r}."
            )
    return [
        ev.partnership_proposed(
            proposal_id=proposal_id,
            player=player,
            partner=request.partner,
            name=ev.typed(request.name, ev.typist(actor), [player, request.partner]),
            actor=actor,
        )
    ]


def decide_confirm(
    state: CompetitionState,
    *,
    proposal_id: str,
    partner: str,
    now: datetime,
    actor: Actor,
    rating: int = 0,
) -> list[NewEvent]:
    """The partner confirms: the partnership is entered (both players agreed)."""
    settings = require(state)
    proposal = state.proposals.get(proposal_id)
    if proposal is None:
        raise p.refuse("unknown_proposal", "There is no open partnership proposal with that id.")
    if proposal.partner != partner:
        raise p.refuse("not_your_proposal", "Only the proposed partner can confirm.")
    registration_open(state, settings, now)
    request = EntrantRequest(
        entrant_id=f"p-{proposal.id[:40]}",
        players=(proposal.player, proposal.partner),
        name=proposal.name,
    )
    entrant = _new_entrant(state, request, rating)
    # The entrant refers to the proposal's text (one text, erased once); a name proposed
    # before names were erasable becomes erasable now.
    stored = proposal.stored_name
    name: ev.Typed = (
        ev.typed(stored, proposal.player, [proposal.partner])
        if isinstance(stored, str)
        else stored
        if isinstance(stored, Mapping)
        else ""
    )
    return [
        ev.partnership_confirmed(proposal_id=proposal.id, actor=actor),
        ev.entrant_registered(
            entrant_id=entrant.id,
            players=entrant.players,
            reserve=None,
            name=name,
            rating=entrant.rating,
            invited=[],
            proposal_id=proposal.id,
            actor=actor,
        ),
    ]


def decide_withdraw(
    state: CompetitionState, *, entrant_id: str, reason: str, actor: Actor
) -> list[NewEvent]:
    """An organiser withdraws an entrant (or takes back an invitation not yet accepted)."""
    require(state)
    invitation = state.invitations.get(entrant_id)
    entrant = invitation.entrant if invitation else known_entrant(state, entrant_id)
    return _withdrawal(state, entrant, reason=reason, player=None, actor=actor)


def decide_substitute(
    state: CompetitionState, *, entrant_id: str, request: SubstitutionRequest, actor: Actor
) -> list[NewEvent]:
    """A reserve (or a new player) plays for one of the entrant's players from the next round."""
    require(state)
    entrant = known_entrant(state, entrant_id)
    next_round = state.last_round + 1
    current = state.players_in(entrant.id, next_round)
    out, into = request.player_out, request.player_in
    if into is None:
        raise p.refuse("invalid", "player_in (a user id) or username_in is required.")
    if out not in current:
        raise p.refuse("not_in_entrant", f"{out!r} does not play for {entrant.id!r} now.")
    other = state.entrant_of_player(into)
    if into in current or (other is not None and other != entrant.id):
        raise p.refuse(
            "player_in_two_entrants", f"Player {into!r} already plays in this competition."
        )
    return [
        ev.entrant_substituted(
            entrant_id=entrant.id,
            player_out=out,
            player_in=into,
            from_round=next_round,
            actor=actor,
        )
    ]


def decide_check_in(state: CompetitionState, *, entrant_id: str, actor: Actor) -> list[NewEvent]:
    require(state)
    entrant = known_entrant(state, entrant_id)
    number = state.last_round + 1
    if not entrant.active_in(number):
        raise p.refuse("not_playing", f"Entrant {entrant.id!r} does not play round {number}.")
    if entrant.id in state.checked_in.get(number, set()):
        raise p.refuse("already_checked_in", f"{entrant.id!r} is checked in for round {number}.")
    return [ev.entrant_checked_in(entrant_id=entrant.id, round_number=number, actor=actor)]
