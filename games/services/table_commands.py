"""The table's use cases: one small dataclass per command, run by :func:`execute`.

``execute(PlaceBid(table_id, "east", 4), actor, expected_version=12, command_id="c-1")``
checks the arguments, lets the domain decide (``games.domain.decisions``, through the same
fold that replays the stream later) and hands the result to the command runner
(``games.services.command_runner``), which appends the events with the expected version and
updates the :class:`games.models.Table` read model in the same transaction.  Refusals raise
:class:`CommandRejected` and write nothing.  A ``command_id`` makes a command idempotent:
sent again, it returns the first result with ``duplicate=True``.

Hands are dealt by the table itself: the card that ends a hand is appended together with
the next ``HandDealt`` (or, when the game is over, ``DealSeedRevealed``).  Deals derive
from a secret seed committed to (``DealCommitted``) before the first deal.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.db import transaction

from eventstore.errors import WrongExpectedVersion
from eventstore.recorder import append
from games.domain import decisions
from games.domain import events as ev
from games.domain.decisions import ActorRef, parse_seat_arg
from games.domain.streams import table_stream_id
from games.domain.table import TableState, invitation_digest, seed_commitment
from games.engine.errors import IllegalMove
from games.engine.rule_words import in_words
from games.engine.rules import RulesError
from games.models import SeatInvitation, Table, TableSecret
from scoring.services.presets import resolve
from telemetry.edges import command as command_span

from .actors import Actor, actor_ref
from .command_runner import (
    CommandResult,
    check_command_id,
    command_result,
    new_events,
    refusal,
    run_command,
)
from .errors import CommandRejected
from .quotas import check_table_quota
from .read_model import create_row
from .table_state import parse_table_id, put_back

__all__ = [
    "COMMANDS",
    "AbandonTable",
    "CommandRejected",
    "CommandResult",
    "HandSeatToBot",
    "LeaveSeat",
    "LookAtCards",
    "PassCards",
    "PlaceBid",
    "PlayCard",
    "ReissueInvitation",
    "ReserveSeat",
    "RevokeInvitation",
    "StartGame",
    "TableCommand",
    "TakeSeat",
    "TakeSeatBack",
    "TurnTimedOut",
    "create_table",
    "execute",
]

CREATE_NAMESPACE = uuid.UUID("5f1b3a4e-7c2d-4e8a-9b61-2d3c4e5f6a7b")


def execute(
    command: TableCommand,
    actor: Actor,
    *,
    expected_version: object = None,
    command_id: object = None,
) -> CommandResult:
    """Run one command at its table for ``actor``.

    ``expected_version``: the version the actor decided on (a stale one is a 409 and
    nothing is retried); without it a command that lost a race is re-decided on the new
    state.  ``command_id``: text of 1 to 200 characters that makes the command idempotent.
    """
    with command_span(command.name, command.table_id, command_id):
        return command.run(actor, expected_version, command_id)


# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class TableCommand:
    """A command to a table that exists; ``name`` is its use case (and API operation)."""

    name: ClassVar[str]
    table_id: object

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        raise NotImplementedError  # pragma: no cover


@dataclass(frozen=True, slots=True)
class SeatCommand(TableCommand):
    """A command given for one seat (``"north"``..``"west"`` or 0-3)."""

    seat: object

    def needs_seed(self, state: TableState) -> bool:
        """Whether deciding on ``state`` needs the table's deal secret (``seed``)."""
        return False

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        raise NotImplementedError  # pragma: no cover

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        seat = _seat(self.seat)
        who = actor_ref(actor)
        decide = self.decide
        return run_command(
            self.table_id,
            actor,
            lambda state, seed: decide(state, who, seat, seed),
            expected_version=expected_version,
            command_id=command_id,
            needs_seed=self.needs_seed,
        )


# ------------------------------------------------ lobby


@dataclass(frozen=True, slots=True)
class TakeSeat(SeatCommand):
    """The actor (a signed-in user) sits at ``seat`` before the game starts; a seat kept
    for a friend needs the ``invitation`` secret of its link."""

    name: ClassVar[str] = "take_seat"
    invitation: object = field(default=None, repr=False)  # a secret: never in a log line

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_take_seat(state, who, seat, self.invitation)


#: Bytes of randomness in a seat invitation's secret (256 bits, URL-safe base64 text).
INVITATION_BYTES = 32


