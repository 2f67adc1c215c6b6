"""The score ledger projection: per table, hand and team, the breakdown and running totals.

Follows the global event log (``eventstore.subscriptions``) and folds each table's events
through the same :class:`~games.domain.table.TableState` the commands use; every time a
hand's last card is folded it writes a :class:`scoring.models.LedgerHand` row.  Nothing
here decides a score: ``scoring.core`` does, through the fold.

States of tables in play are kept in memory between batches (a projector process follows
many tables); after a restart, or when a table's state was evicted, the table's earlier
events are read back from its stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from cachetools import LRUCache

from eventstore.reading import read_stream
from eventstore.records import StoredEvent
from eventstore.subscriptions import CompactEvent, Projection
from games.domain import events as ev
from games.domain.streams import TABLE_STREAM_PREFIX
from games.domain.table import TableState
from games.engine.errors import IllegalMove
from games.engine.hand_summary import hand_summary
from games.engine.seats import TEAM_NAMES
from scoring.models import LedgerHand

Event = StoredEvent | CompactEvent

MAX_STATES = 5000


class ScoreLedgerProjection(Projection):
    """Builds ``scoring_ledgerhand`` rows from table streams."""

    name = "score_ledger"
    compact = True  # folds type and data only

    def __init__(self) -> None:
        self._states: LRUCache[str, TableState] = LRUCache(maxsize=MAX_STATES)

    def reset(self) -> None:
        """Drop every ledger row (and the in-memory states)."""
        LedgerHand.objects.all().delete()
        self._states.clear()

    def handle(self, event: Event) -> None:
        self.handle_batch([event])

    def handle_batch(self, events: Sequence[Event]) -> None:
        rows: list[LedgerHand] = []
        for event in events:
            row = self._fold(event)
            if row is not None:
                rows.append(row)
        if rows:
            LedgerHand.objects.bulk_create(rows)

    # ------------------------------------------------------------ folding

    def _state_before(self, event: Event) -> TableState | None:
        stream_id = event.stream_id
        state = self._states.pop(stream_id, None)
        if state is None or state.version != event.version - 1:
            state = TableState()
            if event.version > 1:
                earlier = read_stream(stream_id, limit=event.version - 1)
                for old in earlier:
                    state.apply(old.type, old.data)
            if state.version != event.version - 1:
                return None
        return state

    def _fold(self, event: Event) -> LedgerHand | None:
        stream_id = event.stream_id
        if not stream_id.startswith(TABLE_STREAM_PREFIX):
            return None
        # A stream that cannot be folded (or its row written) raises: the subscription sets
        # that stream aside as broken, with the reason, and the other tables go on.
        # verify_events says what is wrong with it.
        state = self._state_before(event)
        if state is None:
            raise IllegalMove("gap", f"events before version {event.version} are missing")
        hands_scored = len(state.game.ledger.hands) if state.game is not None else 0
        state.apply(event.type, event.data)
        row = None
        game = state.game
        if game is not None and len(game.ledger.hands) > hands_scored:
            row = _ledger_row(stream_id, state, event.version)
        if event.type == ev.DEAL_SEED_REVEALED:
            return row  # the game is over: its state is not needed again
        self._states[stream_id] = state
        return row


def _ledger_row(stream_id: str, state: TableState, version: int) -> LedgerHand:
    game = state.game
    assert game is not None
    result = game.ledger.hands[-1]
    summary = hand_summary(game.hands[result.number - 1])
    teams = result.as_dict()
    after = {team.team: team for team in result.teams}
    winner = None
    if game.ledger.winner is not None and game.ledger.finished_after_hand == result.number:
        winner = TEAM_NAMES[game.ledger.winner]
    return LedgerHand(
        table_id=UUID(stream_id.removeprefix(TABLE_STREAM_PREFIX)),
        hand_number=result.number,
        bids=summary.bids,
        tricks=summary.tricks,
        teams=teams,
        total_north_south=after[0].total,
        total_east_west=after[1].total,
        bags_north_south=after[0].bags_total,
        bags_east_west=after[1].bags_total,
        winner=winner,
        event_version=version,
    )


score_ledger = ScoreLedgerProjection()


def ledger_for_table(table_id: object, hands: int | None = None) -> dict[str, object]:
    """The projected ledger of one table: ``{"hands": [...], "totals", "bags", "winner"}``;
    of its first ``hands`` hands only when given (what a delayed spectator may see)."""
    rows = LedgerHand.objects.filter(table_id=table_id).order_by("hand_number")
    if hands is not None:
        rows = rows.filter(hand_number__lte=hands)
    rows = list(rows)
    hands = [
        {"hand_number": row.hand_number, "bids": row.bids, "tricks": row.tricks, **row.teams}
        for row in rows
    ]
    last = rows[-1] if rows else None
    return {
        "table_id": str(table_id),
        "hands": hands,
        "totals": {
            "north_south": last.total_north_south if last else 0,
            "east_west": last.total_east_west if last else 0,
        },
        "bags": {
            "north_south": last.bags_north_south if last else 0,
            "east_west": last.bags_east_west if last else 0,
        },
        "winner": next((row.winner for row in rows if row.winner), None),
    }
