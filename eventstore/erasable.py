"""Free text that events refer to instead of holding, so a person's words can be erased
while every hash still re-computes: the values (pure, no database; builders use them).
The store of the texts is ``eventstore.erasable_store``.

An event is immutable and its hash covers its whole payload, so a name a player typed
must not sit in the payload: once stored it could never be erased. A builder puts an
:class:`ErasableText` where the text would go; the write path swaps it for a reference
(``erasable_store.kept``, in the append's transaction) and the text goes to the table
``eventstore_erasable_text``, beside the events::

    from eventstore.erasable import erasable, user_subject
    from eventstore.erasable_store import kept
    data = {"name": erasable(name, subjects=[user_subject(a), user_subject(b)])}  # builder
    append(stream, version, kept(events))                                        # write path

The payload then holds ``{"erasable": "<uuid>", "digest": "<sha256 hex>"}``: the digest
is SHA-256 over a secret random salt (16 bytes, kept with the text) and the text's UTF-8
bytes, so the event commits to the text (a changed text no longer matches:
``erasable_store.stream_problem``, run by ``verify_events``) without revealing it, and once the text
and its salt are erased the digest gives nothing away. Readers turn a payload value back
into text with ``erasable_store.text_of`` (one value) or ``texts_of`` (many, one query); a plain
string (an event stored before its app used references) reads as itself, so old events
keep folding and showing.

Each text names its *subjects*: the people it is about or who typed it (``"user:<id>"``,
:func:`user_subject`). ``erasable_store.erase_subject`` erases every text of one subject (a deleted
account): the row keeps its id and when it was erased, its text and salt are cleared, and
from then on it reads as ``""``, as a name never given does. A text shared by several
subjects (a team name) goes when any of them asks.

An :class:`ErasableText` left in a payload (the write path forgot ``kept``) is no JSON
value, so the append refuses it (``InvalidEvent``): the text can never reach the log by
mistake.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "MAX_SUBJECTS",
    "MAX_TEXT_LENGTH",
    "ErasableText",
    "digest",
    "erasable",
    "is_reference",
    "user_subject",
]

REFERENCE_KEY = "erasable"
DIGEST_KEY = "digest"
MAX_TEXT_LENGTH = 2000
MAX_SUBJECTS = 16
MAX_SUBJECT_LENGTH = 100
SALT_BYTES = 16


def user_subject(user_id: int | str) -> str:
    """The subject that names one account (what account deletion erases)."""
    return f"user:{user_id}"


def digest(salt_hex: str, text: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt_hex) + text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ErasableText:
    """A text on its way into an event: its id, salt and subjects are chosen here, so a
    builder can make one without a database; ``erasable_store.kept`` stores it."""

    text: str
    subjects: tuple[str, ...]
    text_id: str
    salt: str

    @property
    def reference(self) -> dict[str, str]:
        """What the stored payload holds in the text's place."""
        return {REFERENCE_KEY: self.text_id, DIGEST_KEY: digest(self.salt, self.text)}


def erasable(text: str, *, subjects: Iterable[str]) -> ErasableText:
    """``text`` as a value an event may refer to, erasable by any of ``subjects``.

    Pure (no database): builders call it; the write path stores it with
    ``erasable_store.kept``.
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
