"""A round's pairing seed, kept secret beside the stream until ``RoundClosed`` reveals it
(the table ``leagues_pairingsecret``; never in an event before then)."""

from __future__ import annotations

from leagues.models import PairingSecret


def keep_seed(competition_id: str, round_number: int, seed: str, commitment: str) -> None:
    """Store a round's seed, in the transaction of the ``RoundPaired`` that commits to it."""
    PairingSecret.objects.create(
        competition_id=competition_id, round=round_number, seed=seed, commitment=commitment
    )


def seed_of(competition_id: str, round_number: int) -> str | None:
    return (
        PairingSecret.objects.filter(competition_id=competition_id, round=round_number)
        .values_list("seed", flat=True)
        .first()
    )
