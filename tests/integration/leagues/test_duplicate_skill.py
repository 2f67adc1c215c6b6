"""The duplicate skill rating as a projection (issue 20, point 5; docs/leagues.md, "The
duplicate skill rating"): a teams-of-four duplicate round of two tables and two boards,
played at the tables by the entrants' own players (consented play, as the site pool
takes it), with the boards' par computed as the bot workers do.

- while the round is open (one table done, the other not, and both done but not yet
  recorded and revealed) the skill rating has no row;
- once the round is revealed and closed, every player's rating and every board's change
  equal ``leagues.core.duplicate.skill`` run here on the recorded board results and par;
- rebuilt from scratch, the projection gives the same rows;
- ``/api/ratings?pool=skill`` and the player's skill history read them.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.subscriptions import catch_up, rebuild
from leagues.core.duplicate.skill import PlayersOnBoard, Skill, update_board_players
from leagues.domain import events as ev
from leagues.models import SkillChange, SkillRating
from leagues.projections import drain_pending, duplicate_skill, match_results
from leagues.services.duplicate import compute_round_par
from leagues.services.presence import arrive
from leagues.services.streams import load
from leagues.services.tables import start_round
from tests.integration.leagues import builders as lg
from tests.integration.tables.helpers import play_moves

from .conftest import entrants_of

pytestmark = pytest.mark.django_db(transaction=True)

BOARDS = 2


def skill_rows(players: set[str]) -> tuple[list[Any], list[Any]]:
    """The projection's rows of ``players`` without their ids (a rebuild hands ids out
    anew). Only this test's players: the event store keeps what earlier transactional
    tests appended (their flush cannot remove events), so a rebuild learns their closed
    rounds too."""
    return (
        list(
            SkillRating.objects.filter(player__in=players)
            .order_by("player")
            .values("player", "mu", "sigma", "boards")
        ),
        list(
            SkillChange.objects.filter(player__in=players)
            .order_by("player", "position", "board")
            .values(
                "player",
                "board_key",
                "position",
                "board",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            )
        ),
    )


def play_table(cid: str, table: int, seed: int) -> None:
    """The table's four players arrive and play its boards to the end (random legal moves)."""
    state = load(cid)
    seats = state.seating(1, table)
    users = {index: lg.user(seats[seat]) for index, seat in enumerate(ev.SEATS)}
    for user in users.values():
        arrive(user, cid, 1)
    play_moves(state.tables[1][table], users, random.Random(seed))


def independent_skill(cid: str) -> tuple[dict[str, Skill], list[tuple[str, int, Skill]]]:
    """The core model run here on the stream's recorded board results and par: each board
    in order, its tables in table order, each entrant as the players it entered with."""
    state = load(cid)
    players = {e.id: tuple(e.players) for e in state.entrants.values()}
    events = lg.events_of(cid)
    results = [e.data for e in events if e.type == ev.BOARD_RESULT_RECORDED]
    pars = {
        int(e.data["par"]["board"]): e.data["par"]
        for e in events
        if e.type == ev.BOARD_PAR_COMPUTED
    }
    ratings: dict[str, Skill] = {}
    changes: list[tuple[str, int, Skill]] = []
    for board in range(1, BOARDS + 1):
        par = pars[board]
        par_net = Fraction(par["north_south_total"] - par["east_west_total"], len(par["plays"]))
        tables = [
            PlayersOnBoard(
                players[r["north_south"]],
                players[r["east_west"]],
                r["score"]["north_south"] - r["score"]["east_west"],
            )
            for r in sorted(results, key=lambda r: r["table"])
            if r["board"] == board
        ]
        ratings = update_board_players(ratings, tables, par_net)
        changes += [(p, board, ratings[p]) for t in tables for p in (*t.north_south, *t.east_west)]
    return ratings, changes


