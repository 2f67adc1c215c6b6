"""The event store's values: an event to append, an event as stored, an append's result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eventstore.hashing import event_hash

__all__ = ["AppendResult", "NewEvent", "StoredEvent"]


@dataclass(frozen=True)
class NewEvent:
    """An event to append: a past-tense type name and JSON-ready inputs."""

    type: str
    data: dict[str, Any]
    schema_version: int = 1
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its place in the stream and the global log, and its hashes."""

    stream_id: str
    version: int
    position: int
    type: str
    schema_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    hash: str
    prev_hash: str

    def to_wire(self) -> list[Any]:
        """This event as a list of JSON/msgpack-ready values (for messages between the
        platform's processes; :meth:`from_wire` reverses it)."""
        return [
            self.version,
            self.position,
            self.type,
            self.schema_version,
            self.data,
            self.metadata,
            self.recorded_at.isoformat(),
            self.hash,
            self.prev_hash,
        ]

    @classmethod
    def from_wire(cls, stream_id: str, item: Sequence[Any]) -> StoredEvent:
        """The event :meth:`to_wire` gave (``ValueError`` for anything else). Its content
        is not vouched for: check it against a trusted hash chain before using it."""
        try:
            version, position, type_, schema_version, data, metadata, recorded, hash_, prev = item
            event = cls(
                stream_id=stream_id,
                version=int(version),
                position=int(position),
                type=str(type_),
                schema_version=int(schema_version),
                data=dict(data),
                metadata=dict(metadata),
                recorded_at=datetime.fromisoformat(recorded),
                hash=str(hash_),
                prev_hash=str(prev),
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not an event on the wire: {exc}") from None
        return event

    def expected_hash(self) -> str:
        """The hash re-computed from this event's content and its ``prev_hash``."""
        return event_hash(
            stream_id=self.stream_id,
            version=self.version,
            type=self.type,
            schema_version=self.schema_version,
            data=self.data,
            metadata=self.metadata,
            prev_hash=self.prev_hash,
        )


@dataclass(frozen=True)
class AppendResult:
    """What an append stored; ``duplicate`` when the command id had already been appended."""

    events: list[StoredEvent]
    duplicate: bool

    @property
    def version(self) -> int:
        """The stream version after this command's events."""
        return self.events[-1].version
