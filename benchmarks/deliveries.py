"""What each socket of a table received, and what that says about each move (pure).

A socket's messages each bring it to a stream ``version`` (docs/live.md): the first,
``state``, to the version it connected at; each ``events`` message from ``after`` to
``version``, with the viewer's events in between. A move's commit has reached a socket
at the first message whose version is at least the commit's. A move's fan-out latency is
from its HTTP request to the last of its table's sockets reaching its version.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass
class SocketLog:
    """One socket's receipts: the versions its messages brought it to, with when."""

    versions: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    #: Every event version received, in order of receipt (duplicates kept).
    events: list[int] = field(default_factory=list)
    #: Receipts of an event version already received.
    duplicated: int = 0
    #: Messages whose ``after`` was not the version the previous message brought.
    sequence_breaks: int = 0
    #: The version it connected at (its ``state`` message), None before.
    start: int | None = None
    _seen: set[int] = field(default_factory=set, repr=False)

    def record(
        self, after: int | None, version: int, event_versions: Iterable[int], at: float
    ) -> None:
        """A message received at ``at``: ``after`` None for the first (``state``)."""
        if after is None:
            if self.start is None:
                self.start = version
        elif self.versions and after != self.versions[-1]:
            self.sequence_breaks += 1
        if not self.versions or version > self.versions[-1]:
            self.versions.append(version)
            self.times.append(at)
        for event in event_versions:
            if event in self._seen:
                self.duplicated += 1
            else:
                self._seen.add(event)
            self.events.append(event)

    @property
    def version(self) -> int | None:
        """The version the last message brought it to."""
        return self.versions[-1] if self.versions else None

    def reached(self, version: int) -> float | None:
        """When a message first brought it to ``version`` or later (None: not yet)."""
        index = bisect.bisect_left(self.versions, version)
        return self.times[index] if index < len(self.times) else None


def fanout_latency(sent_at: float, version: int, sockets: Sequence[SocketLog]) -> float | None:
    """Seconds from a move's request (``sent_at``) to the last of ``sockets`` reaching the
    move's ``version``; None while one of them has not."""
    latest = sent_at
    for socket in sockets:
        at = socket.reached(version)
        if at is None:
            return None
        latest = max(latest, at)
    return latest - sent_at


@dataclass(frozen=True)
class Accounting:
    """A socket's events against the events it should have received."""

    lost: int
    duplicated: int


def account(expected: Iterable[int], received: Sequence[int]) -> Accounting:
    """``lost``: expected event versions never received; ``duplicated``: receipts of a
    version already received."""
    seen = set(received)
    return Accounting(
        lost=len(set(expected) - seen),
        duplicated=len(received) - len(seen),
    )
