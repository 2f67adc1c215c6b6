"""Leagues projections: official standings, match results from tables, ratings.

All three follow the global event log (``eventstore.subscriptions``; the projector
process runs them in a lane of their own, ``lane = "leagues"``, so a table's result does
not wait behind the score ledger's round) and are rebuildable: ``rebuild`` replays the
log into the same rows. Each reads only the events it uses (``stream_prefixes``,
``event_types``: filtered in the batch's SQL).

- ``league_standings``: folds every competition stream and writes its standings
  document (:class:`~leagues.models.OfficialStandings`), the standings' one writer;
  after the batch commits it tells the competition's WebSocket group
  (``competition.<id>``).
- ``league_match_results``: the trigger of the match-results process
  (:mod:`leagues.services.match_results`): when a competition table's game is over
  (``DealSeedRevealed``; a fixed-hands match's table ends after its hands, a rule of its
  game) the process keeps the table's own final result in the batch's transaction and,
  after the catch-up (``after_catch_up``), appends it to the competition.
- ``league_board_ends``: the trigger of per-board reveal
  (:mod:`leagues.services.board_reveal`): a duplicate table's board ends with its hand's
  52nd ``CardPlayed``; once every table of the round has finished a board, its results
  and ``BoardRevealed`` are appended after the catch-up. Its own lane (``boards``): it
  reads every table's cards.
- ``league_rating_pools``: openskill per player and ratings pool (the site's and each
  league's, :mod:`leagues.domain.pools`) from the results that feed each pool
  (:mod:`leagues.core.ratings`), with each rated match's change per player (the
  rating history, :class:`~leagues.models.RatingChange`); a correction recomputes the
  pools it touches in log order, history included.
- ``league_duplicate_skill``: the duplicate skill per player
  (:mod:`leagues.core.duplicate.skill`), learnt board by board from a duplicate round's
  consented board results once the round is closed and its boards revealed, with each
  board's change per player (:class:`~leagues.models.SkillChange`).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection, transaction

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from eventstore.subscriptions import CompactEvent, Projection
from games.domain import events as table_events
from games.domain.streams import TABLE_STREAM_PREFIX, table_id_of_stream
from leagues.core.duplicate.skill import Skill, update_board_players
from leagues.core.ratings import PlayerRating as Rating
from leagues.core.ratings import RatedMatch, rate_with_changes
from leagues.core.ratings import RatingChange as Change
from leagues.domain import events as ev
from leagues.domain.decisions.duplicate import skill_boards
from leagues.domain.pools import SITE_POOL, pools_fed
from leagues.domain.state import CompetitionState
from leagues.models import (
    OfficialStandings,
    PendingBoardResult,
    PendingTableResult,
    PlayerRating,
    RatedResult,
    RatingChange,
    SkillChange,
    SkillRating,
)
from leagues.services.board_reveal import drain_boards, keep_board_ends
from leagues.services.match_results import drain_pending, keep_finished

logger = logging.getLogger(__name__)

Event = StoredEvent | CompactEvent
MAX_STATES = 2000


class CompetitionStates:
    """Folded competitions kept between batches; read back from the stream when missing."""

    def __init__(self) -> None:
        self._states: OrderedDict[str, CompetitionState] = OrderedDict()

    def clear(self) -> None:
        self._states.clear()

    def before(self, event: Event) -> CompetitionState:
        state = self._states.pop(event.stream_id, None)
        if state is None or state.version != event.version - 1:
            state = CompetitionState.fold(read_stream(event.stream_id, limit=event.version - 1))
        self._states[event.stream_id] = state
        while len(self._states) > MAX_STATES:
            self._states.popitem(last=False)
        return state


def standings_document(state: CompetitionState) -> dict[str, Any]:
    """The official standings of a folded competition (what the projection stores)."""
    competition = state.competition()
    return {
        "competition_id": state.competition_id,
        "version": state.version,
        "rounds": state.last_round,
        "closed_rounds": sorted(state.closed),
        "finished": state.finished,
        "standings": competition.standings().as_dict(),
        "stale_pairings": [stale.as_dict() for stale in competition.stale_pairings()],
    }


def group_name(competition_id: str) -> str:
    return f"competition.{competition_id}"


def _push(competition_id: str, message: dict[str, Any], what: str) -> None:
    """One message to a competition's sockets. A push is a courtesy: the stored row is
    the record, and a page that missed it catches up at the next version."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(competition_id), message)
    except Exception:
        logger.warning("%s push for %s failed", what, competition_id, exc_info=True)


