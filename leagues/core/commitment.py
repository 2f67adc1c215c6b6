"""Verifiable pairings: commit to the seed before a round is published, reveal it after.

``commitment = SHA-256("spades-pairing" | seed | engine | engine_version | canonical input)``
(``|`` is one ASCII byte; the canonical input is the engine's input document as JSON
with sorted keys, no spaces, UTF-8).  Publishing the commitment with the pairings
binds the organiser to one seed before anyone can see what it produces; revealing the
seed afterwards lets anyone re-derive the round with :func:`verify_round`.  A seed is
1 to 128 characters of ``A-Z a-z 0-9 _ -`` so that the ``|`` framing is unambiguous.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from eventstore.hashing import NotCanonicalJSON, check_json_value
from eventstore.hashing import canonical_json as stored_json

from . import knockout, round_robin, swiss
from .errors import LeagueError
from .pairings import RoundPairing

SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,128}")
DOMAIN = b"spades-pairing"

Deriver = Callable[[Mapping[str, Any], str], RoundPairing]
# Per engine: every version its deriver re-derives (a round committed under an older
# version still verifies), and the deriver.
ENGINES: dict[str, tuple[tuple[int, ...], Deriver]] = {
    swiss.ENGINE: (swiss.ENGINE_VERSIONS, swiss.derive),
    round_robin.ENGINE: ((round_robin.ENGINE_VERSION,), round_robin.derive),
    knockout.ENGINE: (knockout.ENGINE_VERSIONS, knockout.derive),
}


def new_seed() -> str:
    """A fresh pairing seed (256 bits, hex)."""
    return secrets.token_hex(32)


def check_seed(seed: str) -> str:
    if not isinstance(seed, str) or not SEED_PATTERN.fullmatch(seed):
        raise LeagueError(
            "bad_seed", "A pairing seed is 1 to 128 characters of A-Z, a-z, 0-9, _ and -."
        )
    return seed


def canonical_json(document: Any) -> bytes:
    """The bytes commitments hash: the event store's canonical JSON, UTF-8.

    The input is checked as the event store checks a payload (no floats, 64-bit
    integers...), because the round-paired event stores it and its hash must re-compute.
    """
    try:
        check_json_value(document)
    except NotCanonicalJSON as error:
        raise LeagueError("bad_engine_input", f"engine input: {error}") from None
    return stored_json(document).encode()


def _engine_of(document: Mapping[str, Any]) -> tuple[str, int, Deriver]:
    engine = document.get("engine")
    version = document.get("engine_version")
    if engine not in ENGINES:
        raise LeagueError(
            "unknown_engine",
            f"engine {engine!r} is not one of {', '.join(sorted(ENGINES))}.",
        )
    versions, derive = ENGINES[str(engine)]
    if isinstance(version, bool) or version not in versions:
        raise LeagueError(
            "unknown_engine_version",
            f"{engine} engine version {version!r} cannot be re-derived here "
            f"(versions this build derives: {', '.join(map(str, versions))}).",
        )
    return str(engine), int(version), derive


def commitment(seed: str, document: Mapping[str, Any]) -> str:
    """The hex commitment to ``seed`` for the engine input ``document``."""
    engine, version, _ = _engine_of(document)
    digest = hashlib.sha256(DOMAIN)
    for part in (check_seed(seed).encode(), engine.encode(), str(version).encode()):
        digest.update(b"|")
        digest.update(part)
    digest.update(b"|")
    digest.update(canonical_json(document))
    return digest.hexdigest()


def derive(seed: str, document: Mapping[str, Any]) -> RoundPairing:
    """The round the engine named in ``document`` pairs from it under ``seed``."""
    _, _, deriver = _engine_of(document)
    return deriver(document, check_seed(seed))


@dataclass(frozen=True, slots=True)
class Verification:
    """Whether a published round is what its committed seed and input give."""

    round: int
    commitment_matches: bool
    pairing_matches: bool
    expected: dict[str, Any] | None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.commitment_matches and self.pairing_matches

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "ok": self.ok,
            "commitment_matches": self.commitment_matches,
            "pairing_matches": self.pairing_matches,
            "expected": self.expected,
            "problem": self.problem,
        }


def verify_round(
    document: Mapping[str, Any],
    seed: str,
    committed: str,
    published: Mapping[str, Any],
) -> Verification:
    """Re-derive a round from its input and revealed seed; compare with what was published.

    ``published`` is the round as :meth:`RoundPairing.as_dict` wrote it.  A bad seed,
    an unknown engine or an input the engine refuses is a failed verification with the
    reason in ``problem``, never an exception.
    """
    number = int(published.get("round", document.get("round", 0)) or 0)
    try:
        expected = derive(seed, document).as_dict()
        committed_again = commitment(seed, document)
    except (LeagueError, KeyError, TypeError, ValueError) as error:
        return Verification(number, False, False, None, f"cannot re-derive: {error}")
    commitment_ok = committed_again == committed
    pairing_ok = expected == dict(published)
    problem = None
    if not commitment_ok:
        problem = "the revealed seed and input do not give the published commitment"
    elif not pairing_ok:
        problem = "the published pairings differ from the ones the seed and input give"
    return Verification(number, commitment_ok, pairing_ok, expected, problem)
