"""Play this board again (docs/leagues.md, "Play this board again"): a signed-in player
opens a new table that deals one *revealed* board of a duplicate round, sits at the seat
of their choice against three computer players (:data:`LEVEL`), and plays it as one hand
under the competition's pinned rules.

The deal source is the table's own seed, the board's revealed seed (``create_table(
own_seed=...)``): a table deals its hand 1 as ``shuffled_deck(seed, 1)``, which is the
board's deck by the board's definition, so no new event schema is needed; the dealer is
the board's, the table commits to ``SHA-256(board seed)`` (the board's own published
commitment) and reveals it when the hand ends as any table does. The owner tag
``{kind: "board_again", id, round, board}`` says which board it plays. The table is the
player's own quick game: the open tables quota applies as to any (three bots and one
person: not an all-bot table).
"""

from __future__ import annotations

from typing import Any

from games.engine.seats import SEAT_NAMES
from games.services.actors import Actor
from games.services.command_runner import CommandResult
from games.services.seated_table import SeatedTable, start_quick_game
from leagues.core.errors import LeagueError
from leagues.domain.decisions.duplicate import require_duplicate, shown_board

from .streams import load

#: The computer players' level at a board played again (the par's strongest usual
#: opposition is not the point: a player measures themself against the field's cards).
LEVEL = "normal"
#: The owner tag's kind (``TableCreated`` ``owner``): games keeps it and never reads it.
OWNER_KIND = "board_again"


def owner_tag(competition_id: str, round_number: int, board: int) -> dict[str, Any]:
    return {"kind": OWNER_KIND, "id": competition_id, "round": round_number, "board": board}


def play_board_again(
    actor: Actor,
    competition_id: object,
    round_number: int,
    board: int,
    seat: object,
    command_id: str | None = None,
) -> CommandResult:
    """Open, seat and start a table dealing board ``board`` of round ``round_number``
    for ``actor`` at ``seat``. Refused in words: a competition that is not duplicate
    (404 ``not_duplicate``), an unknown board (404), a board not yet revealed (409
    ``board_open``), a seat that is not north, east, south or west (400 ``invalid``)."""
    if not getattr(actor, "is_authenticated", False):
        raise LeagueError("not_signed_in", "Sign in to play a board again.")
    state = load(competition_id)
    require_duplicate(state)
    settings = state.settings
    assert settings is not None
    found = shown_board(state, round_number, board, what="it can be played again")
    if not isinstance(seat, str) or seat not in SEAT_NAMES:
        raise LeagueError(
            "invalid", f"seat is one of {', '.join(SEAT_NAMES)}, not {str(seat)[:20]!r}."
        )
    revealed = found.revealed[board]
    others = {name: {"kind": "bot", "level": LEVEL} for name in SEAT_NAMES if name != seat}
    return start_quick_game(
        SeatedTable(
            actor=actor,
            seat=seat,
            rules={**settings.rules.table_spec, "hands": 1, "extra_hands": 0},
            preset_version=settings.rules.version,
            seats=others,
            command_id=command_id,
            owner=owner_tag(str(state.competition_id), round_number, board),
            own_seed=str(revealed["seed"]),
            first_dealer=str(revealed["dealer"]),
        )
    )