def _announce(changed: dict[str, int]) -> None:
    for competition_id, version in changed.items():
        _push(competition_id, {"type": "standings.changed", "version": version}, "standings")


def announce_tables(competition_id: str, round_number: int) -> None:
    """Tell the competition's sockets that a started round's tables all exist now (its
    pages open their boards; a table's creation moves no competition version)."""
    _push(competition_id, {"type": "tables.opened", "round": round_number}, "tables")


# An upsert that never moves a row back (a rebuild, or a second projector process behind
# the first, leaves a newer row alone). RETURNING: the rows that changed (only those are
# pushed).
STORE_SQL = """
INSERT INTO leagues_officialstandings (competition_id, version, document, updated_at)
VALUES {values}
ON CONFLICT (competition_id) DO UPDATE
   SET version = EXCLUDED.version, document = EXCLUDED.document,
       updated_at = EXCLUDED.updated_at
 WHERE leagues_officialstandings.version < EXCLUDED.version
RETURNING competition_id::text, version
"""


# clock_timestamp(): when it was written (now() is the transaction's start).
ROW_SQL = "(%s, %s, %s::jsonb, clock_timestamp())"


def store_standings(states: Iterable[CompetitionState]) -> dict[str, int]:
    """Write the standings document of each folded competition, unless its row already
    holds that version or a later one; after the commit, push the ones written to their
    groups. Runs in the caller's transaction; returns ``{competition_id: version}``
    written."""
    rows = [(s.competition_id, s.version, standings_document(s)) for s in states if s.exists]
    if not rows:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            STORE_SQL.format(values=", ".join([ROW_SQL] * len(rows))),
            [value for cid, version, doc in rows for value in (cid, version, json.dumps(doc))],
        )
        changed = {str(cid): int(version) for cid, version in cursor.fetchall()}
    if changed:
        transaction.on_commit(lambda: _announce(changed))
    return changed


class OfficialStandingsProjection(Projection):
    name = "league_standings"
    compact = True
    stream_prefixes = (ev.COMPETITION_STREAM_PREFIX,)
    lane = "leagues"
    # Right after the match results in the lane's round: the standings are what a
    # subscriber waits for, the ratings are not.
    order = 20

    def __init__(self) -> None:
        self.states = CompetitionStates()

    def reset(self) -> None:
        OfficialStandings.objects.all().delete()
        self.states.clear()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        touched: dict[str, CompetitionState] = {}
        for event in events:
            competition_id = ev.competition_id_of(event.stream_id)
            if competition_id is None:
                continue
            state = self.states.before(event)
            state.apply(event)
            touched[competition_id] = state
        # One upsert for the batch (this runs on the standings' lag path).
        store_standings(touched.values())


# ---------------------------------------------------------------- table results


class MatchResultsProjection(Projection):
    name = "league_match_results"
    compact = True
    # Of a table's events only the end of its game decides a match: the rest (every bid
    # and card) is left out in the batch's SQL, so the standings' lane reads one row a game.
    stream_prefixes = (TABLE_STREAM_PREFIX,)
    event_types = (table_events.DEAL_SEED_REVEALED, table_events.DEAL_REVEAL_HELD)
    lane = "leagues"
    order = 10

    def reset(self) -> None:
        PendingTableResult.objects.all().delete()

    def after_catch_up(self) -> None:
        # After every catch-up, events or not: rows may be kept by this one's batches,
        # left by a failed append, or by another (or an earlier) process.
        if PendingTableResult.objects.exists():
            drain_pending()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        # A table's game is over when its seed is revealed (or, dealing a duplicate
        # round's boards, held back); the match-results process reads the rest
        # (leagues.services.match_results).
        candidates = {
            table_id: event
            for event in events
            if event.type in (table_events.DEAL_SEED_REVEALED, table_events.DEAL_REVEAL_HELD)
            and (table_id := table_id_of_stream(event.stream_id)) is not None
        }
        if candidates:
            keep_finished(candidates)


