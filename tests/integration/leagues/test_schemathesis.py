"""The leagues API fuzzed from its own OpenAPI schema: no 5xx, and the decisions reached.

schemathesis generates requests for every leagues operation from the bodies the writes
declare (leagues/api/serializers.py), valid ones and invalid ones, and sends them
in-process to the WSGI app. A request that only ever met a 404 or a 400 would prove
little, so most of the time the ids in its path are pinned to a real competition (one
running, one taking registrations), entrant, proposal, round, result or league; the ids
of the people a body names to real users; and it is sent by one of the people who may do
it (the organiser, an invited player, a proposal's partner, a seated player). The test
asserts that no operation answered 5xx and that most were answered 2xx at least once.

SPADES_FUZZ_EXAMPLES=50 for a deeper run by hand (the default, 6 valid and 3 invalid
examples per operation, keeps the run near a minute).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from leagues.services import board_again
from leagues.services.duplicate import compute_round_par
from leagues.services.streams import load
from leagues.services.tables import start_round
from services.wsgi import application
from tests.factories import UserFactory
from tests.integration.api.test_schemathesis import (  # noqa: F401 - fixture
    wsgi_keeps_test_connection,
)
from tests.integration.leagues import builders as lg

from .conftest import entrants_of
from .test_board_again import reveal_round
from .test_services import play_round

pytestmark = pytest.mark.django_db

#: Examples per operation: valid ones, then invalid ones.
EXAMPLES = int(os.environ.get("SPADES_FUZZ_EXAMPLES", "6"))
NEGATIVE_EXAMPLES = max(2, EXAMPLES // 2)
LEAGUES_PATHS = ("/api/competitions", "/api/leagues", "/api/ratings", "/api/players/me")
#: The share of operations that must have been answered 2xx at least once.
MOST = 0.8


@pytest.fixture
def roomy(settings: Any) -> None:
    """Rate limits and quotas out of the way, so every example reaches its decision (they
    have tests of their own: test_throttles.py, test_quotas.py)."""
    settings.THROTTLE_RATES = {scope: "100000/min" for scope in settings.THROTTLE_RATES}
    settings.SPADES_MAX_OPEN_COMPETITIONS_PER_USER = 10_000
    settings.SPADES_MAX_ENTRANTS_PER_ORGANISER = 1_000_000
    settings.SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER = 100
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 1_000


def token(user: Any) -> str:
    return str(Token.objects.get_or_create(user=user)[0].key)


@pytest.fixture
def world(organiser: Any, swiss: Any, players: Callable[[int], list[Any]]) -> dict[str, Any]:
    """A running Swiss (round 1 played and closed, round 2 started at human tables), a
    competition taking registrations (an invited entrant, a proposal), a league, and who
    may act on each."""
    running = swiss(6, rounds=4)
    lg.pair_next_round(organiser, running)
    play_round(organiser, running, 1)
    lg.pair_next_round(organiser, running)
    start_round(organiser, running, 2)
    state = load(running)
    first_match = state.paired_round(2).pairing.matches[0]  # type: ignore[union-attr]
    seated = lg.user(state.players_in(first_match.north_south, 2)[0])
    in_result = lg.user(state.players_in(state.results[0].north_south, 1)[0])

    open_ = lg.create_competition(organiser, {"name": "Open entry"}).competition_id
    invited = players(2)
    lg.register(organiser, open_, entrant_id="inv", players=[str(u.pk) for u in invited])
    for entrant in entrants_of(players(4)):
        lg.enter(organiser, open_, **entrant)
    proposer, partner = players(2)
    _, proposal = lg.propose_partnership(proposer, open_, partner=str(partner.pk))
    league = lg.create_league(organiser, {"name": "Thursday Club"})["id"]
    # A duplicate competition whose round 1 is open (no worker: its bots never move).
    duplicate = lg.create_competition(
        organiser,
        {
            "name": "Duplicate",
            "bot_level": "easy",
            "stages": [{"kind": "round_robin"}],
            "duplicate": {"boards_per_round": 2, "movement": "teams_of_four"},
        },
    ).competition_id
    for entrant in entrants_of(players(8)):
        lg.enter(organiser, duplicate, **entrant)
    lg.pair_next_round(organiser, duplicate)
    start_round(organiser, duplicate, 1)
    # The same, its round revealed from recorded results and its par computed: a board
    # to play again (one table played again already) and a par play to replay.
    revealed = lg.create_competition(
        organiser,
        {
            "name": "Duplicate revealed",
            "stages": [{"kind": "round_robin"}],
            "duplicate": {"boards_per_round": 2, "movement": "teams_of_four", "par_plays": 1},
        },
    ).competition_id
    for entrant in entrants_of(players(8)):
        lg.enter(organiser, revealed, **entrant)
    lg.pair_next_round(organiser, revealed)
    start_round(organiser, revealed, 1)
    compute_round_par(revealed, 1)
    reveal_round(revealed)
    again_table = str(board_again.play_board_again(organiser, revealed, 1, 1, "south").table_id)
    actors = [organiser, invited[0], partner, seated, in_result]
    return {
        "revealed": revealed,
        "again_table": again_table,
        "running": running,
        "open": open_,
        "duplicate": duplicate,
        "entrants": {
            running: ["e1", "e2", "e3", "e4", "e5", "e6"],
            open_: ["inv", "e1", "e2"],
            duplicate: ["e1", "e2", "e3", "e4"],
            revealed: ["e1", "e2", "e3", "e4"],
        },
        "proposal": proposal,
        "results": [result.id for result in state.results],
        "league": league,
        "players": [str(user.pk) for user in actors],
        "tokens": [token(user) for user in actors],
        # Who may do what (the organiser does the rest).
        "organiser": token(organiser),
        "invited": token(invited[0]),
        "partner": token(partner),
        "seated": token(seated),
        "in_result": token(in_result),
    }


def _fresh_user() -> str:
    return str(UserFactory().pk)


#: route ending -> (the competition, the one who may act)
ROLES = {
    "/accept": ("open", "invited"),
    "/decline": ("open", "invited"),
    "/leave": ("open", "invited"),
    "/confirm": ("open", "partner"),  # a partnership's; a result's is below
    "/arrive": ("running", "seated"),
    "/entrants": ("open", "organiser"),
    "/late-entrants": ("running", "organiser"),
    "/partnerships": ("open", "partner"),
}


def pin(case: Any, world: dict[str, Any], data: st.DataObject) -> str:
    """Point the case's ids at real things, the people its body names at real users, and
    answer the token of the one who may send it."""
    route = case.operation.path
    competition, actor = next(
        (roles for ending, roles in ROLES.items() if route.endswith(ending)),
        (data.draw(st.sampled_from(["running", "open"])), "organiser"),
    )
    if "/results/" in route:
        competition, actor = "running", "in_result" if route.endswith("/confirm") else "organiser"
    if route.endswith("/duplicate") or "/boards" in route:
        competition, actor = "duplicate", "organiser"
    if "/again" in route or "/par/" in route:
        competition = "revealed"
    path = case.path_parameters or {}
    cid = world[competition]
    choices = {
        "competition_id": [cid],
        "entrant_id": ["inv"] if actor == "invited" else world["entrants"][cid],
        "proposal_id": [world["proposal"]],
        "result_id": world["results"],
        "number": [2] if competition == "running" else [1],
        "board": [1, 2],
        "league_id": [world["league"]],
        "player": world["players"],
        "table_id": [world["again_table"]],
        "play": [1],
    }
    for name, options in choices.items():
        if name in path:
            path[name] = data.draw(st.sampled_from(options))
    body = case.body
    if not isinstance(body, dict):
        return str(world[actor])
    if route.endswith(("/entrants", "/late-entrants")):
        body.pop("usernames", None)
        body["players"] = [_fresh_user(), _fresh_user()]
        body.pop("reserve", None)
    elif route.endswith("/partnerships"):
        body["partner"] = _fresh_user()
    elif route.endswith("/substitute"):
        entrant = load(cid).entrants.get(path["entrant_id"])
        if entrant is not None:
            body["player_out"] = int(entrant.players[0])
        body.pop("username_in", None)
        body["player_in"] = _fresh_user()
    elif route.endswith("/results") and "board" in body:
        body["board"] = data.draw(st.integers(1, 3))
        if not {"points", "scoresheet", "forfeited_by"} & set(body):
            body["points"] = {"north_south": 120, "east_west": 40}
    elif "/forbidden-pairs" in route and "entrants" in body:
        # Two entrants kept apart already (to remove), or not yet (to add).
        kept = sorted(load(cid).forbidden)
        ids = world["entrants"][cid]
        free = [(a, b) for a in ids for b in ids if a < b and (a, b) not in kept]
        options = kept if route.endswith("/remove") and kept else free
        body["entrants"] = list(data.draw(st.sampled_from(options)))
    elif route == "/api/competitions":
        for name in ("league_id", "organisers", "season", "division"):
            body.pop(name, None)
    return str(world[actor])


@pytest.fixture
def leagues_schema(roomy: None, wsgi_keeps_test_connection: None) -> Iterator[Any]:  # noqa: F811
    yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


def test_the_leagues_api_answers_no_5xx_and_reaches_its_decisions(
    leagues_schema: Any, world: dict[str, Any]
) -> None:
    operations = [
        result.ok()
        for result in leagues_schema.get_all_operations()
        if result.ok().path.startswith(LEAGUES_PATHS)
    ]
    assert len(operations) >= 25, [operation.label for operation in operations]
    answered: dict[str, set[int]] = {operation.label: set() for operation in operations}
    said: dict[str, list[str]] = {operation.label: [] for operation in operations}
    failures: list[str] = []

    for operation in operations:
        for mode, examples in (
            (schemathesis.GenerationMode.POSITIVE, EXAMPLES),
            (schemathesis.GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES),
        ):

            @given(
                case=operation.as_strategy(generation_mode=mode),
                real=st.integers(0, 3),
                actor=st.sampled_from(world["tokens"]),
                data=st.data(),
            )
            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                # The same examples every run: "most operations reached 2xx" is no coin toss.
                derandomize=True,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            def run(case: Any, real: int, actor: str, data: st.DataObject) -> None:
                if real:  # three times in four
                    actor = pin(case, world, data)
                response = case.call(headers={"Authorization": f"Token {actor}"})
                answered[case.operation.label].add(response.status_code)
                if response.status_code >= 400 and len(said[case.operation.label]) < 3:
                    said[case.operation.label].append(
                        f"{response.status_code} {response.text[:150]} <- {str(case.body)[:150]}"
                    )
                case.validate_response(response, checks=[not_a_server_error])

            try:
                run()
            except Unsatisfiable:
                # Nothing to make invalid (no body, query or typed path): negative mode is moot.
                assert mode is schemathesis.GenerationMode.NEGATIVE, operation.label
            except (Exception, BaseExceptionGroup) as error:  # report every operation's failure
                failures.append(f"{operation.label} [{mode}]: {error}")

    assert not failures, "\n\n".join(failures)
    never = sorted(
        f"{label}: {sorted(statuses)} " + "\n      ".join(said[label])
        for label, statuses in answered.items()
        if not any(200 <= status < 300 for status in statuses)
    )
    print(f"operations never answered 2xx ({len(never)} of {len(answered)}):", *never, sep="\n  ")
    assert len(never) <= (1 - MOST) * len(answered), never
