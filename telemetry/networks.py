"""Addresses and the networks allowed to do something: scrape the metrics
(``METRICS_ALLOWED_ADDRESSES``), or speak for a client as a proxy (``TRUSTED_PROXIES``)."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def parse_networks(values: Iterable[str]) -> list[Network]:
    """Networks from addresses or CIDRs (``10.0.0.0/8``, ``127.0.0.1``, ``::1``); raises
    ValueError naming the first that is neither."""
    networks: list[Network] = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return networks


def parse_address(value: object) -> Address | None:
    """The IP address in ``value`` (an IPv4-mapped IPv6 address as IPv4), or None."""
    if not isinstance(value, str):
        return None
    try:
        address = ipaddress.ip_address(value.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def address_in(value: object, networks: Sequence[Network]) -> bool:
    """Whether ``value`` is an IP address inside one of ``networks``."""
    address = parse_address(value)
    return address is not None and any(address in network for network in networks)
