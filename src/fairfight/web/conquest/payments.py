"""The payment provider's webhook: a signed event becomes a contribution, once per event id.

The provider signs `"{timestamp}.{raw body}"` with HMAC-SHA256 under the shared secret and
sends `Fairfight-Signature: t=<unix seconds>,v1=<hex digest>`. The signature is checked on
the raw bytes before anything is parsed; a timestamp more than `TOLERANCE_SECONDS` away from
our clock, in either direction, is refused, so a captured request cannot be replayed later.
The event id is the idempotency key: a provider retrying an event records it once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fairfight.core.validation import is_plain_digits, parse_model
from fairfight.web.conquest.refusals import Refusal

__all__ = ["PaymentEvent", "SIGNATURE_HEADER", "TOLERANCE_SECONDS", "sign", "verified_event"]

SIGNATURE_HEADER = "Fairfight-Signature"
TOLERANCE_SECONDS = 300


class _Payment(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    season: int = Field(ge=1)
    faction: str = Field(min_length=1, max_length=32)
    amount: int = Field(ge=0, le=10_000)


class PaymentEvent(BaseModel):
    """A settled payment: the provider's event id and what the fan paid for."""

    model_config = ConfigDict(extra="ignore", strict=True)  # the provider adds fields
    id: str = Field(pattern=r"^[\x21-\x7e]{1,200}$")
    type: str = Field(pattern=r"^payment\.succeeded$")
    data: _Payment


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header value a provider sends for `body` at `timestamp`."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"t={timestamp},v1={digest.hexdigest()}"


def _parts(header: str) -> tuple[int, list[str]]:
    timestamp: int | None = None
    digests = []
    for part in header.split(","):
        name, _, value = part.strip().partition("=")
        if name == "t" and is_plain_digits(value, 12):
            timestamp = int(value)
        elif name == "v1":
            digests.append(value.strip().lower())
    if timestamp is None or not digests:
        raise Refusal(400, SIGNATURE_HEADER, "must read t=<unix seconds>,v1=<hex HMAC-SHA256>")
    return timestamp, digests


def verified_event(
    secret: str, header: str | None, body: bytes, now: float | None = None
) -> PaymentEvent:
    """Check the signature and the time on the raw body, then parse the event."""
    if header is None:
        raise Refusal(400, SIGNATURE_HEADER, "this header is required")
    timestamp, digests = _parts(header)
    expected = sign(secret, timestamp, body).split("v1=")[1]
    if not any(hmac.compare_digest(expected, candidate) for candidate in digests):
        raise Refusal(401, SIGNATURE_HEADER, "the signature does not match the body")
    clock = time.time() if now is None else now
    if abs(clock - timestamp) > TOLERANCE_SECONDS:
        raise Refusal(401, SIGNATURE_HEADER, f"timestamp {timestamp} is more than "
                      f"{TOLERANCE_SECONDS} s from the server's clock")
    try:
        data: Any = json.loads(body)
    except ValueError:
        raise Refusal(400, "body", "is not JSON") from None
    return parse_model(PaymentEvent, data)
