"""A seat's "your turn" webhook: which URLs are accepted, and the one POST that is sent.

The stance on server-side request forgery: the service only ever sends a small JSON body
(table, seat, version, the seat's page path; never a card or a token) by POST to an http or
https URL; other schemes are refused, redirects are not followed, and unless the operator allows
it (`FAIRFIGHT_BALLOT_WEBHOOKS_TO_PRIVATE`, or some ranges with
`FAIRFIGHT_BALLOT_WEBHOOK_ALLOWED_RANGES`) a URL whose host resolves to any special-purpose
address (`webhook_addresses`: loopback, private, shared, link-local, benchmarking,
documentation, multicast, reserved, the IPv6 forms of an IPv4 address) is refused, both when it
is set and again when a message is sent, and the message goes to the address just checked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from urllib.parse import urlsplit

from fairfight.core.errors import InputError
from fairfight.web.webhook_addresses import (
    IPNetwork,
    PinnedHTTPConnection,
    PinnedHTTPSConnection,
    resolve_checked,
)

__all__ = [
    "MAX_URL_LENGTH",
    "SEND_TIMEOUT_SECONDS",
    "check_webhook",
    "deliver",
    "send_in_background",
]

SEND_TIMEOUT_SECONDS = 5.0
MAX_URL_LENGTH = 500


def _checked_address(url: str, allow_private: bool, allowed: Sequence[IPNetwork]) -> str:
    """The URL's rules, then the address its host resolves to (InputError naming `webhook`)."""
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise InputError("webhook", f"at most {MAX_URL_LENGTH} characters", url)
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise InputError("webhook", "an http:// or https:// URL with a host", url) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("webhook", "an http:// or https:// URL with a host", url)
    if parts.username or parts.password:
        raise InputError("webhook", "no user name or password in the URL", url)
    try:
        return resolve_checked(parts.hostname, port, allowed, allow_all=allow_private)
    except ValueError as error:
        raise InputError("webhook", str(error), url) from None


def check_webhook(url: str, allow_private: bool, allowed: Sequence[IPNetwork] = ()) -> str:
    """The URL when it may be called; InputError naming `webhook` otherwise."""
    _checked_address(url, allow_private, allowed)
    return url.strip()


def deliver(url: str, payload: dict[str, object], allow_private: bool,
            allowed: Sequence[IPNetwork] = ()) -> int:
    """POST the payload as JSON to the address checked just now (never a second lookup);
    the HTTP status, or 0 when the URL is refused or unreachable. Redirects are not followed."""
    try:
        address = _checked_address(url, allow_private, allowed)
    except InputError:
        return 0
    parts = urlsplit(url.strip())
    kind = PinnedHTTPSConnection if parts.scheme == "https" else PinnedHTTPConnection
    connection = kind(str(parts.hostname), address, parts.port, timeout=SEND_TIMEOUT_SECONDS)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", target, body=json.dumps(payload, sort_keys=True).encode(),
                           headers={"Content-Type": "application/json",
                                    "User-Agent": "fairfight-ballot"})
        return int(connection.getresponse().status)
    except (OSError, ValueError):
        return 0
    finally:
        connection.close()


def send_in_background(url: str, payload: dict[str, object], allow_private: bool,
                       allowed: Sequence[IPNetwork] = ()) -> None:
    """Deliver without holding up the move that caused it."""
    threading.Thread(target=deliver, args=(url, payload, allow_private, allowed),
                     daemon=True).start()
