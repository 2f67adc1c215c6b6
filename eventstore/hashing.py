"""The canonical encoding and hash chain of stored events.

hash = SHA-256 over the canonical JSON (sorted keys, no whitespace, ``ensure_ascii=False``,
UTF-8) of ``{"data", "metadata", "prev_hash", "schema_version", "stream_id", "type",
"version"}``; the first event of a stream chains to :data:`GENESIS_HASH`. Anyone can
re-compute it from an export with the Python standard library alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import orjson

GENESIS_HASH = "0" * 64


class NotCanonicalJSON(ValueError):
    """A payload that cannot be stored so that its hash re-computes exactly."""


def canonical_json(value: Any) -> str:
    """The one text encoding that hashes are computed over.

    The standard library's ``json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)``, byte for byte, for every value :func:`check_json_value` accepts
    (a property test holds the two to it); encoded with orjson because appends and audits
    encode every event, and it is about ten times faster.
    """
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def stdlib_canonical_json(value: Any) -> str:
    """:func:`canonical_json` with the standard library alone: the reference recipe."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def check_json_value(value: Any, path: str = "$") -> None:
    """Refuse what PostgreSQL's jsonb would not give back unchanged.

    Floats are refused because jsonb keeps numbers as ``numeric`` and loses their spelling
    (``1e16`` comes back as ``10000000000000000``), which would break the hash; integers
    beyond 64 bits because fast decoders turn them into floats; NUL characters and lone
    surrogates because jsonb rejects them; non-string keys because JSON has none.
    """
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -(2**63) <= value < 2**63:
            raise NotCanonicalJSON(f"{path}: integers must fit in 64 bits")
        return
    if isinstance(value, str):
        if "\x00" in value:
            raise NotCanonicalJSON(f"{path}: NUL characters cannot be stored")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise NotCanonicalJSON(f"{path}: not valid Unicode (lone surrogate)") from None
        return
    if isinstance(value, float):
        raise NotCanonicalJSON(
            f"{path}: floats are not allowed in events (jsonb does not keep their spelling); "
            "store integers or strings"
        )
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotCanonicalJSON(f"{path}: object keys must be strings, got {key!r}")
            check_json_value(key, f"{path}.<key>")
            check_json_value(item, f"{path}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            check_json_value(item, f"{path}[{index}]")
        return
    raise NotCanonicalJSON(f"{path}: {type(value).__name__} is not a JSON value")


def hash_parts(
    *,
    stream_id: str,
    version: int,
    type: str,
    schema_version: int,
    data: Mapping[str, Any],
    metadata: Mapping[str, Any],
) -> tuple[str, str]:
    """The canonical JSON of an event split around its ``prev_hash`` value:
    ``prefix + prev_hash + suffix`` is exactly what :func:`event_hash` hashes.

    Keys sort as data, metadata, prev_hash, schema_version, stream_id, type, version, so
    the previous hash sits in the middle.
    """
    return encoded_hash_parts(
        stream_id=stream_id,
        version=version,
        type=type,
        schema_version=schema_version,
        data_json=canonical_json(data),
        metadata_json=canonical_json(metadata),
    )


def encoded_hash_parts(
    *,
    stream_id: str,
    version: int,
    type: str,
    schema_version: int,
    data_json: str,
    metadata_json: str,
) -> tuple[str, str]:
    """:func:`hash_parts` from the canonical JSON of ``data`` and ``metadata`` (the store
    encodes each payload once, for the hash and for the row)."""
    prefix = f'{{"data":{data_json},"metadata":{metadata_json},"prev_hash":"'
    suffix = (
        f'","schema_version":{canonical_json(schema_version)},'
        f'"stream_id":{canonical_json(stream_id)},"type":{canonical_json(type)},'
        f'"version":{canonical_json(version)}}}'
    )
    return prefix, suffix


def chained_hash(prefix: str, prev_hash: str, suffix: str) -> str:
    """SHA-256 (hex) of the event whose :func:`hash_parts` are ``prefix`` and ``suffix``,
    chained to ``prev_hash``: equal to :func:`event_hash` of the same event."""
    return hashlib.sha256(f"{prefix}{prev_hash}{suffix}".encode()).hexdigest()


def event_hash(
    *,
    stream_id: str,
    version: int,
    type: str,
    schema_version: int,
    data: Mapping[str, Any],
    metadata: Mapping[str, Any],
    prev_hash: str,
) -> str:
    """SHA-256 (hex) of one event chained to the previous event's hash."""
    body = canonical_json(
        {
            "stream_id": stream_id,
            "version": version,
            "type": type,
            "schema_version": schema_version,
            "data": data,
            "metadata": metadata,
            "prev_hash": prev_hash,
        }
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def heads_digest(heads: Iterable[tuple[str, int, str]]) -> str:
    """SHA-256 (hex) over stream heads ``(stream_id, version, head_hash)``.

    Each head is one line: its canonical JSON array and a newline, in code point order of
    the stream id (the caller need not sort). Equal histories give equal digests.
    """
    digest = hashlib.sha256()
    for stream_id, version, head_hash in sorted(heads):
        digest.update(canonical_json([stream_id, version, head_hash]).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
