"""The seeded draw of lots: an order for things nothing else tells apart.

``lot(seed, *parts)`` is ``SHA-256(seed_bytes + "|" + part + "|" + part ...)`` (the
seed bytes as in ``games.engine.deal.seed_bytes``: text as UTF-8, integers as their
decimal text).  Sorting by it gives an order that anyone holding the seed can
recompute, that no entrant can choose, and that never depends on the order the
entrants arrived in.
"""

from __future__ import annotations

import hashlib

from games.engine.deal import seed_bytes


def lot(seed: str | bytes | int, *parts: str | int) -> bytes:
    """The 32-byte lot of ``parts`` under ``seed`` (smaller lots are drawn first)."""
    digest = hashlib.sha256(seed_bytes(seed))
    for part in parts:
        digest.update(b"|")
        digest.update(str(part).encode())
    return digest.digest()


def coin(seed: str | bytes | int, *parts: str | int) -> bool:
    """A seeded coin toss: the lowest bit of the lot's first byte."""
    return bool(lot(seed, *parts)[0] & 1)
