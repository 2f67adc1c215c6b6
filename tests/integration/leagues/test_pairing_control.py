"""Organiser control of the pairings through the API: forbidden pairs kept apart and
verified as part of the input, a round's pairing overridden and reported as manual."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from eventstore.erasable import is_reference
from eventstore.reading import read_stream
from leagues.core.pairings import forbidden_pair
from leagues.domain import events as ev
from leagues.selectors.verification import verify_competition
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

from .conftest import event_count
from .test_services import play_round
from .test_verify_and_api import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def verify_output(cid: str) -> str:
    out = StringIO()
    call_command("verify_pairings", cid, stdout=out)
    return out.getvalue()


def kept_by_reference(cid: str, text: str) -> None:
    """The typed reason is in no payload: a reference to an erasable text, resolved."""
    events = read_stream(ev.competition_stream_id(cid))
    assert text not in str([event.data for event in events])
    typed = [value for value in ev.typed_values(events) if value]
    assert typed and all(is_reference(value) for value in typed)


def met(cid: str) -> set[tuple[str, str]]:
    return {
        forbidden_pair(m.north_south, m.east_west)
        for paired in load(cid).rounds
        for m in paired.pairing.matches
    }


def test_forbidden_pairs_are_organiser_only_refused_in_words_and_kept_apart(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(6, rounds=3)
    own = client_for(organiser)
    url = f"/api/competitions/{cid}/forbidden-pairs"
    before = event_count()
    stranger = client_for(UserFactory(username="stranger"))
    assert stranger.post(url, {"entrants": ["e1", "e2"]}, format="json").status_code == 403
    refused = [
        ({"entrants": ["e1", "e1"]}, 400, "two different entrants"),
        ({"entrants": ["e1"]}, 400, None),
        ({"entrants": ["e1", "ghost"]}, 404, "not an entrant"),
        ({"entrants": ["e1", "e2"], "reason": "x" * 501}, 400, None),
        ({"entrants": ["e1", "e2"], "colour": "red"}, 400, None),
    ]
    for body, status, words in refused:
        response = own.post(url, body, format="json")
        assert response.status_code == status, (body, response.json())
        assert set(response.json()) == {"code", "message"}
        if words:
            assert words in response.json()["message"]
    assert event_count() == before

    # Kept apart from round 1: e1-e2 and e1-e3 (e1 meets neither while it can).
    for other in ("e2", "e3"):
        response = own.post(url, {"entrants": [other, "e1"], "reason": "Siblings"}, format="json")
        assert response.status_code == 201
    listed = response.json()["forbidden_pairs"]
    assert listed[0] == {"entrants": ["e1", "e2"], "reason": "Siblings", "organiser": "organiser"}
    kept_by_reference(cid, "Siblings")
    again = own.post(url, {"entrants": ["e2", "e1"]}, format="json")
    assert again.status_code == 409 and "already kept apart" in again.json()["message"]
    public = APIClient().get(url).json()["forbidden_pairs"]
    assert public == [{"entrants": ["e1", "e2"]}, {"entrants": ["e1", "e3"]}]
    assert APIClient().get(f"/api/competitions/{cid}").json()["forbidden_pairs"] == [
        ["e1", "e2"],
        ["e1", "e3"],
    ]

    for number in (1, 2):
        response = own.post(f"/api/competitions/{cid}/rounds", {}, format="json")
        assert response.status_code == 201
        assert response.json()["round"]["forbidden_meetings"] == []
        play_round(organiser, cid, number)
    state = load(cid)
    assert state.rounds[0].input["forbidden"] == [["e1", "e2"], ["e1", "e3"]]
    assert not met(cid) & {("e1", "e2"), ("e1", "e3")}

    # Let e1 and e3 meet again from round 3: round 3's input no longer has them.
    removed = own.post(f"{url}/remove", {"entrants": ["e3", "e1"]}, format="json")
    assert removed.status_code == 200
    assert own.post(f"{url}/remove", {"entrants": ["e3", "e1"]}, format="json").status_code == 409
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 3)
    assert load(cid).rounds[2].input["forbidden"] == [["e1", "e2"]]

    output = verify_output(cid)
    assert output.splitlines() == [
        "round 1: ok",
        "round 2: ok",
        "round 3: ok",
        "3 round(s) verified",
    ]


def test_an_overridden_round_is_played_as_written_and_verified_as_manual(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(5, rounds=3)
    own = client_for(organiser)
    lg.pair_next_round(organiser, cid)
    computed = load(cid).rounds[0].pairing
    (a, b), (c, d) = [(m.north_south, m.east_west) for m in computed.matches]
    [bye] = computed.byes
    url = f"/api/competitions/{cid}/rounds/1/override"
    reason = "Table 3 is the wheelchair-accessible one"
    before = event_count()
    refused = [
        ({"matches": [{"north_south": a, "east_west": c}], "byes": [bye], "reason": reason}, 400),
        (
            {
                "matches": [{"north_south": a, "east_west": c}, {"north_south": b, "east_west": a}],
                "byes": [d],
                "reason": reason,
            },
            400,
        ),
        (
            {
                "matches": [
                    {"north_south": a, "east_west": c},
                    {"north_south": b, "east_west": "ghost"},
                ],
                "byes": [bye],
                "reason": reason,
            },
            404,
        ),
        (
            {
                "matches": [{"north_south": a, "east_west": c}, {"north_south": b, "east_west": d}],
                "byes": [],
                "reason": reason,
            },
            400,
        ),
        (
            {"matches": [{"north_south": a, "east_west": c}, {"north_south": b, "east_west": d}]},
            400,
        ),
    ]
    for body, status in refused:
        response = own.post(url, body, format="json")
        assert response.status_code == status, (body, response.json())
        assert response.json()["message"][:1].isupper()
    stranger = client_for(UserFactory(username="stranger"))
    good = {
        "matches": [{"north_south": a, "east_west": c}, {"north_south": d, "east_west": b}],
        "byes": [bye],
        "reason": reason,
    }
    assert stranger.post(url, good, format="json").status_code == 403
    assert event_count() == before

    response = own.post(url, good, format="json")
    assert response.status_code == 200, response.json()
    written = response.json()["round"]
    assert [(m["north_south"], m["east_west"]) for m in written["matches"]] == [(a, c), (d, b)]
    assert written["manual"] == {"by": "organiser", "reason": reason}
    kept_by_reference(cid, reason)

    play_round(organiser, cid, 1)  # North-South wins: a and d, as the override paired them
    standings = load(cid).competition().standings()
    winners = {row.entrant for row in standings.rows if row.match_points and row.entrant != bye}
    assert winners == {a, d}

    lg.pair_next_round(organiser, cid)
    # Round 2 is paired from what happened: no rematch of the override's pairs.
    round_two = {
        forbidden_pair(m.north_south, m.east_west) for m in load(cid).rounds[1].pairing.matches
    }
    assert not round_two & {forbidden_pair(a, c), forbidden_pair(b, d)}
    first = load(cid).rounds[1].pairing.matches[0]
    lg.record_result(
        organiser,
        cid,
        round_number=2,
        board=first.board,
        points={"north_south": 110, "east_west": 40},
        winner="north_south",
    )
    late = own.post(
        f"/api/competitions/{cid}/rounds/2/override",
        {
            "matches": [
                {"north_south": m.east_west, "east_west": m.north_south}
                for m in load(cid).rounds[1].pairing.matches
            ],
            "byes": list(load(cid).rounds[1].pairing.byes),
            "reason": "too late",
        },
        format="json",
    )
    assert late.status_code == 409 and "no longer be replaced" in late.json()["message"]
    state = load(cid)
    for pairing in state.rounds[1].pairing.matches[1:]:
        lg.record_result(
            organiser,
            cid,
            round_number=2,
            board=pairing.board,
            points={"north_south": 110, "east_west": 40},
            winner="north_south",
        )

    checks = verify_competition(cid)
    assert [check["ok"] for check in checks] == [True, True]
    lines = verify_output(cid).splitlines()
    assert lines == [
        f"round 1: manual (by organiser: {reason})",
        "round 2: ok",
        "2 round(s) verified",
    ]


def test_a_knockout_swaps_a_forbidden_first_round_match_and_verifies(
    organiser: Any, swiss: Any
) -> None:
    """The bracket as it would be drawn has a first-round match the organiser forbids:
    round 1 is drawn with a lower-half swap instead, the stage's later rounds follow that
    bracket, and verify_pairings re-derives both rounds."""
    cid = swiss(8, stages=[{"kind": "knockout"}])
    bracket, _ = load(cid).competition().bracket(0)
    first = bracket.seeds[0], bracket.seeds[-1]  # seed 1 meets seed 8 in W1-1
    own = client_for(organiser)
    response = own.post(
        f"/api/competitions/{cid}/forbidden-pairs",
        {"entrants": list(first), "reason": "Club-mates"},
        format="json",
    )
    assert response.status_code == 201
    paired = own.post(f"/api/competitions/{cid}/rounds", {}, format="json").json()["round"]
    assert paired["forbidden_meetings"] == []
    round_one = {forbidden_pair(m["north_south"], m["east_west"]) for m in paired["matches"]}
    assert forbidden_pair(*first) not in round_one and len(round_one) == 4
    assert load(cid).rounds[0].input["engine_version"] == 2
    play_round(organiser, cid, 1)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 2)
    assert verify_output(cid).splitlines() == ["round 1: ok", "round 2: ok", "2 round(s) verified"]
