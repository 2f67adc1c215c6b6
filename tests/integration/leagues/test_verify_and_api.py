"""verify_pairings catches a rewritten RoundPaired; the API refuses with {code, message}."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leagues.core import swiss as swiss_engine
from leagues.selectors.verification import verify_competition
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

from .conftest import event_count, tampered_last_pairing
from .test_services import play_round

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user: Any) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def test_verify_pairings_passes_then_catches_a_tampered_pairing(organiser: Any, swiss: Any) -> None:
    cid = swiss(4, rounds=3)
    for number in (1, 2):
        lg.pair_next_round(organiser, cid)
        play_round(organiser, cid, number)
    call_command("verify_pairings", cid)
    with tampered_last_pairing(cid), pytest.raises(CommandError, match="round 2"):
        call_command("verify_pairings", cid)
    call_command("verify_pairings", cid)


@pytest.mark.parametrize("old_version", [1, 2])
def test_a_round_paired_under_an_older_swiss_engine_version_still_verifies(
    organiser: Any, swiss: Any, monkeypatch: Any, old_version: int
) -> None:
    """Rounds committed under engine version 1 or 2 keep their version in their input
    (a version 2 input has no forbidden pairs, even with a pair kept apart) and
    re-derive under it; the next rounds of the same competition are paired by the
    current version."""
    cid = swiss(5, rounds=3)
    client_for(organiser).post(
        f"/api/competitions/{cid}/forbidden-pairs", {"entrants": ["e1", "e2"]}, format="json"
    )
    for number in (1, 2, 3):
        with monkeypatch.context() as patch:
            if number == 2:
                patch.setattr(swiss_engine, "ENGINE_VERSION", old_version)
            lg.pair_next_round(organiser, cid)
        play_round(organiser, cid, number)
    state = load(cid)
    current = swiss_engine.ENGINE_VERSION
    assert [r.input["engine_version"] for r in state.rounds] == [current, old_version, current]
    assert "forbidden" not in state.rounds[1].input
    assert state.rounds[2].input["forbidden"] == [["e1", "e2"]]
    checks = verify_competition(cid)
    assert [check["ok"] for check in checks] == [True, True, True], checks
    call_command("verify_pairings", cid)


def test_only_organisers_write_and_refusals_are_problems(organiser: Any, swiss: Any) -> None:
    cid = swiss(4)
    stranger = client_for(UserFactory(username="stranger"))
    before = event_count()
    response = stranger.post(f"/api/competitions/{cid}/rounds", {}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "not_organiser"
    response = APIClient().get(f"/api/competitions/{cid}/standings?tiebreaks=nonsense")
    assert response.status_code == 400
    assert set(response.json()) == {"code", "message"}
    own = client_for(organiser)
    response = own.post(f"/api/competitions/{cid}/entrants/ghost/withdraw", {}, format="json")
    assert response.status_code == 404
    assert event_count() == before
    response = own.post(f"/api/competitions/{cid}/rounds", {"round": 1}, format="json")
    assert response.status_code == 201
    again = own.post(f"/api/competitions/{cid}/rounds", {"round": 1}, format="json")
    assert again.status_code == 200 and again.json()["duplicate"] is True


def test_what_if_writes_nothing(organiser: Any, swiss: Any) -> None:
    cid = swiss(4, rounds=2)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    before = event_count()
    client = APIClient()
    response = client.get(f"/api/competitions/{cid}/standings?tiebreaks=wins,lots")
    assert response.status_code == 200, response.json()
    assert "moves" in response.json()
    response = client.get(f"/api/competitions/{cid}/standings?preset=bicycle")
    assert response.status_code == 200
    assert event_count() == before


def test_what_if_takes_custom_scoring_rules_as_json_text(organiser: Any, swiss: Any) -> None:
    """?preset= is a preset name or custom rules as JSON text, as the tables' rescore
    query takes it (the refusal of an unknown name offers such an object)."""
    cid = swiss(4, rounds=2)
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 1)
    before = event_count()
    client = APIClient()
    scoring_only = '{"preset": "standard", "bag_penalty": false}'
    response = client.get(f"/api/competitions/{cid}/standings", {"preset": scoring_only})
    assert response.status_code == 200, response.json()
    assert response.json()["comparable"] is True
    assert "bag_penalty" in response.json()["rules_changed"]
    # Typed-in results have no table to rescore: they stand as entered.
    assert response.json()["tables_rescored"] == 0
    # A rule that changes which moves are legal refuses no typed-in result (there is no
    # move to refuse): comparable (only a table whose played move it refuses is not).
    legality = '{"preset": "standard", "nil": false}'
    response = client.get(f"/api/competitions/{cid}/standings", {"preset": legality})
    assert response.status_code == 200 and response.json()["comparable"] is True
    assert response.json()["not_comparable"] == [] and "nil" in response.json()["rules_changed"]
    for bad in ('{"preset": ', '{"preset": "standard", "nil": "maybe"}', "x" * 5000):
        response = client.get(f"/api/competitions/{cid}/standings", {"preset": bad})
        assert response.status_code == 400, (bad[:40], response.json())
        assert set(response.json()) == {"code", "message"}
    assert event_count() == before


def test_an_unknown_export_format_is_refused(organiser: Any, swiss: Any) -> None:
    cid = swiss(4)
    response = APIClient().get(f"/api/competitions/{cid}/export", {"as": "xml"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and "csv" in response.json()["message"]
    assert APIClient().get(f"/api/competitions/{cid}/export", {"as": "json"}).status_code == 200
