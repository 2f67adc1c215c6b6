"""Signed checkpoints: the audit digest published outside the platform, append-only.

The hash chains prove that no event changed *unless* someone who owns the database
rewrote a stream consistently (every hash recomputed, the head row moved too). What
catches that is a digest kept where the database owner cannot reach: a checkpoint file,
one JSON line per checkpoint, each signed with an Ed25519 key that only the publisher
holds (not the web or worker processes), each naming the hash of the line before it.

File format (JSON lines, canonical JSON as in :mod:`eventstore.hashing`)::

    {"algorithm":"ed25519","format":"spades-signed-checkpoints","public_key":"<b64>","version":1}
    {"as_of":..,"digest":..,"events":..,"heads":[[stream,version,hash],..],"position":..,
     "previous":"<sha256 of the line before>","published_at":..,"sequence":1,
     "signature":"<b64 Ed25519 over the line without its signature>","streams":..}

``heads`` lists the streams whose head moved since the previous checkpoint (all of them
in the first), so the heads at any checkpoint are the union of the lines up to it, and
``digest`` is :func:`eventstore.hashing.heads_digest` over them, which is what
``digest(as_of=...)`` of the store recomputes. See docs/operations.md, "Signed checkpoints".
"""

from __future__ import annotations

import base64
import binascii
import fcntl
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.db import connection

from eventstore.hashing import canonical_json, heads_digest
from eventstore.reading import heads_as_of

FORMAT = "spades-signed-checkpoints"
FORMAT_VERSION = 1
MAX_LINE_BYTES = 64 * 1024 * 1024  # a first checkpoint lists every stream's head

Heads = dict[str, tuple[int, str]]

__all__ = [
    "CheckpointError",
    "HistoryChanged",
    "create_key",
    "publish",
    "verify_against",
]


class CheckpointError(Exception):
    """A checkpoint file or key that cannot be used (one line, for the command's error)."""


class HistoryChanged(CheckpointError):
    """The store no longer has the history a valid checkpoint published."""


@dataclass(frozen=True)
class Checkpoint:
    """One verified line of a checkpoint file."""

    sequence: int
    as_of: int
    position: int
    digest: str
    heads: Heads  # every stream's head at this checkpoint (the union so far)
    line_hash: str


# ---------------------------------------------------------------- keys


def create_key(path: Path) -> Path:
    """Write a new Ed25519 private key to ``path`` (PEM, mode 0600, never over an existing
    file) and its public key next to it (``path`` + ``.pub``); returns the public key path."""
    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public_path = Path(f"{path}.pub")
    for target in (path, public_path):
        if target.exists():
            raise CheckpointError(f"{target} exists already; refusing to overwrite a key")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(private_pem)
        public_path.write_bytes(_public_pem(key.public_key()))
    except OSError as error:
        raise CheckpointError(f"cannot write the key: {error}") from None
    return public_path


