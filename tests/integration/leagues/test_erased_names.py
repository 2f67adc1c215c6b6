"""Names and reasons people typed are kept out of the events by reference: a player who
deletes their account takes their team's name, the competition and league they named and
the reasons about their matches with them, from the API, the CSV and JSON exports and
the events' resolved text, while every hash still verifies and the projections rebuilt
from scratch equal the ones kept up incrementally."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventstore.erasable import is_reference
from eventstore.erasable_store import text_of, texts_of
from eventstore.reading import read_stream
from eventstore.subscriptions import rebuild
from leagues.domain import events as ev
from leagues.models import Competition, League
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

from .test_services import PROJECTIONS, follow, projected
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-password"  # tests.factories.UserFactory's
TEAM = "Wendy's Wonders"
REASON = "Wendy's Wonders reported 130, not 110"
OWN_COMPETITION = "Wendy's Thursday Cup"
OWN_LEAGUE = "Wendy's Winter League"


def everything(client: Any, cid: str, own_cid: str, league_id: str) -> str:
    """Every read a visitor or player makes of these, as one text."""
    reads = [
        client.get(f"/api/competitions/{cid}"),
        client.get(f"/api/competitions/{cid}/rounds"),
        client.get(f"/api/competitions/{cid}/standings"),
        client.get(f"/api/competitions/{cid}/export"),
        client.get(f"/api/competitions/{cid}/export?as=csv"),
        client.get(f"/api/competitions/{own_cid}"),
        client.get(f"/api/competitions/{own_cid}/export?as=csv"),
        client.get("/api/competitions"),
        client.get(f"/api/leagues/{league_id}"),
    ]
    for answer in reads:
        assert answer.status_code == 200, (answer.request, answer.content[:300])
    return "\n".join(answer.content.decode() for answer in reads)


def test_a_deleted_account_takes_its_typed_names_and_every_hash_still_verifies(
    organiser: Any,
) -> None:
    wendy, partner, third, fourth = (UserFactory() for _ in range(4))
    follow()
    cid = lg.create_competition(
        organiser, {"name": "Open Pairs", "stages": [{"kind": "swiss", "rounds": 2}]}
    ).competition_id
    # Wendy names her partnership; her partner confirms it, so it is entered.
    _, proposal = lg.propose_partnership(wendy, cid, partner=str(partner.pk), name=TEAM)
    lg.confirm_partnership(partner, cid, proposal)
    lg.enter(organiser, cid, entrant_id="rivals", players=[str(third.pk), str(fourth.pk)])
    # She also organises a competition and a league of her own.
    own_cid = lg.create_competition(
        wendy, {"name": OWN_COMPETITION, "stages": [{"kind": "swiss", "rounds": 1}]}
    ).competition_id
    league_id = lg.create_league(wendy, {"name": OWN_LEAGUE})["id"]
    lg.pair_next_round(organiser, cid)
    follow()
    (match,) = load(cid).paired_round(1).pairing.matches  # type: ignore[union-attr]
    lg.record_result(
        organiser,
        cid,
        round_number=1,
        board=match.board,
        points={"north_south": 110, "east_west": 40},
        winner="north_south",
    )
    first = load(cid).results[0]
    # The organiser's reason names her team: it is about her, so hers to erase too.
    lg.correct_result(
        organiser,
        cid,
        first.id,
        points={"north_south": 130, "east_west": 40},
        winner="north_south",
        reason=REASON,
    )
    follow()

    stream = ev.competition_stream_id(cid)
    own_stream = ev.competition_stream_id(own_cid)
    league_stream = ev.league_stream_id(league_id)
    streams = (stream, own_stream, league_stream)
    events = [event for s in streams for event in read_stream(s)]
    hashes = [event.hash for event in events]
    # Kept by reference: no payload holds the texts, every reader resolves them.
    for text in (TEAM, REASON, OWN_COMPETITION, OWN_LEAGUE, "Open Pairs"):
        assert text not in str([event.data for event in events])
    typed = list(ev.typed_values(events))
    assert all(is_reference(value) for value in typed if value)
    with CaptureQueriesContext(connection) as queries:
        resolved = texts_of(typed)
    assert len(queries) == 1  # one query, however many texts
    assert {TEAM, REASON, OWN_COMPETITION, OWN_LEAGUE, "Open Pairs"} <= {
        resolved(value) for value in typed
    }
    spectator = client_for(UserFactory())
    shown = everything(spectator, cid, own_cid, league_id)
    for text in (TEAM, OWN_COMPETITION, OWN_LEAGUE, "130, not 110"):
        assert text in shown, text

    answer = client_for(wendy).post("/api/auth/me/delete", {"password": PASSWORD}, format="json")
    assert answer.status_code == 204, answer.content
    follow()

    shown = everything(spectator, cid, own_cid, league_id)
    for text in (TEAM, REASON, OWN_COMPETITION, OWN_LEAGUE, "Wendy", "130, not 110"):
        assert text not in shown, text
    assert "Open Pairs" in shown  # the organiser's own name stays
    state = load(cid)
    entrant = state.entrants[state.entrant_of_player(str(partner.pk)) or ""]
    assert (entrant.name, entrant.label) == ("", entrant.id)  # pages show its id
    assert state.entrants["rivals"].players == (str(third.pk), str(fourth.pk))
    for event in read_stream(stream):
        if event.type in (ev.ENTRANT_REGISTERED, ev.PARTNERSHIP_PROPOSED, ev.RESULT_CORRECTED):
            assert text_of(event.data.get("name", event.data.get("reason"))) == ""
    assert load(own_cid).settings.name == ""  # type: ignore[union-attr]
    # The rows that copy a name for the lists were brought in line.
    assert Competition.objects.get(pk=own_cid).name == ""
    assert League.objects.get(pk=league_id).name == ""
    assert Competition.objects.get(pk=cid).name == "Open Pairs"

    # Not one event changed: the same hashes, and verify_events re-derives them all.
    assert [event.hash for s in streams for event in read_stream(s)] == hashes
    for s in streams:
        call_command("verify_events", "--stream", s)
    incremental = projected()
    for projection in PROJECTIONS:
        rebuild(projection)
    assert projected() == incremental
