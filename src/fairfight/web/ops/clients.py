"""Who the client is: the peer address, or what a trusted proxy says the peer was.

Rate limits, the clash games-per-client cap and the request log all key on the client address.
Behind a reverse proxy every peer is the proxy, so the proxy's `X-Forwarded-For` names the
client; but a header anyone can send is believed only from the proxies the operator named
(`forwarded_allow_ips`, also `fairfight serve --forwarded-allow-ips`). The app does this itself
(uvicorn's own proxy handling is switched off) so the same rule holds under any server and in
tests.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from fairfight.core.errors import InputError

__all__ = ["TrustedProxies", "forwarded_client", "is_ip_address"]

_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose forwarding headers are believed: addresses, networks, or `*`."""

    networks: tuple[_Network, ...] = ()
    everyone: bool = False

    @classmethod
    def parse(cls, text: str | None) -> TrustedProxies:
        """`"10.0.0.1, 192.168.0.0/16"`, `"*"` for every peer, or empty for none."""
        items = [item.strip() for item in (text or "").split(",") if item.strip()]
        if "*" in items:
            return cls(everyone=True)
        networks = []
        for item in items:
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise InputError("forwarded_allow_ips", f"{item[:60]!r} is not an IP address "
                                 "or network") from None
        return cls(tuple(networks))

    def trusts(self, address: str) -> bool:
        """Whether a peer at `address` is one of the trusted proxies."""
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


def is_ip_address(client: str) -> bool:
    """Whether a client is known by an IP address (a unix-socket peer or an in-process test
    client is not, and is not rate limited: one shared bucket would throttle every visitor)."""
    try:
        ipaddress.ip_address(client)
    except ValueError:
        return False
    return True


def forwarded_client(peer: str, forwarded_for: str | None, proxies: TrustedProxies) -> str:
    """The client address: walk `X-Forwarded-For` from the nearest hop while the hop is a
    trusted proxy; the first untrusted hop is the client. An untrusted peer is the client."""
    if not forwarded_for or not proxies.trusts(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")][-32:]
    client = peer
    for hop in reversed(hops):
        if not hop:
            break
        client = hop
        if not proxies.trusts(hop):
            break
    return client[:64]
