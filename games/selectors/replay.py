"""What the replay viewer shows of a table: its finished hands, every card face up.

The hands are the export's (``games.services.export.export_table``: complete hands only,
whose cards are public once the hand is over), replayed through the engine
(``games.engine.record.replay_document``) for what a record does not store: each trick's
winner and each team's score breakdown. So the viewer shows exactly what an auditor gets
by replaying the downloaded record, and a table still in play shows nothing of the hand
in play (not its deal, its bids or its cards): that hand is not in the export. A spectator
of a table with a spectator delay gets the export of its delayed prefix
(``games.selectors.visibility.visible_version``), so no hand appears before the delay has
passed its last trick.
"""

from __future__ import annotations

from typing import Any

from games.engine.record import RecordError
from games.selectors.visibility import visible_version
from games.services.errors import CommandRejected
from games.services.export import export_table
from games.services.read_model import seat_rows
from games.services.table_state import reading_state
from scoring.core.replay import replay_document

TEAMS = ("north_south", "east_west")


def table_replay(table_id: object, viewer: Any = None) -> dict[str, Any]:
    """``{"record", "hands", "seats", "hand_in_play", "totals", "winner"}``, JSON-ready.

    ``record`` is the export (the download); ``hands[i]`` goes with ``record["hands"][i]``:
    ``{"number", "tricks", "trick_winners", "north_south", "east_west"}``. Raises
    CommandRejected 404 for an unknown table, 409 when the record does not replay.
    """
    record = export_table(table_id, up_to=visible_version(table_id, viewer))
    with reading_state(table_id) as state:
        seats = seat_rows(state)
    table = record["table"]
    playing = table["status"] == "playing"
    hands: list[dict[str, Any]] = []
    totals = {team: 0 for team in TEAMS}
    winner = None
    if record["hands"]:
        try:
            replayed = replay_document({"rules": record["rules"], "hands": record["hands"]})
        except RecordError as error:
            raise CommandRejected("record_not_replayable", error.message, 409) from None
        summary = replayed.as_dict()
        hands = [{"number": n, **hand} for n, hand in enumerate(summary["hands"], start=1)]
        totals = summary["totals"]
        winner = summary["winner"]
    return {
        "record": record,
        "hands": hands,
        "seats": seats,
        "hand_in_play": len(record["hands"]) + 1 if playing else None,
        "totals": totals,
        "winner": winner,
    }
