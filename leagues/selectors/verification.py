"""Verifying a competition's pairings from its stored events alone."""

from __future__ import annotations

from typing import Any

from leagues.core.commitment import verify_round
from leagues.core.competition import Competition
from leagues.core.errors import LeagueError
from leagues.services.streams import load

from .competitions import manual_of


def verify_competition(competition_id: object) -> list[dict[str, Any]]:
    """Per paired round: the engine input must be what the events before it give, the
    revealed seed must give the committed hash and the published pairing.  Rounds not
    yet closed (seed secret) check the input only.  A round the organiser overrode is
    ``manual`` (by whom, why): its computed pairing (the one ``RoundPaired`` published)
    is still verified, and the rounds after it were paired from the override."""
    state = load(competition_id)
    if not state.exists:
        raise LeagueError("unknown_competition", "There is no such competition.")
    full = state.competition()
    checks = []
    for paired in state.rounds:
        before = Competition(
            full.settings,
            full.entrants,
            full.rounds[: paired.number - 1],
            tuple(r for r in full.results if r.sequence <= paired.results_version),
            full.awards,
            forbidden=state.forbidden_at.get(paired.number, ()),
        )
        problem = None
        try:
            # Rebuilt for the engine version the round was paired with: a round of an
            # older Swiss or knockout version still verifies (their ENGINE_VERSIONS).
            version = paired.input.get("engine_version")
            expected_input = before.next_round_input(
                paired.stage,
                paired.number,
                version if paired.input.get("engine") in ("swiss", "knockout") else None,
            )
        except (LeagueError, KeyError, ValueError) as error:
            expected_input, problem = None, f"cannot rebuild the input: {error}"
        if problem is None and expected_input != paired.input:
            problem = "the stored engine input is not what the earlier events give"
        manual = manual_of(state, paired.number)
        override = state.overrides.get(paired.number)
        computed = paired.pairing if override is None else override.computed
        if paired.seed is None:
            checks.append(
                {
                    "round": paired.number,
                    "ok": problem is None,
                    "problem": problem,
                    "revealed": False,
                    "manual": manual,
                }
            )
            continue
        verification = verify_round(
            paired.input, paired.seed, paired.commitment, computed.as_dict()
        )
        checks.append(
            {
                "round": paired.number,
                "ok": problem is None and verification.ok,
                "problem": problem or verification.problem,
                "revealed": True,
                "manual": manual,
            }
        )
    return checks
