"""Organiser control of the pairings: pairs of entrants that must not meet, and a round's
pairing replaced by one the organiser writes (docs/leagues.md, "Organiser control")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from eventstore.records import NewEvent
from leagues.core.entrants import Entrant
from leagues.core.pairings import MAX_FORBIDDEN_PAIRS, Pairing, RoundPairing, forbidden_pair

from .. import events as ev
from .. import parsing as p
from ..state import CompetitionState
from .guards import paired_round, require

Actor = Mapping[str, Any]

#: An override names at most this many matches (a Swiss round pairs at most 4096).
MAX_OVERRIDE_MATCHES = 2048
FORBIDDEN_FIELDS = ("entrants", "reason")
OVERRIDE_FIELDS = ("matches", "byes", "reason")
MATCH_FIELDS = ("north_south", "east_west")


def _two_entrants(value: object) -> tuple[str, str]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise p.refuse("invalid", "entrants is a list of the two entrants' ids.")
    first, second = (p.entrant_id(x, "Each entrant") for x in value)
    if first == second:
        raise p.refuse("invalid", "Name two different entrants: one cannot be kept from itself.")
    return forbidden_pair(first, second)


@dataclass(frozen=True, slots=True)
class ForbiddenPairRequest:
    """Two entrants to keep apart (or to let meet again), with an optional reason."""

    entrants: tuple[str, str]
    reason: str = ""

    @classmethod
    def parse(cls, body: object) -> ForbiddenPairRequest:
        fields = p.body_of(body)
        p.known_fields(fields, FORBIDDEN_FIELDS)
        return cls(
            entrants=_two_entrants(p.required(fields, "entrants")),
            reason=p.text(fields.get("reason"), "reason", p.MAX_REASON),
        )


@dataclass(frozen=True, slots=True)
class OverrideRequest:
    """A round's pairing as the organiser writes it: matches in board order (each
    North-South then East-West), the bye if any, and the reason (required)."""

    matches: tuple[tuple[str, str], ...]
    byes: tuple[str, ...]
    reason: str

    @classmethod
    def parse(cls, body: object) -> OverrideRequest:
        fields = p.body_of(body)
        p.known_fields(fields, OVERRIDE_FIELDS)
        raw = p.required(fields, "matches")
        if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_OVERRIDE_MATCHES:
            raise p.refuse("invalid", f"matches is a list of 1 to {MAX_OVERRIDE_MATCHES} matches.")
        matches = []
        for number, item in enumerate(raw, start=1):
            match = p.body_of(item, f"Board {number}")
            p.known_fields(match, MATCH_FIELDS)
            matches.append(
                (
                    p.entrant_id(p.required(match, "north_south"), f"Board {number}'s North-South"),
                    p.entrant_id(p.required(match, "east_west"), f"Board {number}'s East-West"),
                )
            )
        byes = fields.get("byes") or []
        if not isinstance(byes, list) or len(byes) > 1:
            raise p.refuse("invalid", "byes is a list of at most one entrant (a Swiss round's).")
        return cls(
            matches=tuple(matches),
            byes=tuple(p.entrant_id(b, "The bye") for b in byes),
            reason=p.text(fields.get("reason"), "reason", p.MAX_REASON, empty=False),
        )

    def pairing(self, number: int) -> RoundPairing:
        return RoundPairing(
            number,
            tuple(Pairing(board, ns, ew) for board, (ns, ew) in enumerate(self.matches, start=1)),
            self.byes,
        )


def _entrant_or_invitation(state: CompetitionState, entrant_id: str) -> Entrant:
    invitation = state.invitations.get(entrant_id)
    if invitation is not None:
        return invitation.entrant
    entrant = state.entrants.get(entrant_id)
    if entrant is None:
        raise p.refuse("unknown_entrant", f"{entrant_id!r} is not an entrant of this competition.")
    return entrant


def _named(entrants: Sequence[Entrant]) -> list[str]:
    return [p for e in entrants for p in (*e.players, *([e.reserve] if e.reserve else []))]


def _names(state: CompetitionState, pair: tuple[str, str]) -> str:
    return " and ".join(_entrant_or_invitation(state, e).name or e for e in pair)


def decide_forbid(
    state: CompetitionState, *, request: ForbiddenPairRequest, organiser: int, actor: Actor
) -> list[NewEvent]:
    """``ForbiddenPairAdded``: the two entrants (entered or invited) are kept apart in
    every round paired from now on (a round already paired stays as it is)."""
    require(state)
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished.")
    pair = request.entrants
    entrants = [_entrant_or_invitation(state, e) for e in pair]
    if pair in state.forbidden:
        raise p.refuse("already_forbidden", f"{_names(state, pair)} are already kept apart.")
    if len(state.forbidden) >= MAX_FORBIDDEN_PAIRS:
        raise p.refuse(
            "too_many_forbidden_pairs",
            f"A competition keeps at most {MAX_FORBIDDEN_PAIRS} pairs apart: remove one first.",
        )
    return [
        ev.forbidden_pair_added(
            entrants=list(pair),
            organiser=organiser,
            reason=ev.typed(request.reason, ev.typist(actor), _named(entrants)),
            actor=actor,
        )
    ]


def decide_allow(
    state: CompetitionState, *, request: ForbiddenPairRequest, organiser: int, actor: Actor
) -> list[NewEvent]:
    """``ForbiddenPairRemoved``: the two may meet again from the next round paired."""
    require(state)
    if state.finished:
        raise p.refuse("competition_finished", "The competition is finished.")
    pair = request.entrants
    entrants = [_entrant_or_invitation(state, e) for e in pair]
    if pair not in state.forbidden:
        raise p.refuse("not_forbidden", f"{_names(state, pair)} are not kept apart.")
    return [
        ev.forbidden_pair_removed(
            entrants=list(pair),
            organiser=organiser,
            reason=ev.typed(request.reason, ev.typist(actor), _named(entrants)),
            actor=actor,
        )
    ]


def check_override(state: CompetitionState, number: int, request: OverrideRequest) -> RoundPairing:
    """The override as round ``number``'s pairing, or a refusal in words: the same
    entrants as the round it replaces, each exactly once, a bye only for an odd count."""
    paired = state.paired_round(number)
    assert paired is not None  # paired_round checked it
    playing = set(paired.pairing.entrants())
    seen: set[str] = set()
    named = [side for match in request.matches for side in match] + list(request.byes)
    for entrant in named:
        if entrant not in state.entrants:
            raise p.refuse("unknown_entrant", f"Entrant {entrant!r} is not in this competition.")
        if entrant not in playing:
            raise p.refuse(
                "not_in_round",
                f"Entrant {entrant!r} is not in round {number} (withdrawn, or not entered for it).",
            )
        if entrant in seen:
            raise p.refuse(
                "entrant_twice", f"Entrant {entrant!r} is named twice: each plays once a round."
            )
        seen.add(entrant)
    missing = sorted(playing - seen)
    if missing:
        raise p.refuse(
            "entrant_missing",
            f"Round {number} also has {', '.join(missing[:5])}"
            + ("..." if len(missing) > 5 else "")
            + ": every entrant of the round plays or has the bye.",
        )
    if len(request.byes) != len(playing) % 2:
        raise p.refuse(
            "bad_byes",
            f"Round {number} has {len(playing)} entrants: "
            + ("exactly one has the bye." if len(playing) % 2 else "nobody has a bye."),
        )
    return request.pairing(number)


def decide_override(
    state: CompetitionState,
    *,
    round_number: object,
    request: OverrideRequest,
    organiser: int,
    actor: Actor,
) -> list[NewEvent]:
    """``RoundPairingOverridden``: a Swiss round paired and not started yet (no table
    opened, no result recorded) gets the organiser's pairing instead of the engine's."""
    settings = require(state)
    number = paired_round(state, round_number)
    paired = state.paired_round(number)
    assert paired is not None
    if settings.core.stages[paired.stage].kind != "swiss":
        raise p.refuse(
            "override_not_swiss",
            "Only a Swiss round's pairing can be replaced: a round robin's schedule and a "
            "knockout's bracket are drawn whole.",
        )
    if number in state.closed:
        raise p.refuse("round_closed", f"Round {number} is closed.")
    if number in state.started:
        raise p.refuse(
            "round_started",
            f"Round {number}'s tables are open: its pairing can no longer be replaced.",
        )
    if state.reported_boards(number):
        raise p.refuse(
            "round_has_results",
            f"Round {number} has a result already: its pairing can no longer be replaced.",
        )
    pairing = check_override(state, number, request)
    if pairing == paired.pairing:
        raise p.refuse("same_pairing", f"That is round {number}'s pairing already.")
    return [
        ev.round_pairing_overridden(
            round_number=number,
            pairing=pairing.as_dict(),
            organiser=organiser,
            # About the round, not its players: erasable by the organiser who typed it.
            reason=ev.typed(request.reason, ev.typist(actor)),
            actor=actor,
        )
    ]
