"""The canonical encoding and hashes (pure: no database)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from eventstore.hashing import (
    GENESIS_HASH,
    NotCanonicalJSON,
    canonical_json,
    check_json_value,
    event_hash,
    hash_parts,
    heads_digest,
    stdlib_canonical_json,
)

text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=20,
)
objects = st.dictionaries(text, json_values, max_size=5)


@given(objects)
def test_accepted_values_decode_back_identically_with_either_decoder(value: dict[str, Any]) -> None:
    check_json_value(value)
    encoded = canonical_json(value)
    assert json.loads(encoded) == value
    assert orjson.loads(encoded) == value
    assert canonical_json(orjson.loads(encoded)) == encoded


@given(objects)
def test_the_fast_encoding_is_the_standard_librarys_byte_for_byte(value: dict[str, Any]) -> None:
    assert canonical_json(value) == stdlib_canonical_json(value)


@pytest.mark.parametrize(
    "value",
    [{"c": '\x01\x1f\x7f\n\t"\\/'}, {"é": "♠ \u2028 \U0001f0a1"}, {"b": [True, None, -(2**63)]}],
)
def test_the_fast_encoding_matches_on_escapes_and_unicode(value: dict[str, Any]) -> None:
    assert canonical_json(value) == stdlib_canonical_json(value)


@given(objects, objects)
def test_hash_ignores_key_order_but_not_content(
    data: dict[str, Any], other: dict[str, Any]
) -> None:
    reordered = dict(reversed(list(data.items())))
    common = {"stream_id": "s", "version": 1, "type": "T", "schema_version": 1}
    first = event_hash(**common, data=data, metadata={}, prev_hash=GENESIS_HASH)
    assert first == event_hash(**common, data=reordered, metadata={}, prev_hash=GENESIS_HASH)
    if canonical_json(other) != canonical_json(data):
        assert first != event_hash(**common, data=other, metadata={}, prev_hash=GENESIS_HASH)


def test_hash_is_the_documented_recipe() -> None:
    body = '{"data":{"bid":4,"é":"♠"},"metadata":{},"prev_hash":"' + "0" * 64 + '",'
    body += '"schema_version":1,"stream_id":"table-1","type":"BidPlaced","version":2}'
    expected = hashlib.sha256(body.encode("utf-8")).hexdigest()
    assert expected == event_hash(
        stream_id="table-1",
        version=2,
        type="BidPlaced",
        schema_version=1,
        data={"é": "♠", "bid": 4},
        metadata={},
        prev_hash=GENESIS_HASH,
    )


@pytest.mark.parametrize(
    "value",
    [1.5, 1e16, float("nan"), 2**63, -(2**63) - 1, "a\x00", "\ud800", {1: "a"}, b"x", {1, 2}],
)
def test_values_that_would_not_survive_jsonb_are_refused(value: object) -> None:
    with pytest.raises(NotCanonicalJSON):
        check_json_value({"x": [value]})


def test_heads_digest_is_order_independent_and_sensitive_to_every_field() -> None:
    heads = [("b", 2, "1" * 64), ("a", 5, "2" * 64)]
    digest = heads_digest(heads)
    assert digest == heads_digest(reversed(heads))
    lines = '["a",5,"' + "2" * 64 + '"]\n["b",2,"' + "1" * 64 + '"]\n'
    assert digest == hashlib.sha256(lines.encode()).hexdigest()
    assert digest != heads_digest([("b", 3, "1" * 64), ("a", 5, "2" * 64)])
    assert digest != heads_digest([("b", 2, "3" * 64), ("a", 5, "2" * 64)])
    assert heads_digest([]) == hashlib.sha256(b"").hexdigest()


@given(text, st.integers(1, 2**31 - 1), text, st.integers(1, 1000), objects, objects)
def test_hash_parts_surround_prev_hash_in_the_canonical_body(
    stream_id: str, version: int, type_: str, schema_version: int, data: Any, metadata: Any
) -> None:
    fields = {
        "stream_id": stream_id,
        "version": version,
        "type": type_,
        "schema_version": schema_version,
        "data": data,
        "metadata": metadata,
    }
    prefix, suffix = hash_parts(**fields)
    prev = "ab" * 32
    assert prefix + prev + suffix == canonical_json({**fields, "prev_hash": prev})
    expected = hashlib.sha256((prefix + prev + suffix).encode("utf-8")).hexdigest()
    assert expected == event_hash(**fields, prev_hash=prev)
