"""Which addresses a webhook may reach, and a connection that goes to the address checked.

Every range of the IANA IPv4 and IPv6 Special-Purpose Address Registries is refused (with
multicast and the deprecated site-local range), not only what `ipaddress` calls private: the
shared address space 100.64.0.0/10 and the benchmarking 198.18.0.0/15 hold cloud metadata
services and carrier equipment, and the IPv6 forms that carry an IPv4 address (mapped,
NAT64, 6to4, Teredo) reach whatever that address reaches. The operator may allow ranges
(`FAIRFIGHT_BALLOT_WEBHOOK_ALLOWED_RANGES`, or every one with
`FAIRFIGHT_BALLOT_WEBHOOKS_TO_PRIVATE`).

A name is resolved once per message; every address it resolves to is checked, and the
connection is made to the first checked address itself (the name only travels as the Host
header and the TLS server name), so a name that resolves elsewhere a moment later (DNS
rebinding) is never connected to.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Sequence
from http.client import HTTPConnection, HTTPSConnection

__all__ = [
    "IPAddress",
    "IPNetwork",
    "PinnedHTTPConnection",
    "PinnedHTTPSConnection",
    "SPECIAL_PURPOSE_RANGES",
    "parse_ranges",
    "refusal_of",
    "resolve_checked",
]

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
"""An address range of either version."""
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
"""An address of either version."""

_IPV4_SPECIAL = (
    ("0.0.0.0/8", "this network"),
    ("10.0.0.0/8", "private use"),
    ("100.64.0.0/10", "shared address space"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private use"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.31.196.0/24", "AS112"),
    ("192.52.193.0/24", "AMT"),
    ("192.88.99.0/24", "6to4 relay anycast"),
    ("192.168.0.0/16", "private use"),
    ("192.175.48.0/24", "AS112 direct delegation"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
    ("255.255.255.255/32", "limited broadcast"),
)
_IPV6_SPECIAL = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "IPv4-compatible"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("64:ff9b::/96", "NAT64"),
    ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"),
    ("100::/64", "discard-only"),
    ("100:0:0:1::/64", "dummy prefix"),
    ("2001::/23", "IETF protocol assignments (Teredo, benchmarking, ORCHID, ...)"),
    ("2001:db8::/32", "documentation"),
    ("2002::/16", "6to4"),
    ("2620:4f:8000::/48", "AS112"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "segment routing"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local (deprecated)"),
    ("ff00::/8", "multicast"),
)
SPECIAL_PURPOSE_RANGES: tuple[tuple[IPNetwork, str], ...] = tuple(
    (ipaddress.ip_network(cidr), name) for cidr, name in _IPV4_SPECIAL + _IPV6_SPECIAL)
"""Every range a webhook may not reach unless allowed, with the registry's name for it."""


def parse_ranges(text: str) -> tuple[IPNetwork, ...]:
    """The operator's allowed ranges from `10.0.0.0/8, fd00::/8`; ValueError names a bad one."""
    ranges = []
    for part in text.split(","):
        if part.strip():
            try:
                ranges.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ValueError(f"{part.strip()!r} is not an address range") from None
    return tuple(ranges)


def refusal_of(address: IPAddress, allowed: Sequence[IPNetwork] = ()) -> str | None:
    """Why a webhook may not reach `address` (the special-purpose range it is in), or None."""
    if any(address.version == network.version and address in network for network in allowed):
        return None
    for network, name in SPECIAL_PURPOSE_RANGES:
        if address.version == network.version and address in network:
            return f"{name} ({network})"
    return None


def resolve_checked(host: str, port: int, allowed: Sequence[IPNetwork] = (),
                    allow_all: bool = False) -> str:
    """The address to connect to for `host`: every address it resolves to must be allowed
    (one special-purpose answer refuses the name). ValueError says why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise ValueError("the host name does not resolve") from None
    addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in infos]
    if not addresses:
        raise ValueError("the host name does not resolve")
    if not allow_all:
        for address in addresses:
            reason = refusal_of(address, allowed)
            if reason is not None:
                raise ValueError(f"the host is a special-purpose address: {reason}")
    return str(addresses[0])


def _connect(address: str, port: int, timeout: float | None) -> socket.socket:
    """A TCP connection to an address literal, with no name lookup of any kind."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect((address, port))
    except OSError:
        sock.close()
        raise
    return sock


class PinnedHTTPConnection(HTTPConnection):
    """An HTTP connection to a checked address; the name is only the Host header."""

    def __init__(self, host: str, address: str, port: int | None = None,
                 timeout: float = 5.0) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = _connect(self.address, self.port, self.timeout)


class PinnedHTTPSConnection(HTTPSConnection):
    """An HTTPS connection to a checked address; the certificate is checked for the name."""

    def __init__(self, host: str, address: str, port: int | None = None,
                 timeout: float = 5.0) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        raw = _connect(self.address, self.port, self.timeout)
        self.sock = ssl.create_default_context().wrap_socket(raw, server_hostname=self.host)
