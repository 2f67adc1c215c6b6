"""The one error type for a refused move."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move the rules refuse.

    ``code`` is a stable machine-readable reason (``"must_follow_suit"``);
    ``message`` is a sentence a player understands.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The error as ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}
