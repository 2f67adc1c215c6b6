"""Refusals of the table domain beyond the rules of play."""

from __future__ import annotations

from games.engine.errors import IllegalMove


class TableRefusal(IllegalMove):
    """A command the table refuses for a reason other than the rules of play.

    ``status`` is the HTTP-like class of the refusal: 403 (not your seat), 404, 409 (the
    table is not in a state for it).  Plain :class:`IllegalMove` means 400.
    """

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(code, message)
        self.status = status
