"""Refusals that must write nothing: unknown players at registration and at the start of a
round, and a season whose registrations fail. Each counts the stored events and rows
before and after."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from leagues.core.errors import LeagueError
from leagues.models import Competition, CompetitionTable
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.leagues.builders import add_season, create_league

from .conftest import entrants_of, event_count
from .test_services import play_round

pytestmark = pytest.mark.django_db(transaction=True)


def written() -> tuple[int, int, int, int]:
    return (
        event_count(),
        Table.objects.count(),
        CompetitionTable.objects.count(),
        Competition.objects.count(),
    )


def refused(call: Any, code: str) -> LeagueError:
    before = written()
    with pytest.raises(LeagueError) as refusal:
        call()
    assert refusal.value.code == code, refusal.value.message
    assert written() == before
    return refusal.value


@pytest.mark.parametrize("stranger", ["999999999", "p1", "0", "12a", "١٢", "-5"])
def test_registering_a_player_who_is_not_a_user_is_refused(
    organiser: Any, swiss: Any, players: Any, stranger: str
) -> None:
    cid = swiss(2)
    someone = players(1)[0]
    error = refused(
        lambda: lg.register(organiser, cid, entrant_id="x", players=[str(someone.pk), stranger]),
        "unknown_player",
    )
    assert repr(stranger) in error.message
    refused(
        lambda: lg.register(
            organiser,
            cid,
            entrant_id="x",
            players=[str(someone.pk), str(organiser.pk)],
            reserve=stranger,
        ),
        "unknown_player",
    )


def test_a_late_join_and_a_substitute_must_be_users_too(
    organiser: Any, swiss: Any, players: Any
) -> None:
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    someone = players(1)[0]
    refused(
        lambda: lg.late_join(
            organiser, cid, entrant_id="late", players=[str(someone.pk), "424242424"]
        ),
        "unknown_player",
    )
    out = load(cid).entrants["e1"].players[0]
    refused(
        lambda: lg.substitute(organiser, cid, "e1", player_out=out, player_in="nobody"),
        "unknown_player",
    )


def test_a_round_with_a_player_gone_creates_no_table(organiser: Any, swiss: Any) -> None:
    cid = swiss(4)
    lg.pair_next_round(organiser, cid)
    state = load(cid)
    paired = state.paired_round(1)
    assert paired is not None and len(paired.pairing.matches) == 2
    # The last board's player left the platform after registering: the first board's
    # table must not be created (and seated) before the refusal.
    last = paired.pairing.matches[-1]
    get_user_model().objects.filter(pk=int(state.players_in(last.east_west, 1)[1])).delete()
    refused(lambda: start_round(organiser, cid, 1), "unknown_player")


def test_a_season_whose_promotion_cannot_register_leaves_no_competition(
    organiser: Any, players: Any
) -> None:
    league = create_league(organiser, {"name": "Club League"})
    spec = {"stages": [{"kind": "swiss", "rounds": 1}]}
    first = add_season(
        organiser, league["id"], {"season": "2026", "divisions": ["top"], "competition": spec}
    )
    cid = first["seasons"][0]["divisions"]["top"]
    users = players(8)
    for entrant in entrants_of(users):
        lg.enter(organiser, cid, **entrant)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    # A player of the last entrant leaves: its registration into the new season fails
    # after the season's competition (and maybe other entrants) would have been written.
    users[-1].delete()
    refused(
        lambda: add_season(
            organiser,
            league["id"],
            {
                "season": "2027",
                "divisions": ["top"],
                "competition": spec,
                "promote": {"from": "2026", "up": 0, "down": 0},
            },
        ),
        "unknown_player",
    )
