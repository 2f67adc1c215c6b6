"""Creating a competition: its spec checked, its rules pinned, its league's consent.

The other use cases go by concept: :mod:`.registration` (entrants and their consent),
:mod:`.rounds` (pairing), :mod:`.results` (results, confirmations, forfeits,
corrections, stages), :mod:`.tables` (starting a round) and :mod:`.presence`. Every
one folds the stream, lets :mod:`leagues.domain.decisions` decide and appends the
events in one transaction; a refusal raises :class:`LeagueError` and writes nothing.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from eventstore.reading import read_stream
from games.engine.rules import RulesError
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.domain.decisions import CompetitionSpec, decide_create
from leagues.domain.league import require_league_organiser
from leagues.domain.settings import RulesPin
from leagues.domain.state import CompetitionState
from scoring.services.presets import resolve

from .quotas import check_new_competition
from .streams import actor_of, execute, load_league, parse_id, user_id_of


def pin_rules(spec: object) -> RulesPin:
    """The rule preset *version* a competition pins: name, version, overrides, snapshot."""
    if spec is None:
        spec = "standard"
    try:
        resolved = resolve(spec)
    except RulesError as error:
        raise LeagueError("bad_rules", str(error)) from None
    if resolved.rules.hands is not None:
        # One place says how long a match is: each table adds it from the match format.
        raise LeagueError(
            "bad_rules",
            "A competition's number of hands is its match_format's fixed_hands, not a rule: "
            "leave hands and extra_hands out of its rules.",
        )
    overrides = dict(spec) if isinstance(spec, Mapping) else {}
    overrides.pop("preset", None)
    return RulesPin(
        preset=resolved.preset_name,
        version=resolved.preset_version,
        overrides=overrides,
        snapshot=resolved.rules.to_dict(),
    )


def create_competition(
    user: Any,
    spec: CompetitionSpec,
    *,
    competition_id: str | None = None,
    named: Sequence[object] = (),
) -> CompetitionState:
    """A new tournament or season; the creator is its first organiser. A competition that
    names a league (``league_id``) joins it only when its creator organises that league.
    ``named``: who else may have its name erased (a division's default name holds its
    league's)."""
    organiser = user_id_of(user)
    if organiser is None:
        raise LeagueError("not_signed_in", "Sign in to create a competition.")
    if spec.league_id is not None:
        league = load_league(spec.league_id)
        require_league_organiser(league, organiser, "add a competition to it")
        spec = replace(spec, league_id=league.league_id)
    rules = pin_rules(spec.rules)
    deficit = int(rules.snapshot.get("blind_nil_min_deficit") or 0)
    if spec.duplicate is not None and rules.snapshot.get("blind_nil") and deficit > 0:
        # A board is scored from 0 to 0 (docs/leagues.md, "Board scoring"): blind nil from
        # a deficit would depend on the boards a table played before.
        raise LeagueError(
            "bad_rules",
            "A duplicate competition scores each board from 0 to 0: choose rules without "
            "blind nil, or with blind_nil_min_deficit 0.",
        )
    cid = parse_id(competition_id) if competition_id else str(uuid.uuid4())
    organisers = [organiser, *[u for u in spec.organisers if u != organiser]]

    def decide(state: CompetitionState) -> list[Any]:
        if state.exists:
            raise LeagueError("competition_exists", "That competition exists already.")
        check_new_competition(organiser)
        return decide_create(
            cid,
            spec,
            organisers=organisers,
            rules=rules,
            lots_seed=secrets.token_hex(16),
            actor=actor_of(user),
            named=named,
        )

    return execute(cid, decide, command_id="create")[0]


def events_of(competition_id: object) -> list[Any]:
    return read_stream(ev.competition_stream_id(parse_id(competition_id)))
