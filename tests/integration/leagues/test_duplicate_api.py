"""A duplicate round while it is open, through the API and the services (no worker, so no
table moves past its first deal): the setting is refused in words, the boards show
their commitments only, the traveller is refused (409 in words), the standings count
nothing, a par computed during the round is shown to nobody (the event admin's redactor
included), the tables deal from the round seed and the competition's other tables are
nothing but a lobby to a player seated in the round."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from eventstore.redaction import shown_data
from games.selectors.visibility import table_view
from games.services.table_state import reading_state
from leagues.domain import events as ev
from leagues.models import BoardSecret
from leagues.services.duplicate import compute_round_par
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg

pytestmark = pytest.mark.django_db

SPEC = {
    "name": "Open duplicate",
    "stages": [{"kind": "round_robin"}],
    "rules": "standard",
    "duplicate": {"boards_per_round": 2, "movement": "mitchell", "par_plays": 1},
}


def open_round(bots: bool = True) -> tuple[str, Any, list[Any]]:
    organiser = UserFactory()
    spec = {**SPEC, "bot_level": "easy"} if bots else dict(SPEC)
    cid = lg.create_competition(organiser, spec).competition_id
    players = []
    for number in range(1, 5):
        a, b = UserFactory(), UserFactory()
        players += [a, b]
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)
    return cid, organiser, players


def test_the_setting_is_refused_in_words_over_the_api() -> None:
    client = Client()
    client.force_login(UserFactory())
    answer = client.post(
        "/api/competitions",
        {"name": "Bad", "duplicate": {"boards_per_round": 99}},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "boards" in answer.json()["message"].lower()
    blind = client.post(
        "/api/competitions",
        {
            "name": "Blind",
            "rules": {"preset": "standard", "blind_nil": True},
            "duplicate": {"boards_per_round": 2},
        },
        content_type="application/json",
    )
    assert blind.status_code == 400 and blind.json()["code"] == "bad_rules"
    assert "0 to 0" in blind.json()["message"]
    zero = client.post(
        "/api/competitions",
        {
            "name": "Blind from level",
            "rules": {"preset": "standard", "blind_nil": True, "blind_nil_min_deficit": 0},
            "duplicate": {"boards_per_round": 2},
        },
        content_type="application/json",
    )
    assert zero.status_code == 201, zero.content


def test_an_open_round_shows_nothing_of_its_boards() -> None:
    cid, _organiser, _players = open_round()
    client = Client()
    boards = client.get(f"/api/competitions/{cid}/rounds/1/boards")
    assert boards.status_code == 200, boards.content
    body = boards.json()
    assert body["round_seed"] is None
    assert [b["board"] for b in body["boards"]] == [1, 2]
    assert all("seed" not in b and "deck" not in b and b["par"] is None for b in body["boards"])
    secret = BoardSecret.objects.get(competition_id=cid, round=1).seed
    assert secret not in boards.content.decode()

    refused = client.get(f"/api/competitions/{cid}/rounds/1/boards/1/traveller")
    assert refused.status_code == 409
    assert refused.json()["code"] == "board_open"
    assert "still being played" in refused.json()["message"]
    assert client.get(f"/api/competitions/{cid}/rounds/1/boards/9/traveller").status_code == 404

    standings = client.get(f"/api/competitions/{cid}/duplicate")
    assert standings.status_code == 200
    assert all(row["boards"] == 0 for row in standings.json()["rows"])
    assert client.get(f"/api/competitions/{cid}/duplicate?scale=imps").json()["scale"] == "imps"
    assert client.get(f"/api/competitions/{cid}/duplicate?scale=x").status_code == 400


def test_a_par_computed_during_the_round_is_shown_to_nobody() -> None:
    cid, _organiser, _players = open_round()
    assert compute_round_par(cid, 1) == 2
    assert compute_round_par(cid, 1) == 0  # once a board
    found = load(cid).duplicate[1]
    assert set(found.pars) == {1, 2} and not found.is_revealed
    stored = [e for e in lg.events_of(cid) if e.type == ev.BOARD_PAR_COMPUTED]
    assert len(stored) == 2
    for event in stored:
        shown = shown_data(event.stream_id, event.type, dict(event.data))
        assert shown["par"] == "hidden until revealed" and "plays" not in str(shown)
    body = Client().get(f"/api/competitions/{cid}/rounds/1/boards").json()
    assert all(board["par"] is None for board in body["boards"])
    # Nor can it be verified yet: verify_par says so and exits non-zero.
    out = io.StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("verify_par", cid, stdout=out)
    assert "not revealed" in str(refused.value) and "\n" not in str(refused.value)
    assert out.getvalue().count("MISMATCH") == 2


def test_a_player_of_the_round_sees_only_the_lobby_of_another_table() -> None:
    cid, _organiser, players = open_round(bots=True)
    state = load(cid)
    tables = list(state.tables[1].values())
    for table_id in tables:
        view = table_view(table_id, players[0])
        assert view["hand"] is None and view["your_seat"] is None
        assert view["status"] == "lobby"
    # The tables deal the round's boards: their commitment is the round's (a spectator
    # is not even shown that the game has started).
    assert {table_view(t, None)["deal"]["commitment"] for t in tables} == {None}
    for table_id in tables:
        with reading_state(table_id) as table:
            assert table.commitment == state.duplicate[1].round_commitment
            assert table.deals_from_boards and table.hand_number == 1
