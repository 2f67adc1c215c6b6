"""Leagues under the tables' guards (leagues.services.quotas, services/settings.py): a
competition's all-bot tables count against its creator's all-bot table quota, and
competitions, entrants and open partnership proposals are capped; over a quota the API
answers 429 ``too_many_*`` and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import Table
from games.services.table_commands import AbandonTable, create_table, execute
from leagues.models import Competition, CompetitionTable
from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .conftest import entrants_of, event_count
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db

ALL_BOTS = {seat: {"kind": "bot"} for seat in ("north", "east", "south", "west")}


def refused(response: Any, code: str) -> str:
    assert response.status_code == 429, (response.status_code, response.content)
    body = response.json()
    assert body["code"] == code, body
    assert body["message"]
    return str(body["message"])


def bot_swiss(organiser: Any, players: Callable[[int], list[Any]], teams: int) -> str:
    """A Swiss played by bots with ``teams`` entrants, round 1 paired."""
    cid = lg.create_competition(
        organiser,
        {"name": "Bots", "stages": [{"kind": "swiss", "rounds": 2}], "bot_level": "easy"},
    ).competition_id
    for entrant in entrants_of(players(2 * teams)):
        lg.enter(organiser, cid, **entrant)
    lg.pair_next_round(organiser, cid)
    return cid


# ---------------------------------------------------------------- all-bot tables


def test_a_bot_round_past_the_creators_quota_is_refused_before_any_table(
    organiser: Any, players: Any, settings: Any
) -> None:
    """8 entrants: 4 tables of four bots, past the quota of 2 (the issue's event)."""
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 2
    cid = bot_swiss(organiser, players, 8)
    before = event_count()

    answer = client_for(organiser).post(
        f"/api/competitions/{cid}/rounds/1/start", {}, format="json"
    )

    message = refused(answer, "too_many_bot_tables")
    assert "Round 1" in message and "4 tables" in message and "(2)" in message
    assert event_count() == before
    assert Table.objects.count() == 0 and CompetitionTable.objects.count() == 0
    assert 1 not in load(cid).started


def test_a_competitions_bot_tables_and_its_creators_own_share_one_quota(
    organiser: Any, players: Any, settings: Any
) -> None:
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 3
    cid = bot_swiss(organiser, players, 4)  # 2 tables
    own = create_table(actor=organiser, seats=ALL_BOTS)  # 1 of the creator's own
    before = event_count()

    # 1 + 2 = 3: the round fits.
    answer = client_for(organiser).post(
        f"/api/competitions/{cid}/rounds/1/start", {}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert CompetitionTable.objects.filter(competition_id=cid).count() == 2
    assert event_count() > before

    # The competition's open tables count when the creator opens a table of their own.
    refused(
        client_for(organiser).post("/api/tables", {"seats": ALL_BOTS}, format="json"),
        "too_many_bot_tables",
    )
    # A table with a person in it is not an all-bot table; abandoning one frees a place.
    assert (
        client_for(organiser).post(
            "/api/tables", {"seats": {"north": {"kind": "bot"}}}, format="json"
        )
    ).status_code == 201
    execute(AbandonTable(str(own.table_id)), organiser)
    assert (
        client_for(organiser).post("/api/tables", {"seats": ALL_BOTS}, format="json").status_code
        == 201
    )


def test_a_co_organiser_does_not_pay_for_the_creators_competition(
    organiser: Any, players: Any, settings: Any
) -> None:
    """A creator may name organisers who never agreed: only the creator's quota counts."""
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 2
    named = players(1)[0]
    cid = lg.create_competition(
        organiser,
        {
            "name": "Bots",
            "stages": [{"kind": "swiss", "rounds": 1}],
            "bot_level": "easy",
            "organisers": [named.pk],
        },
    ).competition_id
    for entrant in entrants_of(players(8)):
        lg.enter(organiser, cid, **entrant)
    lg.pair_next_round(organiser, cid)

    started = client_for(named).post(f"/api/competitions/{cid}/rounds/1/start", {}, format="json")

    assert started.status_code == 200, started.content
    for _ in range(2):
        assert (
            client_for(named).post("/api/tables", {"seats": ALL_BOTS}, format="json").status_code
            == 201
        )
    refused(
        client_for(organiser).post("/api/tables", {"seats": ALL_BOTS}, format="json"),
        "too_many_bot_tables",
    )


def test_a_round_with_people_at_its_tables_is_not_an_all_bot_round(
    organiser: Any, swiss: Any, settings: Any
) -> None:
    settings.SPADES_MAX_BOT_TABLES_PER_USER = 1
    cid = swiss(8)
    lg.pair_next_round(organiser, cid)

    answer = client_for(organiser).post(
        f"/api/competitions/{cid}/rounds/1/start", {}, format="json"
    )

    assert answer.status_code == 200, answer.content


# ---------------------------------------------------------------- competitions


def test_a_user_may_keep_a_number_of_unfinished_competitions(
    organiser: Any, players: Any, settings: Any
) -> None:
    settings.SPADES_MAX_OPEN_COMPETITIONS_PER_USER = 2
    client = client_for(organiser)
    made = [client.post("/api/competitions", {"name": f"C{n}"}, format="json") for n in range(2)]
    assert [answer.status_code for answer in made] == [201, 201]
    before = (event_count(), Competition.objects.count())

    message = refused(
        client.post("/api/competitions", {"name": "One too many"}, format="json"),
        "too_many_competitions",
    )

    assert "(2)" in message
    assert (event_count(), Competition.objects.count()) == before
    # Someone else is not affected; a finished competition frees its place.
    other = client_for(players(1)[0])
    assert other.post("/api/competitions", {"name": "Theirs"}, format="json").status_code == 201
    Competition.objects.filter(id=made[0].json()["id"]).update(status="finished")
    assert client.post("/api/competitions", {"name": "Next"}, format="json").status_code == 201


def test_a_season_counts_each_division(organiser: Any, settings: Any) -> None:
    settings.SPADES_MAX_OPEN_COMPETITIONS_PER_USER = 2
    league = lg.create_league(organiser, {"name": "Club"})
    before = (event_count(), Competition.objects.count())

    answer = client_for(organiser).post(
        f"/api/leagues/{league['id']}/seasons",
        {"season": "2031", "divisions": ["A", "B", "C"]},
        format="json",
    )

    refused(answer, "too_many_competitions")
    assert (event_count(), Competition.objects.count()) == before


# ---------------------------------------------------------------- entrants


def test_a_competition_holds_a_number_of_entrants_invited_or_entered(
    organiser: Any, players: Any, settings: Any
) -> None:
    settings.SPADES_MAX_ENTRANTS_PER_COMPETITION = 2
    cid = lg.create_competition(organiser, {"name": "Small"}).competition_id
    client = client_for(organiser)
    pairs = entrants_of(players(8))
    assert (
        client.post(f"/api/competitions/{cid}/entrants", pairs[0], format="json").status_code == 201
    )
    lg.register(organiser, cid, **pairs[1])  # invited, not entered: it holds a place
    before = event_count()

    message = refused(
        client.post(f"/api/competitions/{cid}/entrants", pairs[2], format="json"),
        "too_many_entrants",
    )

    assert "(2)" in message and event_count() == before
    # A player's own partnership is an entrant too.
    first, second = (lg.user(p) for p in pairs[3]["players"])
    _, proposal = lg.propose_partnership(first, cid, partner=str(second.pk))
    answer = client_for(second).post(
        f"/api/competitions/{cid}/partnerships/{proposal}/confirm", {}, format="json"
    )
    refused(answer, "too_many_entrants")
    # A declined invitation frees its place.
    invited = lg.user(pairs[1]["players"][0])
    declined = client_for(invited).post(
        f"/api/competitions/{cid}/entrants/{pairs[1]['entrant_id']}/decline", {}, format="json"
    )
    assert declined.status_code == 200, declined.content
    assert (
        client.post(f"/api/competitions/{cid}/entrants", pairs[2], format="json").status_code == 201
    )


def test_an_organisers_unfinished_competitions_share_an_entrants_quota(
    organiser: Any, players: Any, settings: Any
) -> None:
    settings.SPADES_MAX_ENTRANTS_PER_ORGANISER = 3
    first = lg.create_competition(organiser, {"name": "One"}).competition_id
    second = lg.create_competition(organiser, {"name": "Two"}).competition_id
    pairs = entrants_of(players(8))
    lg.enter(organiser, first, **pairs[0])
    lg.enter(organiser, first, **pairs[1])
    lg.enter(organiser, second, **pairs[2])
    before = event_count()

    answer = client_for(organiser).post(
        f"/api/competitions/{second}/entrants", pairs[3], format="json"
    )

    message = refused(answer, "too_many_entrants")
    assert "(3)" in message and event_count() == before
    Competition.objects.filter(id=first).update(status="finished")
    lg.enter(organiser, second, **pairs[3])


# ---------------------------------------------------------------- proposals


def test_a_player_may_keep_a_few_proposals_open(
    organiser: Any, players: Any, settings: Any
) -> None:
    """The issue's 30 proposals to one partner: the fourth is refused."""
    settings.SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER = 3
    cid = lg.create_competition(organiser, {"name": "Open entry"}).competition_id
    me, partner = players(2)
    client = client_for(me)
    url = f"/api/competitions/{cid}/partnerships"
    answers = [client.post(url, {"partner": partner.pk}, format="json") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [201] * 3
    before = event_count()

    message = refused(
        client.post(url, {"partner": partner.pk}, format="json"), "too_many_proposals"
    )

    assert "(3)" in message and event_count() == before
    # The partner's own proposals are theirs to count.
    assert client_for(partner).post(url, {"partner": me.pk}, format="json").status_code == 201


def test_the_quotas_default_to_the_documented_values() -> None:
    from django.conf import settings

    assert settings.SPADES_MAX_OPEN_COMPETITIONS_PER_USER == 20
    assert settings.SPADES_MAX_ENTRANTS_PER_COMPETITION == 512
    assert settings.SPADES_MAX_ENTRANTS_PER_ORGANISER == 2048
    assert settings.SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER == 3
    assert settings.SPADES_MAX_BOT_TABLES_PER_USER == 2
