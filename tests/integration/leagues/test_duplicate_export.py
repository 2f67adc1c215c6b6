"""A duplicate competition's export reads back (issue 20, point 7): played by bots
through a real worker and projector (the fixtures of ``test_duplicate_round``), exported
as JSON and CSV (``duplicate.seating: "stages"``, docs/formats.md), and then, from the
file alone with no database in reach:

- ``manage.py standings FILE`` gives exactly the platform's duplicate standings
  (``GET /api/competitions/{id}/duplicate``), on both scales;
- ``manage.py pair FILE`` pairs the next round as the platform's stage engine does, with
  the boards committed from the round seed;
- while a round is open its export holds the boards' commitments only: no board seed, no
  round seed, no board result, in the JSON or the CSV.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from leagues.core.competition import pair_next_round as core_pair
from leagues.core.competition_file import read_competition
from leagues.core.duplicate.boards import board_seed
from leagues.models import BoardSecret
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .test_duplicate_round import BOARDS, duplicate_competition
from .test_end_to_end import closed, projector
from .test_file_commands import run


def platform_rows(client: Any, cid: str, scale: str) -> list[tuple[int, str, int, int, int]]:
    answer = client.get(f"/api/competitions/{cid}/duplicate", {"scale": scale})
    assert answer.status_code == 200, answer.content[:300]
    return [
        (r["place"], r["entrant"], r["matchpoints"], r["imps"], r["boards"])
        for r in answer.json()["rows"]
    ]


def file_rows(path: Path, scale: str) -> list[tuple[int, str, int, int, int]]:
    done = run("standings", str(path), "--format", "json", "--scale", scale)
    assert done.returncode == 0, done.stderr
    return [
        (r["rank"], r["entrant"], r["matchpoints"], r["imps"], r["boards"])
        for r in json.loads(done.stdout)["rows"]
    ]


def exported(client: Any, cid: str, tmp_path: Path, name: str) -> tuple[dict[str, Any], str, Path]:
    answer = client.get(f"/api/competitions/{cid}/export")
    assert answer.status_code == 200, answer.content[:300]
    csv_answer = client.get(f"/api/competitions/{cid}/export", {"as": "csv"})
    assert csv_answer.status_code == 200
    path = tmp_path / f"{name}.json"
    path.write_text(answer.content.decode())
    return answer.json(), csv_answer.content.decode(), path


def test_a_duplicate_export_gives_the_platform_standings_from_the_file_alone(
    live_db: None, processes: Processes, client: Any, tmp_path: Path
) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    organiser = new_user("organiser")
    cid = duplicate_competition(organiser)
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)

    # Round 1 open: commitments only, nothing secret.
    document, csv_text, path = exported(client, cid, tmp_path, "open")
    assert not load(cid).duplicate[1].is_revealed  # so it was open when exported
    secret = BoardSecret.objects.get(competition_id=cid, round=1).seed
    hidden = [secret, *(board_seed(secret, n) for n in range(1, BOARDS + 1))]
    for text in (json.dumps(document), csv_text):
        assert not any(seed in text for seed in hidden)
    assert document["competition"]["duplicate"]["seating"] == "stages"
    first = document["rounds"][0]
    assert first["boards_seed"] is None and first["seed"] is None
    assert [b["seed"] for b in first["boards"]] == [None] * BOARDS
    assert [b["seed_hash"] for b in first["boards"]] == [
        b["commitment"] for b in load(cid).duplicate[1].boards
    ]
    assert document["board_results"] == [] and document["results"] == []
    assert "\nboard_result," not in csv_text
    assert file_rows(path, "matchpoints") == platform_rows(client, cid, "matchpoints")

    closed(cid, 1, processes)
    wait_until(lambda: load(cid).duplicate[1].is_revealed, 240, "boards revealed", poll=0.3)

    document, csv_text, path = exported(client, cid, tmp_path, "played")
    assert len(document["board_results"]) == BOARDS * 2
    assert csv_text.count("\nboard_result,") == BOARDS * 2
    for scale in ("matchpoints", "imps"):
        platform = platform_rows(client, cid, scale)
        assert file_rows(path, scale) == platform
        assert sum(row[4] for row in platform) == BOARDS * 2 * 2

    # pair FILE: the stage engine's next round, boards from the round seed.
    done = run("pair", str(path), "--seed", "from-the-file")
    assert done.returncode == 0, done.stderr
    paired = json.loads(done.stdout)
    expected = core_pair(read_competition(path.read_text()), "from-the-file")
    assert paired["matches"] == [p.as_dict() for p in expected.pairing.matches]
    assert [b["board"] for b in paired["boards"]] == list(range(1, BOARDS + 1))
    # Round robin: the platform's round 2 is the same matches.
    lg.pair_next_round(organiser, cid)
    assert [p.as_dict() for p in load(cid).rounds[1].pairing.matches] == paired["matches"]
