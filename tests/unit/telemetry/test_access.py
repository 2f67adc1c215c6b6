"""Who may read the metrics (telemetry.exposition.MetricsAccess, telemetry.networks)."""

from __future__ import annotations

import pytest

from telemetry.exposition import MetricsAccess
from telemetry.networks import address_in, parse_networks

LOOPBACK = parse_networks(["127.0.0.1", "::1", "10.1.0.0/16"])


@pytest.mark.parametrize(
    ("address", "inside"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),  # IPv4 as daphne may report it on a dual-stack socket
        ("10.1.200.3", True),
        ("10.2.0.1", False),
        ("127.0.0.2", False),
        ("", False),
        ("not-an-address", False),
        (None, False),
    ],
)
def test_an_address_is_inside_a_network_or_not(address: object, inside: bool) -> None:
    assert address_in(address, LOOPBACK) is inside


def test_a_bad_network_is_named() -> None:
    with pytest.raises(ValueError, match="'10.0.0.300' is not an IP address or network"):
        parse_networks(["10.0.0.0/8", "10.0.0.300"])


def test_the_metrics_are_for_allowed_addresses_or_the_token() -> None:
    access = MetricsAccess(LOOPBACK, token="s3cret-token-of-16+")

    assert access.allows("127.0.0.1", None)
    assert not access.allows("203.0.113.9", None)
    assert access.allows("203.0.113.9", "Bearer s3cret-token-of-16+")
    assert access.allows("203.0.113.9", "bearer  s3cret-token-of-16+ ")
    assert not access.allows("203.0.113.9", "Bearer s3cret-token-of-16")
    assert not access.allows("203.0.113.9", "Basic s3cret-token-of-16+")
    assert not MetricsAccess(LOOPBACK).allows("203.0.113.9", "Bearer ")
