"""The one refusal of a file tool: a sentence for stderr, then exit 1."""

from __future__ import annotations


class ToolError(Exception):
    """Input a file tool refuses: ``message`` is the whole line it prints (no prefix)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
