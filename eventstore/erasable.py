"""Free text that events refer to instead of holding, so a person's words can be erased
while every hash still re-computes.

An event is immutable and its hash covers its whole payload, so a name a player typed
must not sit in the payload: once stored it could never be erased. A builder puts an
:class:`ErasableText` where the text would go; the write path swaps it for a reference
(:func:`kept`, in the append's transaction) and the text goes to the table
``eventstore_erasable_text``, beside the events::

    from eventstore.erasable import erasable, kept, user_subject
    data = {"name": erasable(name, subjects=[user_subject(a), user_subject(b)])}  # builder
    append(stream, version, kept(events))                                        # write path

The payload then holds ``{"erasable": "<uuid>", "digest": "<sha256 hex>"}``: the digest
is SHA-256 over a secret random salt (16 bytes, kept with the text) and the text's UTF-8
bytes, so the event commits to the text (a changed text no longer matches:
:func:`stream_problem`, run by ``verify_events``) without revealing it, and once the text
and its salt are erased the digest gives nothing away. Readers turn a payload value back
into text with :func:`text_of` (one value) or :func:`texts_of` (many, one query); a plain
string (an event stored before its app used references) reads as itself, so old events
keep folding and showing.

Each text names its *subjects*: the people it is about or who typed it (``"user:<id>"``,
:func:`user_subject`). :func:`erase_subject` erases every text of one subject (a deleted
account): the row keeps its id and when it was erased, its text and salt are cleared, and
from then on it reads as ``""``, as a name never given does. A text shared by several
subjects (a team name) goes when any of them asks.

An :class:`ErasableText` left in a payload (the write path forgot :func:`kept`) is no JSON
value, so the append refuses it (``InvalidEvent``): the text can never reach the log by
mistake.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from eventstore.models import ErasableTextRow
from eventstore.records import NewEvent, StoredEvent

__all__ = [
    "MAX_SUBJECTS",
    "MAX_TEXT_LENGTH",
    "ErasableText",
    "TextLookup",
    "erasable",
    "erase_subject",
    "is_reference",
    "keep",
    "kept",
    "stream_problem",
    "text_of",
    "texts_of",
    "user_subject",
]

logger = logging.getLogger(__name__)

REFERENCE_KEY = "erasable"
DIGEST_KEY = "digest"
MAX_TEXT_LENGTH = 2000
MAX_SUBJECTS = 16
MAX_SUBJECT_LENGTH = 64
SALT_BYTES = 16


def user_subject(user_id: int | str) -> str:
    """The subject that names one account (what account deletion erases)."""
    return f"user:{user_id}"


def _digest(salt_hex: str, text: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ErasableText:
    """A text on its way into an event: its id, salt and subjects are chosen here, so a
    builder can make one without a database; :func:`kept` stores it."""

    text: str
    subjects: tuple[str, ...]
    text_id: str
    salt: str

    @property
    def reference(self) -> dict[str, str]:
        """What the stored payload holds in the text's place."""
        return {REFERENCE_KEY: self.text_id, DIGEST_KEY: _digest(self.salt, self.text)}


def erasable(text: str, *, subjects: Iterable[str]) -> ErasableText:
    """``text`` as a value an event may refer to, erasable by any of ``subjects``.

    Pure (no database): builders call it; the write path stores it with :func:`kept`.
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH or "\x00" in text:
        raise ValueError(f"an erasable text is a string of at most {MAX_TEXT_LENGTH} characters")
    named = tuple(dict.fromkeys(subjects))
    if not named or len(named) > MAX_SUBJECTS:
        raise ValueError(f"an erasable text names 1 to {MAX_SUBJECTS} subjects")
    for subject in named:
        if not isinstance(subject, str) or not 0 < len(subject) <= MAX_SUBJECT_LENGTH:
            raise ValueError(f"a subject is a string of 1 to {MAX_SUBJECT_LENGTH} characters")
    return ErasableText(text, named, str(uuid.uuid4()), secrets.token_hex(SALT_BYTES))


def is_reference(value: object) -> bool:
    """Whether a stored payload value is a reference to an erasable text."""
    return (
        isinstance(value, Mapping)
        and len(value) == 2
        and isinstance(value.get(REFERENCE_KEY), str)
        and isinstance(value.get(DIGEST_KEY), str)
    )


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
        if _digest(salt, text) != value[DIGEST_KEY]:
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
    for text_id, (event, digest) in found.items():
        where = f"version {event.version} ({event.type}): erasable text {text_id}"
        row = rows.get(text_id)
        if row is None:
            return f"{where} has no row"
        text, salt, erased = row
        if not erased and _digest(salt, text) != digest:
            return f"{where} does not match the digest its event holds"
    return None
