"""What staff are shown of a stored event's payload: redactors other apps register.

The event store knows no game, so it cannot tell which fields of a payload are secret
while a game is going on. An app that stores hidden information registers a redactor,
and the event admin shows every payload through :func:`shown_data`::

    from eventstore.redaction import register_redactor
    register_redactor(spectator_event_data)  # (stream_id, type, data) -> data to show

A redactor returns the payload as it may be shown now (it must only read). With several
registered, each one's output goes to the next, so any of them can remove a field.
Metadata is shown the same way, through metadata redactors
(``register_metadata_redactor``, ``(stream_id, type, data, metadata) -> metadata``) and
:func:`shown_metadata`; they get the stored payload too, since what may be shown of the
metadata can depend on it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

Redactor = Callable[[str, str, dict[str, Any]], dict[str, Any]]
MetadataRedactor = Callable[[str, str, dict[str, Any], dict[str, Any]], dict[str, Any]]

_redactors: list[Redactor] = []
_metadata_redactors: list[MetadataRedactor] = []
_redactors_lock = threading.Lock()


def register_redactor(redactor: Redactor) -> Redactor:
    """Show every payload through ``redactor`` from now on (idempotent per function)."""
    with _redactors_lock:
        if all(existing is not redactor for existing in _redactors):
            _redactors.append(redactor)
    return redactor


def unregister_redactor(redactor: Redactor) -> None:
    """Remove a redactor (tests)."""
    with _redactors_lock:
        _redactors[:] = [r for r in _redactors if r is not redactor]


def shown_data(stream_id: str, type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """The payload of one stored event as the registered redactors let it be shown."""
    with _redactors_lock:
        redactors = list(_redactors)
    shown = dict(data)
    for redactor in redactors:
        shown = redactor(stream_id, type_, shown)
    return shown


def register_metadata_redactor(redactor: MetadataRedactor) -> MetadataRedactor:
    """Show every event's metadata through ``redactor`` from now on (idempotent)."""
    with _redactors_lock:
        if all(existing is not redactor for existing in _metadata_redactors):
            _metadata_redactors.append(redactor)
    return redactor


def unregister_metadata_redactor(redactor: MetadataRedactor) -> None:
    """Remove a metadata redactor (tests)."""
    with _redactors_lock:
        _metadata_redactors[:] = [r for r in _metadata_redactors if r is not redactor]


def shown_metadata(
    stream_id: str, type_: str, data: dict[str, Any], metadata: dict[str, Any]
) -> dict[str, Any]:
    """The metadata of one stored event (payload ``data``) as the registered metadata
    redactors let it be shown."""
    with _redactors_lock:
        redactors = list(_metadata_redactors)
    shown = dict(metadata)
    for redactor in redactors:
        shown = redactor(stream_id, type_, dict(data), shown)
    return shown
