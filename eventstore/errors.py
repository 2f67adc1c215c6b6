"""What the event store refuses, and why."""

from __future__ import annotations

__all__ = [
    "AppendOutsideTransaction",
    "InvalidEvent",
    "StaleTransaction",
    "WrongExpectedVersion",
]


class WrongExpectedVersion(Exception):
    """The stream is not at the version the caller expected (someone else appended)."""

    def __init__(self, stream_id: str, expected: int, current: int, reason: str = "") -> None:
        self.stream_id = stream_id
        self.expected = expected
        self.current = current
        message = f"stream {stream_id!r} is at version {current}, the command expected {expected}"
        super().__init__(f"{message}: {reason}" if reason else message)


class StaleTransaction(WrongExpectedVersion):
    """The version matched, but a transaction that started later already appended to the
    stream. Appending now would order this stream's events against the transaction-id order
    that subscriptions read in; retry the whole command in a new transaction (it will
    succeed if the version still matches). Happens only when the transaction wrote before
    appending and raced another appender of the same stream.
    """


class InvalidEvent(ValueError):
    """An append argument that can never be stored (bad id, type, payload...)."""


class AppendOutsideTransaction(RuntimeError):
    """append() was called outside transaction.atomic()."""
