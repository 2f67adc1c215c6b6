"""A duplicate competition played by bots through a real Celery worker and projector
(issue 20, points 1, 2 and 4): a teams-of-four round of two tables and two boards.

- every table dealt exactly the committed boards, in order (its decks are the boards'
  decks, re-derived from the revealed seeds; its deal commitment is the round's and
  verifies after the reveal);
- the board results equal an independent recomputation with ``board_scoring`` from the
  tables' own hands, and the standings add them up (matchpoints; IMPs as a what-if);
- every board has a par recorded on the bot workers, and ``verify_par`` holds;
- the traveller is refused while the round is open and shown after;
- the duplicate skill rating learns nothing from it: bots played every seat (bot
  substitutes), which the site ratings pool does not take, and neither does the skill.

Real PostgreSQL (committed) and Redis, as in tests/integration/live (``live_db``).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from eventstore.reading import read_stream
from eventstore.subscriptions import catch_up
from games.domain import events as table_events
from games.domain.streams import table_stream_id
from games.domain.table import TableState
from games.engine.rules import rules_from_spec
from games.services.deal_verification import check_deals
from leagues.core.duplicate.board_scoring import score_board, traveller
from leagues.core.duplicate.boards import verify_round_boards
from leagues.core.errors import LeagueError
from leagues.domain import events as ev
from leagues.models import SkillChange, SkillRating
from leagues.projections import duplicate_skill
from leagues.selectors import duplicate as reads
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.live.conftest import Processes, new_user, wait_until

from .test_end_to_end import closed, projector

BOARDS = 2


def duplicate_competition(organiser: Any, movement: str = "teams_of_four") -> str:
    cid = lg.create_competition(
        organiser,
        {
            "name": "Duplicate teams",
            "stages": [{"kind": "round_robin"}],
            "rules": "standard",
            "bot_level": "easy",
            "duplicate": {
                "boards_per_round": BOARDS,
                "movement": movement,
                "scale": "matchpoints",
                "par_plays": 1,
            },
        },
    ).competition_id
    for number in range(1, 5):
        a, b = new_user("d"), new_user("d")
        lg.enter(organiser, cid, entrant_id=f"e{number}", players=[str(a.pk), str(b.pk)])
    return cid


def test_a_duplicate_round_deals_the_committed_boards_and_scores_them(
    live_db: None, processes: Processes
) -> None:
    processes.worker(concurrency=2)
    projector(processes)
    organiser = new_user("organiser")
    cid = duplicate_competition(organiser)
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)

    state = load(cid)
    committed = state.duplicate[1]
    assert [b["board"] for b in committed.boards] == [1, 2]
    assert [b["dealer"] for b in committed.boards] == ["north", "east"]
    assert committed.round_seed is None
    tables = state.tables[1]
    assert len(tables) == 2
    with pytest.raises(LeagueError) as refused:
        reads.board_traveller(cid, 1, 1)
    assert refused.value.code in ("board_open",)

    closed(cid, 1, processes)

    def revealed() -> Any:
        current = load(cid)
        found = current.duplicate[1]
        return current if found.is_revealed and len(found.pars) == BOARDS else None

    state = wait_until(revealed, 240, "boards revealed and par recorded", poll=0.3)
    found = state.duplicate[1]
    assert found.round_seed is not None
    # Anyone re-derives every board from the revealed seeds.
    checks = verify_round_boards(
        found.round_seed, found.round_commitment, list(found.revealed.values())
    )
    assert all(check.ok for check in checks), checks
    rules = rules_from_spec(dict(state.settings.rules.snapshot))  # type: ignore[union-attr]

    # Every table dealt exactly the committed boards, in order; its commitment is the
    # round's, and once revealed its deals verify.
    def tables_revealed() -> Any:
        folded = {
            table: TableState.fold(read_stream(table_stream_id(table_id)))
            for table, table_id in tables.items()
        }
        return folded if all(t.revealed_seed for t in folded.values()) else None

    folded = wait_until(tables_revealed, 60, "tables revealed", poll=0.3)
    recomputed: dict[int, list[tuple[int, int, int, int]]] = {1: [], 2: []}
    for table, table_state in folded.items():
        events = read_stream(table_stream_id(tables[table]))
        assert events[0].schema_version == 4
        assert events[0].data["deals"]["commitment"] == found.round_commitment
        assert table_state.commitment == found.round_commitment
        assert check_deals(table_stream_id(tables[table]), events) is None
        dealt = [e for e in events if e.type == table_events.HAND_DEALT]
        assert len(dealt) == BOARDS
        for number, event in enumerate(dealt, start=1):
            assert event.data["deck"] == found.revealed[number]["deck"]
            assert event.data["dealer"] == found.revealed[number]["dealer"]
        assert any(e.type == table_events.DEAL_REVEAL_HELD for e in events)
        # Each board scored on its own, independently of the platform's record.
        for number, hand in enumerate(table_state.game.hands, start=1):  # type: ignore[union-attr]
            score = score_board(rules, hand.bids, hand.blind, hand.tricks_won)
            recomputed[number].append((table, 0, 0, score.net))
    # The recorded board results are that recomputation.
    assert len(found.results) == BOARDS * len(tables)
    for result in found.results:
        table_state = folded[int(result["table"])]
        hand = table_state.game.hands[int(result["board"]) - 1]  # type: ignore[union-attr]
        score = score_board(rules, hand.bids, hand.blind, hand.tricks_won)
        assert result["score"] == {
            "north_south": score.north_south.points,
            "east_west": score.east_west.points,
        }
    # The traveller's matchpoints and IMPs are board_scoring's over the same nets.
    for number in (1, 2):
        shown = reads.board_traveller(cid, 1, number)
        expected = traveller(sorted(recomputed[number]))
        assert [line["matchpoints"] for line in shown["tables"]] == [
            line.as_dict()["matchpoints"] for line in expected
        ]
        assert [line["imps"] for line in shown["tables"]] == [
            line.as_dict()["imps"] for line in expected
        ]
        assert shown["par"] is not None and shown["par"]["bot_version"]
    # Standings: matchpoints officially, IMPs as a what-if; each entrant played 2 boards.
    official = reads.standings(cid)
    assert official["scale"] == "matchpoints" and official["official"]
    assert all(row["boards"] == BOARDS for row in official["rows"])
    total = sum(row["matchpoints"] for row in official["rows"])
    # Each board at two tables: 2 (tables - 1) matchpoints per direction per table.
    assert total == BOARDS * len(tables) * 2 * (len(tables) - 1)
    assert reads.standings(cid, "imps")["scale"] == "imps"
    assert sum(row["imps"] for row in official["rows"]) == 0

    # verify_par recomputes every par from the revealed seeds.
    out = io.StringIO()
    call_command("verify_par", cid, stdout=out)
    assert out.getvalue().count("holds") == BOARDS, out.getvalue()
    # The par events are on the stream, one per board, with the bot version.
    pars = [e for e in lg.events_of(cid) if e.type == ev.BOARD_PAR_COMPUTED]
    assert len(pars) == BOARDS

    # Bot-played boards are no consented play: the skill rating has nothing of them.
    results = [r for r in state.results if r.round == 1]
    assert results and all(r.bot_substitute and not r.rated for r in results)
    catch_up(duplicate_skill)  # with the projector process: they take turns
    entered = [p for e in state.entrants.values() for p in e.players]
    assert not SkillRating.objects.filter(player__in=entered).exists()
    assert not SkillChange.objects.filter(board_key__startswith=cid).exists()


def test_verify_par_refuses_bad_input_in_one_line(live_db: None) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("verify_par", "not-a-competition")
    assert "\n" not in str(refused.value)