@dataclass(frozen=True, slots=True)
class _InvitationCommand(SeatCommand):
    """A command of the creator's about a seat kept for a friend: a fresh secret (or none,
    to revoke) is written beside the event, in its transaction, while the stream keeps
    only the secret's digest."""

    def _run_with_new_secret(
        self, actor: Actor, expected_version: object, command_id: object, decide: Any
    ) -> CommandResult:
        """Run ``decide(state, who, seat, digest)`` with a fresh secret, kept if it passes."""
        secret = secrets.token_urlsafe(INVITATION_BYTES)
        digest = invitation_digest(secret)
        return self._run_with_secret(
            actor,
            expected_version,
            command_id,
            lambda state, who, seat: decide(state, who, seat, digest),
            secret,
        )

    def _run_with_secret(
        self,
        actor: Actor,
        expected_version: object,
        command_id: object,
        decide: Any,
        secret: str | None,
    ) -> CommandResult:
        seat = _seat(self.seat)
        who = actor_ref(actor)
        table_uuid = parse_table_id(self.table_id)

        def keep_secret() -> None:
            if secret is None:
                SeatInvitation.objects.filter(table_id=table_uuid, seat=seat).delete()
            else:
                SeatInvitation.objects.update_or_create(
                    table_id=table_uuid, seat=seat, defaults={"secret": secret}
                )

        return run_command(
            table_uuid,
            actor,
            lambda state, _seed: decide(state, who, seat),
            expected_version=expected_version,
            command_id=command_id,
            after_append=keep_secret,
        )


@dataclass(frozen=True, slots=True)
class ReserveSeat(_InvitationCommand):
    """The table's creator keeps a free human ``seat`` for a friend: a fresh invitation
    secret is made, and only its link seats anyone there."""

    name: ClassVar[str] = "reserve_seat"

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        return self._run_with_new_secret(
            actor, expected_version, command_id, decisions.decide_reserve_seat
        )


@dataclass(frozen=True, slots=True)
class ReissueInvitation(_InvitationCommand):
    """The creator replaces the invitation of a kept seat: the old link stops working."""

    name: ClassVar[str] = "reissue_invitation"

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        return self._run_with_new_secret(
            actor, expected_version, command_id, decisions.decide_reissue_invitation
        )


@dataclass(frozen=True, slots=True)
class RevokeInvitation(_InvitationCommand):
    """The creator revokes a kept seat's invitation; the seat stays kept until a new one
    is issued."""

    name: ClassVar[str] = "revoke_invitation"

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        return self._run_with_secret(
            actor,
            expected_version,
            command_id,
            decisions.decide_revoke_invitation,
            None,
        )


@dataclass(frozen=True, slots=True)
class LeaveSeat(SeatCommand):
    """The actor stands up from ``seat`` before the game starts."""

    name: ClassVar[str] = "leave_seat"

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_leave_seat(state, who, seat)


@dataclass(frozen=True, slots=True)
class StartGame(TableCommand):
    """Start play: commits to a fresh secret seed and deals hand 1 from it.

    The creator, a seated player, staff or the system may start; every human seat must be
    taken.  ``first_dealer`` defaults to a random seat.
    """

    name: ClassVar[str] = "start_game"
    first_dealer: object = None

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        dealer = secrets.randbelow(4) if self.first_dealer is None else _seat(self.first_dealer)
        who = actor_ref(actor)
        table_uuid = parse_table_id(self.table_id)
        fresh = secrets.token_hex(32)
        # A table created with its own seed given (``create_table(own_seed=...)``: a
        # revealed duplicate board played again) kept it at creation; one read by key.
        given = TableSecret.objects.filter(table_id=table_uuid).values_list("seed", flat=True)
        own = given.first()
        kept: dict[str, bool] = {}

        def decide(state: TableState, held: str | None) -> list[ev.DomainEvent]:
            # A table dealing a round's boards was given its seed when it was created.
            kept["fresh"] = held is None and own is None
            seed = held if held is not None else own if own is not None else fresh
            return decisions.decide_start(state, who, first_dealer=dealer, seed=seed)

        def keep_secret() -> None:
            # Written with the events, in the same transaction, and never updated.
            if kept.get("fresh", True):
                TableSecret.objects.create(
                    table_id=table_uuid, seed=fresh, commitment=seed_commitment(fresh)
                )

        return run_command(
            table_uuid,
            actor,
            decide,
            expected_version=expected_version,
            command_id=command_id,
            needs_seed=lambda state: state.deals_from_boards,
            after_append=keep_secret,
        )


