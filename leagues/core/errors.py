"""The one error type for a refused league operation."""

from __future__ import annotations


class LeagueError(ValueError):
    """Something the competition rules refuse.

    ``code`` is a stable machine-readable reason (``"unknown_tiebreak"``); ``message`` is
    a sentence an organiser understands.  The API maps it to a 4xx ``{code, message}``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The error as ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}
