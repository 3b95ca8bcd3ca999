"""A seat's "your turn" webhook: which URLs are accepted, and the one POST that is sent.

The stance on server-side request forgery: the service only ever sends a small JSON body
(table, seat, version, the seat's page path; never a card or a token) by POST to an http or
https URL; other schemes are refused, redirects are not followed, and unless the operator allows
it (`FAIRFIGHT_BALLOT_WEBHOOKS_TO_PRIVATE`) a URL whose host resolves to a loopback, private,
link-local, multicast or reserved address is refused, both when it is set and again when a
message is sent (so a name that later resolves elsewhere is caught).
"""

from __future__ import annotations

import ipaddress
import json
import socket
import threading
import urllib.request
from urllib.parse import urlsplit

from fairfight.core.errors import InputError

__all__ = [
    "MAX_URL_LENGTH",
    "SEND_TIMEOUT_SECONDS",
    "check_webhook",
    "deliver",
    "send_in_background",
]

SEND_TIMEOUT_SECONDS = 5.0
MAX_URL_LENGTH = 500


def _private(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None)
    except (OSError, UnicodeError):
        return True
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if (
            address.is_loopback
            or address.is_private
            or address.is_link_local
            or address.is_multicast
            or address.is_reserved
            or address.is_unspecified
        ):
            return True
    return False


def check_webhook(url: str, allow_private: bool) -> str:
    """The URL when it may be called; InputError naming `webhook` otherwise."""
    url = url.strip()
    if len(url) > MAX_URL_LENGTH:
        raise InputError("webhook", f"at most {MAX_URL_LENGTH} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("webhook", "an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise InputError("webhook", "no user name or password in the URL")
    if not allow_private and _private(parts.hostname):
        raise InputError("webhook", "the host is a private or local address, which is refused")
    return url


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def deliver(url: str, payload: dict[str, object], allow_private: bool) -> int:
    """POST the payload as JSON; the HTTP status, or 0 when the URL is refused or unreachable."""
    try:
        check_webhook(url, allow_private)
    except InputError:
        return 0
    request = urllib.request.Request(
        url,
        data=json.dumps(payload, sort_keys=True).encode(),
        headers={"Content-Type": "application/json", "User-Agent": "fairfight-ballot"},
        method="POST",
    )
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(request, timeout=SEND_TIMEOUT_SECONDS) as response:
            return int(response.status)
    except OSError:
        return 0


def send_in_background(url: str, payload: dict[str, object], allow_private: bool) -> None:
    """Deliver without holding up the move that caused it."""
    threading.Thread(target=deliver, args=(url, payload, allow_private), daemon=True).start()