@dataclass(frozen=True, slots=True)
class RevealDeals(TableCommand):
    """Reveal the held-back seed of a table that dealt a duplicate round's boards: the
    system only (its owner, once no other table can still be playing those boards). Not
    an API operation."""

    name: ClassVar[str] = "reveal_deals"

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        who = actor_ref(actor)
        return run_command(
            self.table_id,
            actor,
            lambda state, seed: decisions.decide_reveal_deals(state, who, seed or ""),
            expected_version=expected_version,
            command_id=command_id,
            needs_seed=lambda state: True,
        )


# ------------------------------------------------ play


@dataclass(frozen=True, slots=True)
class LookAtCards(SeatCommand):
    """A seat that may bid blind nil looks at its cards (and so gives blind nil up)."""

    name: ClassVar[str] = "look_at_cards"

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_look(state, who, seat)


@dataclass(frozen=True, slots=True)
class PlaceBid(SeatCommand):
    """A bid for ``seat``: 0-13, ``"nil"`` or ``"blind_nil"`` (before looking)."""

    name: ClassVar[str] = "place_bid"
    bid: object

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_bid(state, who, seat, self.bid)


@dataclass(frozen=True, slots=True)
class PassCards(SeatCommand):
    """Two cards from ``seat`` to its partner after a blind nil bid."""

    name: ClassVar[str] = "pass_cards"
    cards: Sequence[object]

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_pass(state, who, seat, self.cards)


@dataclass(frozen=True, slots=True)
class PlayCard(SeatCommand):
    """A card for ``seat``; the hand's last card also appends the next deal or the reveal."""

    name: ClassVar[str] = "play_card"
    card: object

    def needs_seed(self, state: TableState) -> bool:
        # Only the hand's last card: it appends the next deal (or the reveal) with it.
        return decisions.play_needs_seed(state)

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_play(state, who, seat, self.card, seed)


# ------------------------------------------------ seats during play


@dataclass(frozen=True, slots=True)
class TurnTimedOut(SeatCommand):
    """The turn timer ran out on ``seat`` (the actor is ``SystemActor("timer")``): the
    timeout is recorded and a bot of ``level`` plays the seat until its player takes it
    back.  Give the ``expected_version`` the deadline was computed for, so a move that
    arrived meanwhile wins."""

    name: ClassVar[str] = "turn_timed_out"
    level: str = "normal"

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_timeout(state, who, seat, self.level)


@dataclass(frozen=True, slots=True)
class HandSeatToBot(SeatCommand):
    """The seat's player lets a bot of ``level`` play for them."""

    name: ClassVar[str] = "hand_seat_to_bot"
    level: str = "normal"

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_hand_to_bot(state, who, seat, self.level)


@dataclass(frozen=True, slots=True)
class TakeSeatBack(SeatCommand):
    """The seat's player plays it again after a bot stood in."""

    name: ClassVar[str] = "take_seat_back"

    def decide(
        self, state: TableState, who: ActorRef, seat: int, seed: str | None
    ) -> list[ev.DomainEvent]:
        return decisions.decide_take_back(state, who, seat)


@dataclass(frozen=True, slots=True)
class AbandonTable(TableCommand):
    """Give the table up before its game ends (``TableAbandoned``): its creator, while no
    other person sits at it, or the scheduler (``SystemActor("scheduler")``) for an idle
    all-bot table.  Bots stop; the table no longer counts against its creator's quota."""

    name: ClassVar[str] = "abandon_table"

    def run(self, actor: Actor, expected_version: object, command_id: object) -> CommandResult:
        who = actor_ref(actor)
        return run_command(
            self.table_id,
            actor,
            lambda state, _seed: decisions.decide_abandon(state, who),
            expected_version=expected_version,
            command_id=command_id,
        )


# Every command to an existing table, by its use case's name.
COMMANDS: dict[str, type[TableCommand]] = {
    command.name: command
    for command in (
        TakeSeat,
        ReserveSeat,
        ReissueInvitation,
        RevokeInvitation,
        LeaveSeat,
        StartGame,
        LookAtCards,
        PlaceBid,
        PassCards,
        PlayCard,
        TurnTimedOut,
        HandSeatToBot,
        TakeSeatBack,
        AbandonTable,
    )
}


