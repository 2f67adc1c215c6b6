"""Organiser control in the domain, without a database: the requests refused naming
their field, the forbidden pairs folded (and as each round was paired), the override's
rules (a Swiss round paired and not started, every entrant once) and its fold."""

from __future__ import annotations

from typing import Any

import pytest

from leagues.domain import events as ev
from leagues.domain.decisions import (
    ForbiddenPairRequest,
    OverrideRequest,
    decide_allow,
    decide_forbid,
    decide_override,
    decide_pair,
)

from .test_domain import ORGANISER, Stored, Stream, refusal


def entered(count: int, **spec: Any) -> Stream:
    stream = Stream(**spec)
    for n in range(1, count + 1):
        stream.state.apply(
            Stored(
                ev.ENTRANT_REGISTERED,
                {
                    "entrant_id": f"e{n}",
                    "players": [str(10 * n), str(10 * n + 1)],
                    "reserve": None,
                    "name": f"Team {n}",
                    "rating": 0,
                },
                stream.state.version + 1,
            )
        )
    return stream


@pytest.mark.parametrize(
    ("parse", "body", "words"),
    [
        (ForbiddenPairRequest.parse, {}, "entrants is required"),
        (ForbiddenPairRequest.parse, {"entrants": "e1"}, "list of the two"),
        (ForbiddenPairRequest.parse, {"entrants": ["e1", "e1"]}, "two different"),
        (ForbiddenPairRequest.parse, {"entrants": ["e1", "e2"], "reason": 5}, "reason"),
        (OverrideRequest.parse, {"reason": "r"}, "matches is required"),
        (OverrideRequest.parse, {"matches": [], "reason": "r"}, "1 to 2048"),
        (OverrideRequest.parse, {"matches": [{"north_south": "e1"}], "reason": "r"}, "east_west"),
        (
            OverrideRequest.parse,
            {"matches": [{"north_south": "e1", "east_west": "e2"}], "byes": ["a", "b"]},
            "at most one",
        ),
        (OverrideRequest.parse, {"matches": [{"north_south": "e1", "east_west": "e2"}]}, "reason"),
    ],
)
def test_a_bad_body_is_refused_in_words(parse: Any, body: Any, words: str) -> None:
    refused = refusal(lambda: parse(body))
    assert refused.code == "invalid" and words in refused.message


def test_forbidden_pairs_fold_and_each_round_keeps_the_set_it_was_paired_with() -> None:
    stream = entered(4)
    request = ForbiddenPairRequest.parse({"entrants": ["e3", "e1"], "reason": "Siblings"})
    [added] = decide_forbid(stream.state, request=request, organiser=1, actor=ORGANISER)
    assert added.data["entrants"] == ["e1", "e3"] and added.data["organiser"] == 1
    state = stream.append([added])
    assert state.forbidden[("e1", "e3")].organiser == 1
    again = refusal(lambda: decide_forbid(state, request=request, organiser=1, actor=ORGANISER))
    assert again.code == "already_forbidden" and "Team 1 and Team 3" in again.message
    ghost = ForbiddenPairRequest.parse({"entrants": ["e1", "ghost"]})
    assert refusal(
        lambda: decide_forbid(state, request=ghost, organiser=1, actor=ORGANISER)
    ).code == ("unknown_entrant")
    events, _ = decide_pair(state, seed="s" * 16, actor=ORGANISER)
    stream.append(events)
    assert state.rounds[0].input["forbidden"] == [["e1", "e3"]]
    assert state.forbidden_at[1] == (("e1", "e3"),)
    stream.append(decide_allow(state, request=request, organiser=1, actor=ORGANISER))
    assert not state.forbidden and state.forbidden_at[1] == (("e1", "e3"),)
    assert refusal(
        lambda: decide_allow(state, request=request, organiser=1, actor=ORGANISER)
    ).code == ("not_forbidden")


def override(matches: list[tuple[str, str]], byes: list[str], reason: str = "Access") -> Any:
    return OverrideRequest.parse(
        {
            "matches": [{"north_south": a, "east_west": b} for a, b in matches],
            "byes": byes,
            "reason": reason,
        }
    )


def test_an_override_is_checked_against_its_round_then_folds_as_the_round() -> None:
    stream = entered(5)
    events, _ = decide_pair(stream.state, seed="s" * 16, actor=ORGANISER)
    state = stream.append(events)
    computed = state.rounds[0].pairing
    (a, b), (c, d) = [(m.north_south, m.east_west) for m in computed.matches]
    [bye] = computed.byes

    def decide(request: Any, number: object = 1) -> Any:
        return decide_override(
            state, round_number=number, request=request, organiser=1, actor=ORGANISER
        )

    cases = [
        (override([(a, c), (b, d)], []), "entrant_missing"),
        (override([(a, c), (b, a)], [d]), "entrant_twice"),
        (override([(a, c), (b, "ghost")], [bye]), "unknown_entrant"),
        (override([(a, c)], [bye]), "entrant_missing"),
        (override([(a, b), (c, d)], [bye]), "same_pairing"),
    ]
    for request, code in cases:
        assert refusal(lambda request=request: decide(request)).code == code
    assert refusal(lambda: decide(override([(a, c), (b, d)], [bye]), 2)).code == "unknown_round"

    [written] = decide(override([(a, c), (d, b)], [bye]))
    assert written.type == ev.ROUND_PAIRING_OVERRIDDEN and written.data["organiser"] == 1
    stream.append([written])
    assert [(m.north_south, m.east_west) for m in state.rounds[0].pairing.matches] == [
        (a, c),
        (d, b),
    ]
    assert state.overrides[1].computed == computed
    # A second override gives the bye to another: the award moves with it.
    stream.append(decide(override([(a, c), (d, bye)], [b])))
    assert [award.entrant for award in state.awards if award.round == 1] == [b]
    assert state.overrides[1].computed == computed

    stream.append(
        [
            ev.round_started(
                round_number=1,
                tables=[(1, "t1"), (2, "t2")],
                opened_at="2030-01-01T19:30:00+00:00",
                by="organiser",
                actor=ORGANISER,
            )
        ]
    )
    late = refusal(lambda: decide(override([(a, b), (c, d)], [bye])))
    assert late.code == "round_started" and "can no longer be replaced" in late.message


def test_only_a_swiss_round_is_overridden() -> None:
    stream = entered(4, stages=[{"kind": "round_robin"}])
    events, _ = decide_pair(stream.state, seed="s" * 16, actor=ORGANISER)
    state = stream.append(events)
    (a, b), (c, d) = [(m.north_south, m.east_west) for m in state.rounds[0].pairing.matches]
    refused = refusal(
        lambda: decide_override(
            state,
            round_number=1,
            request=override([(a, c), (b, d)], []),
            organiser=1,
            actor=ORGANISER,
        )
    )
    assert refused.code == "override_not_swiss"
