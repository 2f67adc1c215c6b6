"""Verifiable pairings: commit, reveal, re-derive; a changed pairing or seed is caught."""

from __future__ import annotations

import hashlib

import pytest

from leagues.core import swiss
from leagues.core.commitment import canonical_json, commitment, derive, new_seed, verify_round
from leagues.core.errors import LeagueError
from leagues.core.swiss import swiss_entrants


def swiss_input() -> dict[str, object]:
    ratings = {f"e{n}": n for n in range(7)}
    return swiss.canonical_input(1, swiss_entrants(dict.fromkeys(ratings, 0), ratings, {}))


def test_the_commitment_is_sha256_of_the_documented_bytes() -> None:
    document = swiss_input()
    expected = hashlib.sha256(b"spades-pairing|abc|swiss|3|" + canonical_json(document)).hexdigest()
    assert commitment("abc", document) == expected
    assert canonical_json({"b": 1, "a": [1, "é"]}) == '{"a":[1,"é"],"b":1}'.encode()


def test_a_revealed_seed_re_derives_the_published_round() -> None:
    document = swiss_input()
    seed = new_seed()
    committed = commitment(seed, document)
    published = derive(seed, document).as_dict()
    assert verify_round(document, seed, committed, published).ok


def test_tampering_is_caught() -> None:
    document = swiss_input()
    seed = "s33d"
    committed = commitment(seed, document)
    published = derive(seed, document).as_dict()

    swapped = dict(published)
    first, second = published["matches"][0], published["matches"][1]
    swapped["matches"] = [
        {**first, "east_west": second["east_west"]},
        {**second, "east_west": first["east_west"]},
        *published["matches"][2:],
    ]
    changed_pairing = verify_round(document, seed, committed, swapped)
    assert not changed_pairing.ok and changed_pairing.commitment_matches
    assert "pairings differ" in (changed_pairing.problem or "")

    other_seed = verify_round(document, "another", committed, published)
    assert not other_seed.commitment_matches

    edited_input = {**document, "round": 2}
    assert not verify_round(edited_input, seed, committed, published).ok

    unknown = verify_round({**document, "engine_version": 99}, seed, committed, published)
    assert not unknown.ok and "version" in (unknown.problem or "")


def test_an_input_the_event_store_could_not_keep_is_refused() -> None:
    with pytest.raises(LeagueError) as refused:
        commitment("abc", {**swiss_input(), "extra": 1.5})
    assert refused.value.code == "bad_engine_input"


def test_seeds_are_bounded_and_unambiguous() -> None:
    with pytest.raises(LeagueError):
        commitment("has|bar", swiss_input())
    with pytest.raises(LeagueError):
        commitment("x" * 129, swiss_input())