def _public_pem(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def _raw(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def load_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except OSError as error:
        raise CheckpointError(f"cannot read the key {path}: {error.strerror}") from None
    except (ValueError, TypeError) as error:
        raise CheckpointError(f"{path} is not an unencrypted PEM private key: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CheckpointError(f"{path} is not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except OSError as error:
        raise CheckpointError(f"cannot read the public key {path}: {error.strerror}") from None
    except (ValueError, TypeError) as error:
        raise CheckpointError(f"{path} is not a PEM public key: {error}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise CheckpointError(f"{path} is not an Ed25519 public key")
    return key


# ---------------------------------------------------------------- the file


def _line_hash(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()


def _lines(path: Path) -> Iterator[tuple[int, bytes]]:
    try:
        with path.open("rb") as source:
            for number, line in enumerate(source, start=1):
                if len(line) > MAX_LINE_BYTES:
                    raise CheckpointError(f"{path} line {number}: longer than {MAX_LINE_BYTES}")
                yield number, line.rstrip(b"\n")
    except OSError as error:
        raise CheckpointError(f"cannot read checkpoints {path}: {error.strerror}") from None


def _object(path: Path, number: int, line: bytes) -> dict[str, Any]:
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        raise CheckpointError(f"{path} line {number}: not JSON") from None
    if not isinstance(value, dict):
        raise CheckpointError(f"{path} line {number}: not a JSON object")
    return value


def _header(path: Path, number: int, line: bytes) -> Ed25519PublicKey:
    header = _object(path, number, line)
    if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION:
        raise CheckpointError(f"{path}: not a signed checkpoint file (format {FORMAT} v1)")
    if header.get("algorithm") != "ed25519" or not isinstance(header.get("public_key"), str):
        raise CheckpointError(f"{path}: the header names no Ed25519 public key")
    try:
        return Ed25519PublicKey.from_public_bytes(base64.b64decode(header["public_key"]))
    except (ValueError, binascii.Error):
        raise CheckpointError(f"{path}: the header's public key is not an Ed25519 key") from None


def _field(path: Path, number: int, record: dict[str, Any], name: str, kind: type) -> Any:
    value = record.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CheckpointError(f"{path} line {number}: {name!r} missing or not {kind.__name__}")
    return value


def read_checkpoints(path: Path, public_key: Ed25519PublicKey | None = None) -> list[Checkpoint]:
    """Every checkpoint of the file, each signature and link checked (``public_key``: the
    pinned key; without it, the header's). Raises :class:`CheckpointError` naming the line."""
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        raise CheckpointError(f"{path} is empty: no checkpoint file header")
    header_key = _header(path, *first)
    if public_key is not None and _raw(public_key) != _raw(header_key):
        raise CheckpointError(f"{path} was not signed with the given public key")
    key = public_key or header_key
    previous_hash = _line_hash(first[1])
    heads: Heads = {}
    checkpoints: list[Checkpoint] = []
    for number, line in lines:
        record = _object(path, number, line)
        signature = _field(path, number, record, "signature", str)
        body = {name: value for name, value in record.items() if name != "signature"}
        try:
            key.verify(base64.b64decode(signature), canonical_json(body).encode())
        except (InvalidSignature, ValueError, binascii.Error):
            raise CheckpointError(
                f"{path} line {number}: the signature does not verify with the public key"
            ) from None
        sequence = _field(path, number, record, "sequence", int)
        if sequence != len(checkpoints) + 1:
            raise CheckpointError(
                f"{path} line {number}: checkpoint {sequence} where {len(checkpoints) + 1} "
                "was expected (a checkpoint is missing or repeated)"
            )
        if _field(path, number, record, "previous", str) != previous_hash:
            raise CheckpointError(
                f"{path} line {number}: checkpoint {sequence} does not chain to the line before"
            )
        as_of = _field(path, number, record, "as_of", int)
        if checkpoints and as_of < checkpoints[-1].as_of:
            raise CheckpointError(f"{path} line {number}: as_of goes back in time")
        for head in _field(path, number, record, "heads", list):
            if not (
                isinstance(head, list)
                and len(head) == 3
                and isinstance(head[0], str)
                and isinstance(head[1], int)
                and isinstance(head[2], str)
            ):
                raise CheckpointError(
                    f"{path} line {number}: a head is not [stream, version, hash]"
                )
            heads[head[0]] = (head[1], head[2])
        published = _field(path, number, record, "digest", str)
        if heads_digest((s, v, h) for s, (v, h) in heads.items()) != published:
            raise CheckpointError(
                f"{path} line {number}: checkpoint {sequence}'s digest does not match its heads"
            )
        previous_hash = _line_hash(line)
        checkpoints.append(
            Checkpoint(
                sequence=sequence,
                as_of=as_of,
                position=_field(path, number, record, "position", int),
                digest=published,
                heads=dict(heads),
                line_hash=previous_hash,
            )
        )
    return checkpoints


# ---------------------------------------------------------------- against the store


def _safe_bound() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT eventstore_safe_tx_bound()::text::bigint")
        return int(cursor.fetchone()[0])


def _last_position(as_of: int) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(max(position), 0) FROM eventstore_event WHERE tx_id < %s::text::xid8",
            [str(as_of)],
        )
        return int(cursor.fetchone()[0])


def _difference(published: Heads, stored: Heads) -> str | None:
    """The first stream (in id order) whose head differs, as a sentence."""
    for stream_id in sorted(published.keys() | stored.keys()):
        was, now = published.get(stream_id), stored.get(stream_id)
        if was == now:
            continue
        if was is None:
            return f"stream {stream_id} is in the store but was not published"
        if now is None:
            return f"stream {stream_id} (published at version {was[0]}) is gone from the store"
        return (
            f"stream {stream_id} changed: published version {was[0]} hash {was[1]}, "
            f"the store has version {now[0]} hash {now[1]}"
        )
    return None


def verify_against(path: Path, public_key_path: Path | None = None) -> list[Checkpoint]:
    """Prove that the store still holds the history every checkpoint of ``path``
    published: signatures, the chain of checkpoints, and the store's stream heads as of
    each checkpoint. Raises :class:`HistoryChanged` (naming the stream) or
    :class:`CheckpointError`; returns the checkpoints checked."""
    public_key = load_public_key(public_key_path) if public_key_path is not None else None
    checkpoints = read_checkpoints(path, public_key)
    if not checkpoints:
        raise CheckpointError(f"{path} holds no checkpoint yet")
    bound = _safe_bound()
    for checkpoint in checkpoints:
        if checkpoint.as_of > bound:
            raise CheckpointError(
                f"checkpoint {checkpoint.sequence} is ahead of this store (as_of "
                f"{checkpoint.as_of} > {bound}): a checkpoint file of another database?"
            )
        _, heads, _ = heads_as_of(checkpoint.as_of)
        stored = {stream_id: (version, head) for stream_id, version, head in heads}
        changed = _difference(checkpoint.heads, stored)
        if changed is not None:
            raise HistoryChanged(
                f"checkpoint {checkpoint.sequence} (as_of {checkpoint.as_of}): {changed}"
            )
    return checkpoints


def publish(key_path: Path, out: Path) -> dict[str, Any]:
    """Append one signed checkpoint of the store's current digest to ``out`` (created
    with its header when missing); returns the checkpoint's record.

    Refuses to publish when the file is not valid under this key, or when the store's
    history as of the last checkpoint is not what that checkpoint published (run
    ``verify_events --against``): a checkpoint never covers up a rewrite.
    """
    key = load_private_key(key_path)
    try:
        descriptor = os.open(out, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError as error:
        raise CheckpointError(f"cannot open checkpoints {out}: {error.strerror}") from None
    with os.fdopen(descriptor, "r+b") as target:
        fcntl.flock(target, fcntl.LOCK_EX)  # one publisher at a time
        if os.fstat(target.fileno()).st_size == 0:
            header = canonical_json(
                {
                    "algorithm": "ed25519",
                    "format": FORMAT,
                    "public_key": base64.b64encode(_raw(key.public_key())).decode(),
                    "version": FORMAT_VERSION,
                }
            ).encode()
            target.write(header + b"\n")
            target.flush()
            checkpoints: list[Checkpoint] = []
            previous = _line_hash(header)
        else:
            checkpoints = read_checkpoints(out, key.public_key())
            previous = checkpoints[-1].line_hash if checkpoints else _header_hash(out)
        published: Heads = checkpoints[-1].heads if checkpoints else {}
        if checkpoints:
            last = checkpoints[-1]
            _, then, _ = heads_as_of(last.as_of)
            changed = _difference(last.heads, {s: (v, h) for s, v, h in then})
            if changed is not None:
                raise HistoryChanged(
                    f"not publishing: checkpoint {last.sequence} (as_of {last.as_of}): {changed}"
                )
        bound, heads, events = heads_as_of(None)
        if checkpoints and bound < checkpoints[-1].as_of:
            raise CheckpointError(f"{out} is ahead of this store: another database's file?")
        moved = [[s, v, h] for s, v, h in heads if published.get(s) != (v, h)]
        body = {
            "as_of": bound,
            "digest": heads_digest(heads),
            "events": events,
            "heads": moved,
            "position": _last_position(bound),
            "previous": previous,
            "published_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "sequence": len(checkpoints) + 1,
            "streams": len(heads),
        }
        signature = base64.b64encode(key.sign(canonical_json(body).encode())).decode()
        record = {**body, "signature": signature}
        target.write(canonical_json(record).encode() + b"\n")
        target.flush()
        os.fsync(target.fileno())
    return record


def _header_hash(path: Path) -> str:
    first = next(_lines(path))
    return _line_hash(first[1])