class BoardEndsProjection(Projection):
    """The trigger of per-board reveal (:mod:`leagues.services.board_reveal`): a
    duplicate table's board ends with its hand's 52nd ``CardPlayed``.

    It reads every table's cards, so it runs in a lane of its own (``boards``): the
    standings' lane still reads one row a game. A table outside duplicate rounds costs
    one lookup per batch (then it is remembered)."""

    name = "league_board_ends"
    compact = True
    stream_prefixes = (TABLE_STREAM_PREFIX,)
    event_types = (table_events.CARD_PLAYED,)
    lane = "boards"
    order = 10

    def reset(self) -> None:
        PendingBoardResult.objects.all().delete()

    def after_catch_up(self) -> None:
        if PendingBoardResult.objects.exists():
            drain_boards()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        last: dict[tuple[str, int], Event] = {}
        for event in events:
            table_id = table_id_of_stream(event.stream_id)
            hand = event.data.get("hand_number")
            if table_id is not None and isinstance(hand, int):
                last[(table_id, hand)] = event
        if last:
            keep_board_ends(last)


# ---------------------------------------------------------------- ratings


class RatingsProjection(Projection):
    """Openskill per player and pool (``leagues.domain.pools``): a result is kept once
    per pool it feeds (``pools_fed``), a typed-in result for the site pool when its
    confirmation makes it rated; a correction supersedes the result in every pool and
    recomputes those pools in log order."""

    # Named for its pools: a new name starts from the first event, so the pools are
    # built from the whole log (the single-pool ``league_ratings`` it replaces is gone).
    name = "league_rating_pools"
    compact = True
    stream_prefixes = (ev.COMPETITION_STREAM_PREFIX,)
    lane = "leagues"

    def __init__(self) -> None:
        self.states = CompetitionStates()

    def reset(self) -> None:
        RatedResult.objects.all().delete()
        PlayerRating.objects.all().delete()
        RatingChange.objects.all().delete()
        self.states.clear()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        new_rows: list[RatedResult] = []
        superseded: list[str] = []
        for event in events:
            competition_id = ev.competition_id_of(event.stream_id)
            if competition_id is None:
                continue
            state = self.states.before(event)
            state.apply(event)
            if state.settings is None:
                continue
            data = event.data
            if event.type in ev.RESULT_EVENTS:
                if data.get("corrects"):
                    superseded.append(f"{competition_id}:{data['corrects']}")
                pools = pools_fed(state.settings, self._result(state, str(data["result_id"])))
            elif event.type == ev.RESULT_CONFIRMED and data.get("rated"):
                pools = [SITE_POOL]
            else:
                continue
            result = self._result(state, str(data["result_id"]))
            new_rows.extend(
                RatedResult(
                    pool=pool,
                    result_key=f"{competition_id}:{result.id}",
                    position=event.position,
                    north_south=list(state.players_in(result.north_south, result.round)),
                    east_west=list(state.players_in(result.east_west, result.round)),
                    winner=result.winner,
                )
                for pool in pools
            )
        if new_rows:
            RatedResult.objects.bulk_create(new_rows, ignore_conflicts=True)
        if superseded:
            pools = set(
                RatedResult.objects.filter(result_key__in=superseded).values_list("pool", flat=True)
            )
            RatedResult.objects.filter(result_key__in=superseded).update(superseded=True)
            self._recompute(pools | {row.pool for row in new_rows})
        elif new_rows:
            self._apply(new_rows)

    @staticmethod
    def _result(state: CompetitionState, result_id: str) -> Any:
        result = state.result_of(result_id)
        assert result is not None  # the event just folded holds it
        return result

    @staticmethod
    def _matches(rows: Sequence[RatedResult]) -> list[RatedMatch]:
        return [
            RatedMatch(
                row.result_key,
                row.position,
                (row.north_south[0], row.north_south[1]),
                (row.east_west[0], row.east_west[1]),
                row.winner,  # type: ignore[arg-type]
            )
            for row in rows
        ]

    def _apply(self, rows: Sequence[RatedResult]) -> None:
        by_pool: dict[str, list[RatedResult]] = {}
        for row in rows:
            by_pool.setdefault(row.pool, []).append(row)
        for pool, pool_rows in by_pool.items():
            players = {p for row in pool_rows for p in (*row.north_south, *row.east_west)}
            start = {
                r.player: Rating(r.player, r.mu, r.sigma, r.matches)
                for r in PlayerRating.objects.filter(pool=pool, player__in=players)
            }
            self._save(pool, *rate_with_changes(self._matches(pool_rows), start))

    def _recompute(self, pools: set[str]) -> None:
        for pool in sorted(pools):
            rows = list(
                RatedResult.objects.filter(pool=pool, superseded=False).order_by("position")
            )
            PlayerRating.objects.filter(pool=pool).delete()
            RatingChange.objects.filter(pool=pool).delete()
            self._save(pool, *rate_with_changes(self._matches(rows)))

    @staticmethod
    def _save(pool: str, ratings: dict[str, Rating], changes: Sequence[Change]) -> None:
        """The pool's new ratings, and each player's change at each match (the history)."""
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    pool=pool,
                    player=c.before.player,
                    result_key=c.match,
                    position=c.order,
                    mu_before=c.before.mu,
                    sigma_before=c.before.sigma,
                    mu_after=c.after.mu,
                    sigma_after=c.after.sigma,
                )
                for c in changes
            ],
            # As the results: a result delivered again is not a second history row.
            ignore_conflicts=True,
        )
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(pool=pool, player=r.player, mu=r.mu, sigma=r.sigma, matches=r.matches)
                for r in ratings.values()
            ],
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["mu", "sigma", "matches"],
        )


