"""``GET /api/competitions/{id}/stages`` and the overview's ``can_advance``: a Swiss then
a knockout of the top four, read as the pages read them (docs/api.md)."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from leagues.services.streams import load
from tests.integration.leagues import builders as lg

from .test_services import play_round


def read(cid: str, path: str = "") -> Any:
    response = APIClient().get(f"/api/competitions/{cid}{path}")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_swiss_then_a_knockout_reads_stage_by_stage_with_its_bracket_and_champion(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(
        6, rounds=2, stages=[{"kind": "swiss", "rounds": 2, "advance": 4}, {"kind": "knockout"}]
    )
    assert read(cid)["can_advance"] is False
    lg.pair_next_round(organiser, cid)
    assert read(cid, "/stages")["stages"][0]["status"] == "in_play"
    play_round(organiser, cid, 1)
    assert read(cid)["can_advance"] is False  # the Swiss has a round to go
    lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, 2)
    assert read(cid)["can_advance"] is True
    stages = read(cid, "/stages")
    assert stages["can_advance"] is True and stages["current"] == 1
    assert [s["status"] for s in stages["stages"]] == ["complete", "waiting"]
    assert stages["stages"][0]["round_numbers"] == [1, 2]
    assert stages["stages"][1]["bracket"] is None  # not advanced: the qualifiers may change

    top_four = load(cid).competition().standings().order()[:4]
    lg.advance_stage(organiser, cid)
    assert read(cid)["can_advance"] is False
    bracket = read(cid, "/stages")["stages"][1]["bracket"]
    assert bracket["drawn"] is False and bracket["seeds"] == top_four
    assert [m["id"] for m in bracket["matches"]] == ["W1-1", "W1-2", "W2-1"]
    first = bracket["matches"][0]
    assert first["top"] == {"from": "seed", "seed": 1, "match": None, "entrant": top_four[0]}
    assert first["bottom"]["entrant"] == top_four[3]
    final = bracket["matches"][2]
    assert final["top"] == {"from": "winner", "seed": None, "match": "W1-1", "entrant": None}

    _, semis, _ = lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, semis)
    _, last, _ = lg.pair_next_round(organiser, cid)
    play_round(organiser, cid, last)
    stages = read(cid, "/stages")
    bracket = stages["stages"][1]["bracket"]
    assert bracket["drawn"] is True
    assert {m["played"]["round"] for m in bracket["matches"]} == {semis, last}
    final = bracket["matches"][2]
    assert final["winner"] == bracket["champion"] is not None
    assert final["winner"] in (final["top"]["entrant"], final["bottom"]["entrant"])
    assert [s["status"] for s in stages["stages"]] == ["complete", "complete"]
    assert stages["finished"] is True


def test_a_double_elimination_knockout_shows_its_byes_and_grand_final_reset(
    organiser: Any, swiss: Any
) -> None:
    cid = swiss(3, stages=[{"kind": "knockout", "double": True, "reset": True}])
    bracket = read(cid, "/stages")["stages"][0]["bracket"]
    assert bracket["drawn"] is False and bracket["size"] == 4
    assert bracket["double"] is True and bracket["reset"] is True
    parts = {m["id"]: m for m in bracket["matches"]}
    assert set(parts) == {"W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF", "GF2"}
    # Seed 1 has the bye: its match has a side "" and is won already.
    assert parts["W1-1"]["bottom"]["entrant"] == "" and parts["W1-1"]["winner"] is not None
    assert parts["GF2"]["part"] == "final" and parts["GF2"]["round"] == 2
    assert bracket["champion"] is None
