"""Loading a competition (or a league) and appending its events: the one write path of
leagues, and the organisers' use case built on it (:func:`as_organiser`).

Names and reasons people type go into the events by reference (``erasable_store.kept``
on every append here) and come back out through the fold's ``texts``, one query per
load (:func:`fold_competition`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction

from eventstore.erasable import ErasableText
from eventstore.erasable_store import kept, texts_of
from eventstore.errors import WrongExpectedVersion
from eventstore.reading import read_stream
from eventstore.recorder import append
from eventstore.records import AppendResult, NewEvent, StoredEvent
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import require_organiser
from leagues.domain.league import LeagueState
from leagues.domain.schedule import next_due
from leagues.domain.state import CompetitionState
from leagues.models import Competition as CompetitionRow

RETRIES = 3


def parse_id(value: object, what: str = "competition") -> str:
    try:
        return str(uuid.UUID(str(value)))
    except ValueError:
        raise LeagueError(f"unknown_{what}", f"There is no such {what}.") from None


def fold_competition(events: Sequence[StoredEvent]) -> CompetitionState:
    """``events`` folded with their typed texts resolved (one query, none when no event
    refers to one)."""
    return CompetitionState.fold(events, texts=texts_of(ev.typed_values(events)))


def load(competition_id: object) -> CompetitionState:
    """The competition's folded state (an empty state when there is no such stream)."""
    return fold_competition(read_stream(ev.competition_stream_id(parse_id(competition_id))))


def load_league(league_id: object) -> LeagueState:
    """The league's folded state (``exists`` False when there is no such stream)."""
    lid = parse_id(league_id, "league")
    events = read_stream(ev.league_stream_id(lid))
    return LeagueState.fold(lid, events, texts=texts_of(ev.typed_values(events)))


def append_kept(stream: str, version: int, new: Sequence[NewEvent], **options: Any) -> AppendResult:
    """``append`` with the typed texts of ``new`` kept by reference, in the caller's
    transaction. A command appended before (a retry: nothing appended) keeps no text:
    its savepoint is rolled back."""
    if not any(isinstance(value, ErasableText) for value in ev.typed_values(new)):
        return append(stream, version, new, **options)
    with transaction.atomic():
        result = append(stream, version, kept(new), **options)
        if result.duplicate:
            transaction.set_rollback(True)
    return result


def append_league(league_id: str, version: int, events: Sequence[NewEvent]) -> None:
    """Append to a league's stream (typed texts kept, in the caller's transaction)."""
    append_kept(ev.league_stream_id(league_id), version, events)


def _apply_new(state: CompetitionState, before: list[StoredEvent], new: list[StoredEvent]) -> None:
    """Apply appended events, first resolving the texts they refer to (kept just now)."""
    if any(not isinstance(value, str) for value in ev.typed_values(new)):
        before.extend(new)
        state.texts = texts_of(ev.typed_values(before))
    else:
        before.extend(new)
    for stored in new:
        state.apply(stored)


def actor_of(user: Any) -> dict[str, Any]:
    if user is None or not getattr(user, "is_authenticated", False):
        return {"kind": "system", "name": "leagues"}
    return {"kind": "user", "user_id": user.pk}