# ---------------------------------------------------------------- duplicate skill


class DuplicateSkillProjection(Projection):
    """The duplicate skill per player (docs/leagues.md, "The duplicate skill rating"):
    when a duplicate round closes with its boards revealed, its boards (in order) teach
    the players of the consented tables (``skill_boards``); each board's change per
    player is a history row. Rounds are taken in log order, so a rebuild gives the same
    rows. Kept apart from the openskill pools: another scale, another input."""

    name = "league_duplicate_skill"
    compact = True
    stream_prefixes = (ev.COMPETITION_STREAM_PREFIX,)
    lane = "leagues"

    def __init__(self) -> None:
        self.states = CompetitionStates()

    def reset(self) -> None:
        SkillRating.objects.all().delete()
        SkillChange.objects.all().delete()
        self.states.clear()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        for event in events:
            competition_id = ev.competition_id_of(event.stream_id)
            if competition_id is None:
                continue
            state = self.states.before(event)
            state.apply(event)
            if event.type != ev.ROUND_CLOSED:
                continue
            round_number = int(event.data["round"])
            boards = skill_boards(state, round_number)
            if boards:
                self._learn(f"{competition_id}:{round_number}", event.position, boards)

    @staticmethod
    def _learn(round_key: str, position: int, boards: Sequence[Any]) -> None:
        players = {
            p for _, tables, _ in boards for t in tables for p in (*t.north_south, *t.east_west)
        }
        ratings: dict[str, Skill] = {
            r.player: Skill(r.mu, r.sigma, r.boards)
            for r in SkillRating.objects.filter(player__in=players)
        }
        changes: list[SkillChange] = []
        moved: set[str] = set()
        for board, tables, par_net in boards:
            after = update_board_players(ratings, tables, par_net)
            for player in sorted(players):
                if player in after and after[player].boards != ratings.get(player, Skill()).boards:
                    before = ratings.get(player) or Skill()
                    changes.append(
                        SkillChange(
                            player=player,
                            board_key=f"{round_key}:{board}",
                            position=position,
                            board=board,
                            mu_before=before.mu,
                            sigma_before=before.sigma,
                            mu_after=after[player].mu,
                            sigma_after=after[player].sigma,
                        )
                    )
                    moved.add(player)
            ratings = after
        # As the openskill history: a round delivered again is not a second row.
        SkillChange.objects.bulk_create(changes, ignore_conflicts=True)
        SkillRating.objects.bulk_create(
            [
                SkillRating(
                    player=p, mu=ratings[p].mu, sigma=ratings[p].sigma, boards=ratings[p].boards
                )
                for p in sorted(moved)
            ],
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["mu", "sigma", "boards"],
        )


official_standings = OfficialStandingsProjection()
match_results = MatchResultsProjection()
board_ends = BoardEndsProjection()
player_ratings = RatingsProjection()
duplicate_skill = DuplicateSkillProjection()
