"""Per-board reveal of a duplicate round (issue 20, points 1, 3 and 6): a board is shown
as soon as every table of the round has finished it, while another board is still being
played somewhere.

Two tables deal the same two boards (bots at every seat, moved here without a worker).
Both finish board 1; table 1 finishes board 2 while table 2 is still playing it. The
board-ends projection (``league_board_ends``) is fed the tables' own ``CardPlayed``
events and drains as after a catch-up: board 1's results for both tables and its
``BoardRevealed`` go in together; board 2 stays secret from every surface (the API's
boards, traveller, par replay and "play this board again", the export and its file, the
tables' views and socket updates for a player of the other table), and the table's own
spectator cut stays per round. A replayed batch writes nothing twice.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from eventstore.reading import read_stream
from games.domain import events as table_events
from games.domain.streams import table_stream_id
from games.selectors.table_updates import viewer_update
from games.selectors.visibility import events_for_viewer, table_view
from games.services.table_state import reading_state
from leagues.core.duplicate.boards import board_seed, verify_round_boards
from leagues.domain import events as ev
from leagues.models import BoardSecret, PendingBoardResult
from leagues.projections import board_ends
from leagues.services.duplicate import compute_round_par, record_round
from leagues.services.match_results import table_result
from leagues.services.streams import load
from tests.factories import UserFactory
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves
from tests.integration.tables.test_views_leak import cards_in_json

from .test_duplicate_api import open_round
from .test_duplicate_export import file_rows, platform_rows

pytestmark = pytest.mark.django_db


def play_until(table_id: Any, boards: int, cards: int = 0) -> None:
    """Bot moves at a table until ``boards`` hands are over (then ``cards`` more cards)."""
    rng = random.Random(7)
    while True:
        with reading_state(table_id) as state:
            done = state.status != "playing" or state.hand_is_over(boards)
        if done:
            break
        play_moves(table_id, {}, rng, limit=1)
    for _ in range(cards):
        play_moves(table_id, {}, rng, limit=1)


def feed_projection(tables: list[Any]) -> None:
    """What the projector does: the tables' cards in one batch, then the after-catch-up."""
    cards = [
        e
        for table_id in tables
        for e in read_stream(table_stream_id(table_id))
        if e.type == table_events.CARD_PLAYED
    ]
    board_ends.handle_batch(cards)
    board_ends.after_catch_up()


@pytest.fixture
def board_one_out() -> tuple[str, dict[int, Any], list[Any]]:
    cid, _organiser, players = open_round(bots=True)
    tables = load(cid).tables[1]
    play_until(tables[1], 1)
    play_until(tables[2], 1)
    play_until(tables[1], 2)  # table 1 has finished board 2 ...
    play_until(tables[2], 1, cards=5)  # ... table 2 is still playing it
    feed_projection(list(tables.values()))
    return cid, tables, players


def test_board_one_is_revealed_alone_while_board_two_is_played(board_one_out: Any) -> None:
    cid, tables, _players = board_one_out
    found = load(cid).duplicate[1]
    assert not found.is_revealed and found.round_seed is None
    assert sorted(found.revealed) == [1]
    assert sorted((int(r["table"]), int(r["board"])) for r in found.results) == [(1, 1), (2, 1)]
    # Board 2's result at table 1 is kept back (in no event) until table 2 finishes it.
    assert PendingBoardResult.objects.filter(competition_id=cid, board_number=2).count() == 1
    commitments = {int(b["board"]): str(b["commitment"]) for b in found.boards}
    checks = verify_round_boards(
        None, found.round_commitment, list(found.revealed.values()), commitments
    )
    assert [c.board for c in checks] == [1] and all(c.ok for c in checks)

    # A replayed batch (a projector restart, a duplicated notice) writes nothing twice.
    before = len(lg.events_of(cid))
    feed_projection(list(tables.values()))
    assert len(lg.events_of(cid)) == before
    revealed = [e for e in lg.events_of(cid) if e.type == ev.BOARD_REVEALED]
    assert len(revealed) == 1 and revealed[0].data["board"] == 1

    # Table 2 finishes board 2: its results and its reveal go in; the round closes at
    # its end as before (BoardsRevealed binds both boards to the round seed).
    play_until(tables[2], 2)
    feed_projection(list(tables.values()))
    found = load(cid).duplicate[1]
    assert sorted(found.revealed) == [1, 2] and not found.is_revealed
    assert len(found.results) == 4
    rows = [
        SimpleNamespace(
            table_id=table_id,
            board=table,
            result=table_result(read_stream(table_stream_id(table_id))),
        )
        for table, table_id in tables.items()
    ]
    record_round(cid, 1, rows)
    record_round(cid, 1, rows)  # a duplicated notice
    state = load(cid)
    assert state.duplicate[1].is_revealed and 1 in state.closed
    types = [e.type for e in lg.events_of(cid)]
    assert types.count(ev.BOARD_RESULT_RECORDED) == 4 and types.count(ev.BOARDS_REVEALED) == 1
    assert types.count(ev.MATCH_RESULT_RECORDED) == 2


