"""The store of erasable texts (``eventstore_erasable_text``): keeping them with an
append, reading them back, erasing a subject's, and the check ``verify_events`` runs.
The values and the reference format are ``eventstore.erasable``."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from eventstore.erasable import (
    DIGEST_KEY,
    REFERENCE_KEY,
    ErasableText,
    digest,
    erasable,
    is_reference,
)
from eventstore.models import ErasableTextRow
from eventstore.records import NewEvent, StoredEvent

__all__ = ["TextLookup", "erase_subject", "keep", "kept", "stream_problem", "text_of", "texts_of"]

logger = logging.getLogger(__name__)


def _swapped(value: Any, found: list[ErasableText]) -> Any:
    if isinstance(value, ErasableText):
        found.append(value)
        return value.reference
    if isinstance(value, dict):
        return {key: _swapped(item, found) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_swapped(item, found) for item in value]
    return value


def _store(texts: Sequence[ErasableText]) -> None:
    if not texts:
        return
    ErasableTextRow.objects.bulk_create(
        [
            ErasableTextRow(id=t.text_id, text=t.text, salt=t.salt, subjects=list(t.subjects))
            for t in texts
        ]
    )


def kept(events: Sequence[NewEvent]) -> list[NewEvent]:
    """The events with every :class:`ErasableText` in their payloads stored and replaced
    by its reference. Call it inside the append's transaction: a refused append rolls
    the texts back with it. Events with no such text come back as they are."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError(
            "kept() runs inside the append's transaction (transaction.atomic())"
        )
    texts: list[ErasableText] = []
    out = []
    for event in events:
        before = len(texts)
        data = _swapped(event.data, texts)
        out.append(event if len(texts) == before else replace(event, data=data))
    _store(texts)
    return out


def keep(text: str, *, subjects: Iterable[str]) -> dict[str, str]:
    """Store one text now (in the caller's transaction) and return the reference to put
    in a payload: for a service that builds its payload itself."""
    value = erasable(text, subjects=subjects)
    _store([value])
    return value.reference


class TextLookup:
    """Payload values -> their texts, read in one query (:func:`texts_of`)."""

    def __init__(self, rows: Mapping[str, tuple[str, str, bool]]) -> None:
        self._rows = rows

    def __call__(self, value: object) -> str:
        """The text a payload value stands for: a plain string as it is, a reference's
        kept text, ``""`` once erased (or for anything else)."""
        if isinstance(value, str):
            return value
        if not is_reference(value):
            return ""
        assert isinstance(value, Mapping)
        row = self._rows.get(value[REFERENCE_KEY])
        if row is None:
            logger.error("erasable text %s: no row (removed outside the platform?)", value)
            return ""
        text, salt, erased = row
        if erased:
            return ""
        if digest(salt, text) != value[DIGEST_KEY]:
            logger.error("erasable text %s: the kept text does not match its digest", value)
            return ""
        return text


def _reference_values(value: Any) -> Iterator[Mapping[str, str]]:
    """Every reference in a payload value, at any depth."""
    if is_reference(value):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _reference_values(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _reference_values(item)


def _references(value: Any) -> Iterator[str]:
    for reference in _reference_values(value):
        yield reference[REFERENCE_KEY]


def _rows(ids: Iterable[str]) -> dict[str, tuple[str, str, bool]]:
    wanted = set()
    for text_id in ids:
        try:
            wanted.add(uuid.UUID(text_id))
        except ValueError:
            continue
    if not wanted:
        return {}
    rows = ErasableTextRow.objects.filter(pk__in=wanted).values_list(
        "id", "text", "salt", "erased_at"
    )
    return {str(pk): (text, salt, erased_at is not None) for pk, text, salt, erased_at in rows}


def texts_of(values: Iterable[object]) -> TextLookup:
    """A lookup for every reference found in ``values`` (payload values, or whole
    payloads: references are found at any depth), read in one query."""
    return TextLookup(_rows(ref for value in values for ref in _references(value)))


def text_of(value: object) -> str:
    """The text one payload value stands for (see :class:`TextLookup`)."""
    return texts_of([value])(value)


def erase_subject(subject: str) -> int:
    """Erase every text that names ``subject``; how many were erased now."""
    return ErasableTextRow.objects.filter(
        subjects__contains=[subject], erased_at__isnull=True
    ).update(text="", salt="", erased_at=timezone.now())


def stream_problem(stream_id: str, events: Sequence[StoredEvent]) -> str | None:
    """The registered ``verify_events`` check: every reference in the stream has its row,
    and every text not erased still matches the digest its events committed to."""
    found: dict[str, tuple[StoredEvent, str]] = {}
    for event in events:
        for reference in _reference_values(event.data):
            found.setdefault(reference[REFERENCE_KEY], (event, reference[DIGEST_KEY]))
            if found[reference[REFERENCE_KEY]][1] != reference[DIGEST_KEY]:
                return (
                    f"version {event.version} ({event.type}): erasable text "
                    f"{reference[REFERENCE_KEY]} is referred to with two digests"
                )
    if not found:
        return None
    rows = _rows(found)
    for text_id, (event, committed) in found.items():
        where = f"version {event.version} ({event.type}): erasable text {text_id}"
        row = rows.get(text_id)
        if row is None:
            return f"{where} has no row"
        text, salt, erased = row
        if not erased and digest(salt, text) != committed:
            return f"{where} does not match the digest its event holds"
    return None