def test_the_skill_rating_learns_the_revealed_boards_as_the_core_does(
    organiser: Any, players: Any
) -> None:
    cid = lg.create_competition(
        organiser,
        {
            "name": "Duplicate teams",
            "stages": [{"kind": "round_robin"}],
            "rules": "standard",
            "duplicate": {
                "boards_per_round": BOARDS,
                "movement": "teams_of_four",
                "scale": "imps",
                "par_plays": 1,
            },
        },
    ).competition_id
    entered = entrants_of(players(8))
    mine = {player for entrant in entered for player in entrant["players"]}
    for entrant in entered:
        lg.enter(organiser, cid, **entrant)
    lg.pair_next_round(organiser, cid)
    start_round(organiser, cid, 1)
    # The par, as the bot workers compute it (synchronously here).
    assert compute_round_par(cid, 1) == BOARDS

    # An open round teaches nothing: one table done, the other not yet.
    play_table(cid, 1, seed=11)
    catch_up(match_results)
    drain_pending()
    catch_up(duplicate_skill)
    assert skill_rows(mine) == ([], [])
    assert not load(cid).duplicate[1].is_revealed

    play_table(cid, 2, seed=12)
    catch_up(match_results)
    drain_pending()
    state = load(cid)
    assert state.duplicate[1].is_revealed and 1 in state.closed
    assert all(r.rated for r in state.results)  # consented: the entrants' own players
    catch_up(duplicate_skill)

    ratings, changes = independent_skill(cid)
    stored = {r.player: r for r in SkillRating.objects.filter(player__in=mine)}
    assert set(stored) == {p for e in state.entrants.values() for p in e.players} == mine
    assert len(stored) == 8
    for player, skill in ratings.items():
        row = stored[player]
        assert (row.mu, row.sigma, row.boards) == (skill.mu, skill.sigma, skill.boards)
        assert row.boards == BOARDS
    history = {
        (c.player, c.board): c for c in SkillChange.objects.filter(board_key__startswith=cid)
    }
    assert len(history) == len(changes) == 8 * BOARDS
    for player, board, after in changes:
        change = history[(player, board)]
        assert (change.mu_after, change.sigma_after) == (after.mu, after.sigma)
        assert change.board_key == f"{cid}:1:{board}"
    # Each board's "after" is the next board's "before"; the last one's is the rating.
    for player, row in stored.items():
        first, second = history[(player, 1)], history[(player, 2)]
        assert (first.mu_before, first.sigma_before) == (0.0, 2.0)
        assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
        assert (row.mu, row.sigma) == (second.mu_after, second.sigma_after)

    # Rebuilt from the first event: the same rows.
    incremental = skill_rows(mine)
    rebuild(duplicate_skill)
    assert skill_rows(mine) == incremental

    # The API reads it as another pool, and the player's skill history board by board.
    client = APIClient()
    answer = client.get("/api/ratings", {"pool": "skill"})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["pool"] == "skill"
    ours = [r for r in body["ratings"] if str(r["player"]) in mine]
    assert len(ours) == 8
    ordinals = [r["ordinal"] for r in body["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    top = ours[0]
    assert top["boards"] == BOARDS and top["ordinal"] == pytest.approx(top["mu"] - 2 * top["sigma"])
    answer = client.get(f"/api/ratings/{top['player']}/history", {"pool": "skill"})
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    assert [(m["round"], m["board"]) for m in shown["matches"]] == [(1, 1), (1, 2)]
    assert shown["rating"]["mu"] == top["mu"]
    assert shown["matches"][-1]["after"]["mu"] == top["mu"]
    # A page of one board: the round's two boards share a position, so it shows the round.
    paged = client.get(f"/api/ratings/{top['player']}/history", {"pool": "skill", "limit": 1})
    assert [m["board"] for m in paged.json()["matches"]] == [1, 2]
    assert paged.json()["earlier"] is None
    # A pool it does not know is refused in words that name the skill pool.
    refused = client.get("/api/ratings", {"pool": "skills"})
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert "skill" in refused.json()["message"]
