"""The one error the table services raise for a refused command."""

from __future__ import annotations

from typing import Any


class CommandRejected(Exception):
    """A command the table refuses; nothing was written.

    ``status``: 400 (the rules refuse: the engine's sentence), 403 (not your seat),
    404 (no such table), 409 (stale ``expected_version`` or a table in the wrong state).
    ``current_version`` is set on version conflicts.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, current_version: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.current_version = current_version

    def as_dict(self) -> dict[str, Any]:
        """``{"code", "message"}`` plus ``"current_version"`` on conflicts."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.current_version is not None:
            body["current_version"] = self.current_version
        return body
