"""The real client behind trusted proxies (services.proxies), on ASGI scopes."""

from __future__ import annotations

from typing import Any

import pytest

from services.proxies import behind_proxies, forwarded_client
from telemetry.networks import parse_networks

TRUSTED = parse_networks(["10.0.0.0/24", "127.0.0.1"])


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        ("127.0.0.1", "", "127.0.0.1"),  # a trusted proxy that names nobody is the client
        ("127.0.0.1", "198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", "198.51.100.7, 10.0.0.5", "198.51.100.7"),  # two trusted hops
        ("127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # the client's own lie stays
        ("127.0.0.1", "10.0.0.9, 10.0.0.5", "10.0.0.9"),  # every hop trusted: the first
        ("127.0.0.1", "junk, 10.0.0.5", "10.0.0.5"),  # not an address: stop at the proxy
        ("127.0.0.1", "2001:db8::1", "2001:db8::1"),
        ("203.0.113.4", "198.51.100.7", "203.0.113.4"),  # untrusted peer: header ignored
        ("127.0.0.1", ",".join(["10.0.0.1"] * 40 + ["198.51.100.8"]), "198.51.100.8"),
        ("127.0.0.1", ",".join(["198.51.100.9"] + ["10.0.0.1"] * 40), "10.0.0.1"),  # cut
    ],
)
def test_the_client_is_the_nearest_hop_that_is_no_trusted_proxy(
    peer: str, forwarded_for: str, client: str
) -> None:
    assert forwarded_client(peer, forwarded_for, TRUSTED) == client


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict[str, Any]:
    return {
        "type": kind,
        "scheme": "ws" if kind == "websocket" else "http",
        "client": (peer, 50000),
        "headers": [(b"host", b"example.org"), *headers],
    }


def test_a_trusted_proxy_sets_the_client_and_the_scheme() -> None:
    updated = behind_proxies(
        scope(
            "127.0.0.1",
            (b"x-forwarded-for", b"198.51.100.7"),
            (b"x-forwarded-proto", b"https"),
        ),
        TRUSTED,
    )
    assert updated["client"] == ("198.51.100.7", 0)
    assert updated["scheme"] == "https"

    socket = behind_proxies(
        scope("127.0.0.1", (b"x-forwarded-proto", b"https"), kind="websocket"), TRUSTED
    )
    assert socket["scheme"] == "wss" and socket["client"] == ("127.0.0.1", 0)


def test_an_untrusted_peer_loses_every_forwarded_header() -> None:
    original = scope(
        "203.0.113.4",
        (b"x-forwarded-for", b"198.51.100.7"),
        (b"x-forwarded-proto", b"https"),
        (b"x-request-id", b"forged"),
    )
    updated = behind_proxies(original, TRUSTED)

    assert updated["client"] == ("203.0.113.4", 50000)
    assert updated["scheme"] == "http"
    assert updated["headers"] == [(b"host", b"example.org")]
    # Nothing to remove: the scope is passed on as it is.
    assert behind_proxies(scope("203.0.113.4"), TRUSTED) == scope("203.0.113.4")


def test_no_trusted_proxy_by_default() -> None:
    updated = behind_proxies(scope("127.0.0.1", (b"x-forwarded-for", b"198.51.100.7")), [])
    assert updated["client"] == ("127.0.0.1", 50000)