def test_board_two_is_refused_from_every_surface(board_one_out: Any, tmp_path: Path) -> None:
    cid, tables, players = board_one_out
    secret = BoardSecret.objects.get(competition_id=cid, round=1).seed
    hidden = (secret, board_seed(secret, 2))
    client = Client()

    boards = client.get(f"/api/competitions/{cid}/rounds/1/boards")
    assert boards.status_code == 200
    one, two = boards.json()["boards"]
    assert one["revealed"] and one["seed"] == board_seed(secret, 1) and one["hands"]
    assert not two["revealed"] and "seed" not in two and two["hands"] is None
    assert boards.json()["round_seed"] is None
    assert not any(seed in boards.content.decode() for seed in hidden)

    assert client.get(f"/api/competitions/{cid}/rounds/1/boards/1/traveller").status_code == 200
    refused = client.get(f"/api/competitions/{cid}/rounds/1/boards/2/traveller")
    assert refused.status_code == 409 and refused.json()["code"] == "board_open"

    signed = Client()
    signed.force_login(UserFactory())
    again = signed.post(
        f"/api/competitions/{cid}/rounds/1/boards/2/again",
        {"seat": "north"},
        content_type="application/json",
    )
    assert again.status_code == 409 and again.json()["code"] == "board_open"

    assert compute_round_par(cid, 1) == 2
    assert client.get(f"/api/competitions/{cid}/rounds/1/boards/2/par/1").status_code == 409
    par = client.get(f"/api/competitions/{cid}/rounds/1/boards/1/par/1")
    assert par.status_code == 200, par.content[:300]
    listed = client.get(f"/api/competitions/{cid}/rounds/1/boards").json()["boards"]
    assert listed[0]["par"] is not None and listed[1]["par"] is None
    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("verify_par", cid, stdout=out)
    lines = out.getvalue().splitlines()
    assert any("board 1" in line and "par holds" in line for line in lines), lines
    assert any("board 2" in line and "MISMATCH" in line for line in lines), lines

    # The export carries what is revealed: board 1's seed and results, nothing of board 2.
    answer = client.get(f"/api/competitions/{cid}/export")
    csv_text = client.get(f"/api/competitions/{cid}/export", {"as": "csv"}).content.decode()
    assert answer.status_code == 200
    document = answer.json()
    for text in (json.dumps(document), csv_text):
        assert not any(seed in text for seed in hidden)
    first = document["rounds"][0]
    assert first["seed"] is None
    assert [b["seed"] for b in first["boards"]] == [board_seed(secret, 1), None]
    assert sorted(r["board"] for r in document["board_results"]) == [1, 1]
    path = tmp_path / "open.json"
    path.write_text(answer.content.decode())
    for scale in ("matchpoints", "imps"):
        platform = platform_rows(client, cid, scale)
        assert file_rows(path, scale) == platform
        assert sum(row[4] for row in platform) == 4  # board 1, four partnerships

    # A player of table 1 (who has seen board 2) and anyone else see table 2 as a lobby;
    # and table 1 stays a lobby to outsiders until the round's end (per-round cut kept).
    for viewer in (None, players[0], players[1], UserFactory()):
        for table_id in tables.values():
            view = table_view(table_id, viewer)
            if view["your_seat"] is not None:
                continue
            assert view["hand"] is None and not cards_in_json(view)
            assert not cards_in_json(events_for_viewer(table_id, viewer))
            update = viewer_update(table_id, viewer)  # what the live socket sends
            assert update.view["hand"] is None and not cards_in_json(update.events)