def _seat(seat: object) -> int:
    try:
        return parse_seat_arg(seat)
    except IllegalMove as error:
        raise refusal(error) from None


# ---------------------------------------------------------------- a new table


def created_table_id(actor: Actor, command_id: str) -> uuid.UUID:
    """The id of the table ``actor`` creates with ``command_id``: known before it exists,
    so a caller can record it first (a competition's round) and a retry lands on it."""
    return uuid.uuid5(CREATE_NAMESPACE, f"{actor_ref(actor).user_id}:{command_id}")


def create_table(
    *,
    actor: Actor,
    rules: str | dict[str, Any] | None = None,
    preset: str | None = None,
    seats: dict[Any, Any] | None = None,
    turn_timer_seconds: int | None = None,
    command_id: str | None = None,
    preset_version: int | None = None,
    spectator_delay_tricks: int = 0,
    owner: dict[str, Any] | None = None,
    deal_seed: str | None = None,
    boards: int | None = None,
    own_seed: str | None = None,
) -> CommandResult:
    """A new table in the lobby. ``rules``: a preset name or ``{"preset": NAME, **overrides}``
    (``preset`` is the same as ``rules=NAME``); the preset version and the full rules
    snapshot are pinned in ``TableCreated``.  ``seats``: ``{seat: {"kind": "human"|"bot",
    "level": "easy"|"normal"|"hard"}}``, missing seats are human.  ``spectator_delay_tricks``
    (0 to 13, 0 by default: live): how many completed tricks behind play spectators see the
    table (``games.selectors.visibility``); seated players always see it live.
    ``deal_seed`` with ``boards``: the table deals boards 1..``boards`` of the duplicate
    round with that (secret) seed instead of a fresh seed of its own; the seed is kept now
    (``TableSecret``) and revealed only by ``RevealDeals``.
    ``own_seed``: the seed the table deals from as its own (``deals`` null) instead of a
    fresh one, kept now and committed at the start as any own seed; only a *revealed*
    duplicate board's seed (``board_seed``) is ever given here, so that hand 1 is that
    board (``leagues.services.board_again``; not an API field).
    """
    if own_seed is not None and deal_seed is not None:
        raise CommandRejected("bad_deals", "Give a table its own seed or a round's, not both.")
    who = actor_ref(actor)
    if who.kind == "anonymous":
        raise CommandRejected("players_only", "Sign in to create a table.", 403)
    cid = check_command_id(command_id)
    if rules is not None and preset is not None:
        raise CommandRejected("rules_and_preset", "Give either rules or preset, not both.")
    spec = rules if rules is not None else preset
    try:
        resolved = resolve(spec, preset_version)
    except RulesError as error:
        raise CommandRejected("bad_rules", in_words(str(error))) from None
    # With a command id the table's id derives from it, so a retry lands on the same stream
    # and the store's per-stream idempotency answers it.
    table_id = uuid.uuid4() if cid is None else created_table_id(actor, cid)
    state = TableState()
    try:
        domain_events = decisions.decide_create(
            state,
            rules=resolved.rules,
            preset_name=resolved.preset_name,
            preset_version=resolved.preset_version,
            seats=seats,
            turn_timer_seconds=turn_timer_seconds,
            created_by=who.user_id,
            spectator_delay_tricks=spectator_delay_tricks,
            owner=owner,
            boards=None if deal_seed is None else (boards or 0, seed_commitment(deal_seed)),
        )
    except IllegalMove as error:
        raise refusal(error) from None
    with transaction.atomic():
        # A retried creation (its table exists) is answered below, not counted again.
        retried = cid is not None and Table.objects.filter(id=table_id).exists()
        if who.user_id is not None and not retried:
            check_table_quota(who.user_id, state)
        try:
            result = append(
                table_stream_id(table_id), 0, new_events(domain_events, actor), command_id=cid
            )
        except WrongExpectedVersion:  # pragma: no cover - only a uuid5 collision gets here
            raise CommandRejected("table_exists", "That table exists already.", 409) from None
        if result.duplicate:
            return command_result(table_id, result)
        create_row(table_id, state, result.events[-1].recorded_at)
        kept_seed = deal_seed if deal_seed is not None else own_seed
        if kept_seed is not None:
            TableSecret.objects.create(
                table_id=table_id, seed=kept_seed, commitment=seed_commitment(kept_seed)
            )
        put_back(table_id, state, result.events[-1].hash, committed=False)
    return command_result(table_id, result)