def user_id_of(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


def _status(state: CompetitionState) -> str:
    if state.finished:
        return "finished"
    return "running" if state.rounds else "registration"


def execute(
    competition_id: object,
    decide: Callable[[CompetitionState], list[NewEvent]],
    *,
    command_id: str | None = None,
    after: Callable[[CompetitionState, list[StoredEvent]], None] | None = None,
) -> tuple[CompetitionState, list[StoredEvent], bool]:
    """Fold, decide, append at the folded version; retried when another command got in
    first (the decision is made again against the new state). ``after`` runs in the
    same transaction (secrets and read-model rows commit with the events)."""
    cid = parse_id(competition_id)
    stream = ev.competition_stream_id(cid)
    for attempt in range(RETRIES):
        with transaction.atomic():
            history = read_stream(stream)
            state = fold_competition(history)
            new = decide(state)
            try:
                result = append_kept(
                    stream,
                    state.version,
                    new,
                    command_id=command_id,
                    expected_hash=history[-1].hash if history else None,
                )
            except WrongExpectedVersion:
                if attempt == RETRIES - 1:
                    raise
                continue
            if result.duplicate:
                return state, result.events, True
            _apply_new(state, list(history), result.events)
            if after is not None:
                after(state, result.events)
            _save_row(cid, state)
            return state, result.events, False
    raise AssertionError("unreachable")  # pragma: no cover


Decide = Callable[[CompetitionState], list[NewEvent]]


def execute_each(
    competition_id: object,
    commands: Sequence[tuple[str | None, Decide]],
    *,
    after: Callable[[CompetitionState, list[StoredEvent]], None] | None = None,
    after_all: Callable[[CompetitionState], object] | None = None,
) -> list[list[StoredEvent] | LeagueError]:
    """Several commands against one fold, in one transaction: each ``(command_id,
    decide)`` is decided against the state the ones before it left and appended with its
    own command id (a known one appends nothing, as with :func:`execute`); ``after`` runs
    after each append, ``after_all`` once after the last (when any appended), both in
    the transaction. A refusal (:class:`LeagueError`) is that command's outcome and
    writes nothing; the others go on. Another writer getting in first rolls the whole
    batch back and it is decided again from a new fold.

    For a burst of commands on one competition (the match-results projection's pending
    results): one read and fold, one read-model write and one commit instead of one each.
    """
    cid = parse_id(competition_id)
    stream = ev.competition_stream_id(cid)
    for attempt in range(RETRIES):
        outcomes: list[list[StoredEvent] | LeagueError] = []
        try:
            with transaction.atomic():
                history = read_stream(stream)
                state = fold_competition(history)
                appended = False
                for command_id, decide in commands:
                    try:
                        new = decide(state)
                    except LeagueError as refusal:
                        outcomes.append(refusal)
                        continue
                    result = append_kept(
                        stream,
                        state.version,
                        new,
                        command_id=command_id,
                        expected_hash=state.head_hash,
                    )
                    outcomes.append(result.events)
                    if result.duplicate:
                        continue
                    _apply_new(state, history, result.events)
                    appended = True
                    if after is not None:
                        after(state, result.events)
                if appended:
                    _save_row(cid, state)
                    if after_all is not None:
                        after_all(state)
        except WrongExpectedVersion:
            if attempt == RETRIES - 1:
                raise
            continue
        return outcomes
    raise AssertionError("unreachable")  # pragma: no cover


def as_organiser(
    user: Any,
    competition_id: object,
    decide: Callable[[CompetitionState, int], list[NewEvent]],
    *,
    after: Callable[[CompetitionState, list[StoredEvent]], None] | None = None,
) -> CompetitionState:
    """The organisers' use case: ``decide(state, organiser id)`` for one of the
    competition's organisers (anyone else is refused, ``not_organiser``); ``after`` as
    for :func:`execute` (the competition's finish, in the same transaction)."""

    def checked(state: CompetitionState) -> list[NewEvent]:
        organiser = user_id_of(user)
        require_organiser(state, organiser)
        assert organiser is not None  # require_organiser refuses no one signed in
        return decide(state, organiser)

    return execute(competition_id, checked, after=after)[0]


def _save_row(cid: str, state: CompetitionState) -> None:
    """The competition's read-model row, in the append's transaction."""
    settings = state.settings
    assert settings is not None  # every appended stream starts with CompetitionCreated
    CompetitionRow.objects.update_or_create(
        id=cid,
        defaults={
            "name": settings.name,
            "kind": settings.kind,
            "league_id": settings.league_id,
            "season": settings.season,
            "division": settings.division,
            "organisers": state.organisers,
            "status": _status(state),
            "version": state.version,
            "entrants": len(state.entrants) + len(state.invitations) + len(state.open_partnerships),
            "due_at": next_due(state),
        },
    )
