"""The leagues domain without a database: typed requests parsed from bodies (every
refusal names its field), one builder per event checked against its schema, the typed
settings, the fold of every schema version, invitations and confirmations, the pools a
result feeds, and the withdrawal check the API and the file reader share."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.core.entrants import Entrant
from leagues.core.errors import LeagueError
from leagues.core.results import MatchResult
from leagues.core.withdrawals import check_result_after_withdrawal
from leagues.domain import events as ev
from leagues.domain.decisions import (
    CompetitionSpec,
    CorrectionRequest,
    EntrantRequest,
    ForfeitRequest,
    PairRequest,
    ProposalRequest,
    ReasonRequest,
    ResultRequest,
    SubstitutionRequest,
    decide_accept,
    decide_confirm_result,
    decide_create,
    decide_decline,
    decide_leave,
    decide_pair,
    decide_register,
    decide_result,
    parse_result_request,
)
from leagues.domain.league import LeagueSpec, SeasonRequest
from leagues.domain.pools import SITE_POOL, league_pool, parse_pool, pools_fed
from leagues.domain.settings import CompetitionSettings, RulesPin
from leagues.domain.state import CompetitionState

ORGANISER = {"kind": "user", "user_id": 1}
RULES = RulesPin("standard", 1, {}, {"target_score": 500})
NOW = datetime(2030, 1, 1, tzinfo=UTC)


@dataclass
class Stored:
    """An event as the fold reads it (what the store hands back)."""

    type: str
    data: dict[str, Any]
    version: int
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


class Stream:
    """A competition stream in memory: decide, then fold what was decided."""

    def __init__(self, **spec: Any) -> None:
        self.state = CompetitionState()
        self.append(
            decide_create(
                "c1",
                CompetitionSpec.parse({"name": "Club", **spec}),
                organisers=[1],
                rules=RULES,
                lots_seed="ab" * 8,
                actor=ORGANISER,
            )
        )

    def append(self, events: list[Any]) -> CompetitionState:
        for new in events:
            self.state.apply(Stored(new.type, new.data, self.state.version + 1, new.schema_version))
        return self.state


def refusal(call: Any) -> LeagueError:
    with pytest.raises(LeagueError) as refused:
        call()
    return refused.value


# ---------------------------------------------------------------- requests


@pytest.mark.parametrize(
    ("parse", "body", "named"),
    [
        (EntrantRequest.parse, {}, "entrant_id is required"),
        (EntrantRequest.parse, {"entrant_id": "e1"}, "players (two user ids) or usernames"),
        (EntrantRequest.parse, {"entrant_id": "e1", "players": ["1"]}, "players is a list"),
        (EntrantRequest.parse, {"entrant_id": "e1", "players": ["1", 2.5]}, "players[1]"),
        (EntrantRequest.parse, {"entrant_id": "e1", "usernames": ["a", ""]}, "usernames"),
        (EntrantRequest.parse, {"entrant_id": "e1", "pets": 2}, "Unknown field 'pets'"),
        (
            EntrantRequest.parse,
            {"entrant_id": "e1", "players": ["1", "2"], "name": "\ud800"},
            "name is a text",
        ),
        (EntrantRequest.parse, [], "body is a JSON object"),
        (ProposalRequest.parse, {}, "partner is required"),
        (SubstitutionRequest.parse, {"player_in": "3"}, "player_out is required"),
        (SubstitutionRequest.parse, {"player_out": "3"}, "player_in (a user id)"),
        (ReasonRequest.parse, {"reason": 5}, "reason is a text"),
        (parse_result_request, {}, "board is required"),
        (parse_result_request, {"board": 1}, "points is required"),
        (parse_result_request, {"board": 1, "points": {"north_south": 1}}, "points is"),
        (parse_result_request, {"board": 1, "forfeited_by": "west"}, "forfeited_by is"),
        (CorrectionRequest.parse, {"winner": "east_west"}, "reason is required"),
        (PairRequest.parse, {"round": "1"}, "round is a whole number"),
        (CompetitionSpec.parse, {"stages": [{"kind": "swiss"}]}, "name is a name"),
        (CompetitionSpec.parse, {"name": "x", "grace_minutes": 241}, "grace_minutes"),
        (CompetitionSpec.parse, {"name": "x", "colour": "red"}, "Unknown field 'colour'"),
        (LeagueSpec.parse, {"organisers": [1]}, "name is a name"),
        (SeasonRequest.parse, {"season": "2030", "divisions": ["a", "a"]}, "divisions"),
        (SeasonRequest.parse, {"season": "2030", "promote": {"from": 7}}, "promote.from"),
    ],
)
def test_a_bad_body_is_refused_naming_the_field(parse: Any, body: Any, named: str) -> None:
    error = refusal(lambda: parse(body))
    assert error.code in ("invalid", "bad_stages", "bad_scoresheet")
    assert named in error.message, error.message


def test_requests_are_built_from_a_validated_mapping() -> None:
    entrant = EntrantRequest.parse(
        {"entrant_id": "e1", "usernames": [" ann ", "bob"], "reserve": 7, "rating": None}
    )
    assert entrant == EntrantRequest("e1", None, ("ann", "bob"), "7", "", None)
    assert entrant.with_players(("1", "2")).players == ("1", "2")
    result = parse_result_request(
        {"board": 2, "points": {"north_south": 3, "east_west": 1}, "winner": "north_south"}
    )
    assert result == ResultRequest(2, {"north_south": 3, "east_west": 1}, "north_south")
    forfeit = parse_result_request({"board": 2, "forfeited_by": "both", "no_show": True})
    assert forfeit == ForfeitRequest(2, "both", True, "")
    assert PairRequest.parse({}).round is None


# ---------------------------------------------------------------- events and settings


def test_every_event_has_a_schema_and_a_builder_refuses_a_bad_payload() -> None:
    for type_, version in ev.SCHEMA_VERSIONS.items():
        with pytest.raises(ev.EventSchemaError):
            ev.validate_payload(type_, version, {"surprise": 1})
    with pytest.raises(ev.EventSchemaError, match="bad player"):
        ev.invitation_accepted(entrant_id="e1", player="", joined_round=None, actor=ORGANISER)
    with pytest.raises(ev.EventSchemaError, match="bad joined_round"):
        ev.invitation_accepted(entrant_id="e1", player="4", joined_round=0, actor=ORGANISER)
    built = ev.result_confirmed(
        result_id="r1-b1", player="4", side="east_west", rated=True, actor=ORGANISER
    )
    assert (built.type, built.schema_version) == (ev.RESULT_CONFIRMED, 1)
    assert built.metadata == {"actor": ORGANISER}


def test_the_settings_round_trip_and_an_old_payload_folds_with_defaults() -> None:
    stream = Stream(
        round_starts=["2030-01-01T19:30:00+00:00", None],
        bot_level="easy",
        registration_closes_at="2030-01-01T18:00:00+01:00",
        fixed_hands=2,
    )
    settings = stream.state.settings
    assert settings is not None
    assert CompetitionSettings.from_payload(settings.as_payload()) == settings
    assert settings.round_start(1) is not None and settings.round_start(2) is None
    assert settings.bots_play and settings.match_format.fixed_hands == 2
    old = settings.as_payload()
    for newer in ("spectator_delay_tricks", "bot_level", "bots_for_no_shows", "round_starts"):
        del old[newer]
    folded = CompetitionSettings.from_payload(old)
    assert (folded.spectator_delay_tricks, folded.bot_level, folded.round_starts) == (0, None, ())
    assert folded.core == settings.core


# ---------------------------------------------------------------- invitations


def registered(stream: Stream, entrant_id: str, players: tuple[str, str], by: str) -> None:
    request = EntrantRequest(entrant_id, players, rating=0)
    stream.append(decide_register(stream.state, request, registrar=by, now=NOW, actor=ORGANISER))


def test_an_invitation_waits_for_both_players_and_only_entered_entrants_pair() -> None:
    stream = Stream()
    registered(stream, "ab", ("2", "3"), by="1")
    registered(stream, "me", ("1", "4"), by="1")  # the organiser plays: only "4" is asked
    state = stream.state
    assert set(state.invitations) == {"ab", "me"} and not state.entrants
    assert state.invitations["me"].awaiting == {"4"}
    assert refusal(lambda: decide_pair(state, seed="s" * 16, actor=ORGANISER)).code == (
        "too_few_entrants"
    )
    assert refusal(lambda: decide_accept(state, entrant_id="ab", player="4", actor={})).code == (
        "not_invited"
    )
    stream.append(decide_accept(state, entrant_id="ab", player="2", actor={}))
    [accepted] = decide_accept(stream.state, entrant_id="ab", player="3", actor={})
    assert accepted.data["joined_round"] == 1
    stream.append([accepted])
    stream.append(decide_accept(stream.state, entrant_id="me", player="4", actor={}))
    assert set(stream.state.entrants) == {"ab", "me"} and not stream.state.invitations
    events, number = decide_pair(stream.state, seed="s" * 16, actor=ORGANISER)
    assert number == 1 and events[0].type == ev.ROUND_PAIRED


def test_declining_and_leaving_an_invitation_end_it() -> None:
    stream = Stream()
    registered(stream, "ab", ("2", "3"), by="1")
    [declined] = decide_decline(stream.state, entrant_id="ab", player="3", reason="", actor={})
    assert declined.type == ev.INVITATION_DECLINED
    stream.append([declined])
    assert not stream.state.invitations and stream.state.entrant_of_player("2") is None
    registered(stream, "ab2", ("2", "3"), by="1")
    [left] = decide_leave(stream.state, player="2", reason="", actor={})
    assert left.type == ev.INVITATION_DECLINED


def test_a_v1_registration_is_entered_at_once_and_its_players_consented() -> None:
    stream = Stream()
    state = stream.state
    state.apply(
        Stored(
            ev.ENTRANT_REGISTERED,
            {"entrant_id": "old", "players": ["5", "6"], "reserve": None, "name": "", "rating": 0},
            state.version + 1,
        )
    )
    assert "old" in state.entrants and {"5", "6"} <= state.consented


# ---------------------------------------------------------------- results and pools


def two_entrants_paired() -> Stream:
    stream = Stream(stages=[{"kind": "swiss", "rounds": 1}])
    for entrant_id, players in (("a", ("2", "3")), ("b", ("4", "5"))):
        registered(stream, entrant_id, players, by="1")
        for player in players:
            stream.append(
                decide_accept(stream.state, entrant_id=entrant_id, player=player, actor={})
            )
    events, _ = decide_pair(stream.state, seed="s" * 16, actor=ORGANISER)
    stream.append(events)
    return stream


def recorded(stream: Stream, source: str, bot: bool = False) -> MatchResult:
    stream.append(
        decide_result(
            stream.state,
            round_number=1,
            board=1,
            points={"north_south": 120, "east_west": 40},
            winner="north_south",
            source=source,
            seed="s" * 16,
            actor=ORGANISER,
            bot_substitute=bot,
        )
    )
    [result] = stream.state.results
    return result


def test_only_a_table_result_is_rated_as_recorded_and_a_typed_one_after_both_sides() -> None:
    assert recorded(two_entrants_paired(), "table").rated
    assert not recorded(two_entrants_paired(), "table", bot=True).rated
    stream = two_entrants_paired()
    typed = recorded(stream, "organiser")
    assert not typed.rated
    north = stream.state.players_in(typed.north_south, 1)
    [first] = decide_confirm_result(stream.state, result_id=typed.id, player=north[0], actor={})
    assert (first.data["side"], first.data["rated"]) == ("north_south", False)
    stream.append([first])
    assert (
        refusal(
            lambda: decide_confirm_result(
                stream.state, result_id=typed.id, player=north[1], actor={}
            )
        ).code
        == "already_confirmed"
    )
    east = stream.state.players_in(typed.east_west, 1)
    stream.append(decide_confirm_result(stream.state, result_id=typed.id, player=east[1], actor={}))
    assert stream.state.results[0].rated
    settings = stream.state.settings
    assert settings is not None
    assert pools_fed(settings, stream.state.results[0]) == [SITE_POOL]


def test_a_v1_result_feeds_the_site_pool_only_when_a_table_played_it() -> None:
    for source, rated in (("table", True), ("organiser", False), ("scoresheet", False)):
        stream = two_entrants_paired()
        state = stream.state
        state.apply(
            Stored(
                ev.MATCH_RESULT_RECORDED,
                {
                    "result_id": "r1-b1",
                    "round": 1,
                    "board": 1,
                    "north_south": "a",
                    "east_west": "b",
                    "points": {"north_south": 1, "east_west": 0},
                    "winner": "north_south",
                    "forfeited_by": None,
                    "no_show": False,
                    "bot_substitute": False,
                    "rated": True,
                    "source": source,
                },
                state.version + 1,
                schema_version=1,
            )
        )
        assert state.results[0].rated is rated, source


def test_a_league_competition_feeds_its_league_pool_whether_confirmed_or_not() -> None:
    stream = Stream(league_id="l1", kind="season", season="2030")
    settings = stream.state.settings
    assert settings is not None
    played = MatchResult("r", 1, 1, "a", "b", 1, 0, "north_south", rated=False)
    assert pools_fed(settings, played) == [league_pool("l1")]
    assert pools_fed(settings, MatchResult("r", 1, 1, "a", "b", 1, 0, "north_south")) == [
        league_pool("l1"),
        SITE_POOL,
    ]
    forfeit = MatchResult("r", 1, 1, "a", "b", 0, 0, "east_west", forfeited_by="north_south")
    assert pools_fed(settings, forfeit) == []
    assert parse_pool(None) == SITE_POOL
    uuid = "6c1f1f3e-4a8f-4d55-8d0b-3b8f7d5b9a10"
    assert parse_pool(f"league:{uuid.upper()}") == f"league:{uuid}"
    assert refusal(lambda: parse_pool("league:x")).code == "invalid"


# ---------------------------------------------------------------- withdrawals


@given(
    withdrawn=st.integers(0, 5),
    round_=st.integers(1, 8),
    forfeited_by=st.sampled_from([None, "north_south", "east_west", "both"]),
)
def test_only_a_forfeit_of_the_withdrawn_side_follows_its_withdrawal(
    withdrawn: int, round_: int, forfeited_by: str | None
) -> None:
    """e3 sits North-South and withdrew after round ``withdrawn``."""
    winner = {None: "north_south", "north_south": "east_west", "east_west": "north_south"}
    result = MatchResult(
        "r",
        round_,
        1,
        "e3",
        "e4",
        0,
        0,
        winner.get(forfeited_by),  # type: ignore[arg-type]
        forfeited_by=forfeited_by,  # type: ignore[arg-type]
    )
    entrants = {
        "e3": Entrant("e3", ("1", "2"), withdrawn_after_round=withdrawn),
        "e4": Entrant("e4", ("3", "4")),
    }
    allowed = round_ <= withdrawn or forfeited_by in ("north_south", "both")
    if allowed:
        check_result_after_withdrawal(result, entrants)
    else:
        error = refusal(lambda: check_result_after_withdrawal(result, entrants))
        assert error.code == "played_after_withdrawal"
        when = "before round 1" if withdrawn == 0 else f"after round {withdrawn}"
        assert f"withdrew {when}" in error.message
