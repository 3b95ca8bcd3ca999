"""Signing interactions as Discord does, and a Discord stand-in for the service's HTTP client.

Discord signs `timestamp + raw body` with the application's Ed25519 private key and sends the
hex signature and the timestamp (Unix seconds) in two headers. The tests make their own key
pair, so they sign exactly what Discord would, and no request ever leaves the machine: the
service's client is an httpx client over a `MockTransport` that plays Discord's file hosts
and its webhook API.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app

REPO = Path(__file__).resolve().parents[2]
DEMONSTRATION = yaml.safe_load(
    (REPO / "examples" / "warscore" / "demonstration.yaml").read_text(encoding="utf-8"))
CDN = "https://cdn.discordapp.com/ephemeral-attachments/1/2"
APPLICATION = "1100000000000000001"
TOKEN = "aW50ZXJhY3Rpb24tdG9rZW4.test_token-1"


def public_hex(key: Ed25519PrivateKey) -> str:
    """The public half as Discord's developer portal shows it: 64 hex digits."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def signed_headers(key: Ed25519PrivateKey, body: bytes,
                   timestamp: str | None = None) -> dict[str, str]:
    """The two headers Discord sends with `body`."""
    stamp = timestamp if timestamp is not None else str(int(time.time()))
    return {"X-Signature-Ed25519": key.sign(stamp.encode() + body).hex(),
            "X-Signature-Timestamp": stamp, "Content-Type": "application/json"}


@dataclass
class FakeDiscord:
    """Discord's file hosts (`files`: URL -> bytes or a handler) and its webhook API (every
    edit of a deferred reply is kept in `edits`)."""

    files: dict[str, bytes | Callable[[httpx.Request], httpx.Response]] = field(
        default_factory=dict)
    edits: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    fetched: list[str] = field(default_factory=list)

    def handle(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if request.method == "PATCH":
            self.edits.append((url, json.loads(request.content)))
            return httpx.Response(200, json={"id": "1"})
        self.fetched.append(url)
        found = self.files.get(url)
        if found is None:
            return httpx.Response(404)
        if callable(found):
            return found(request)
        return httpx.Response(200, content=found)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self.handle))


def discord_app(key: Ed25519PrivateKey | None, fake: FakeDiscord) -> FastAPI:
    """The service with the key's public half configured and the fake Discord as its client."""
    settings = WebSettings(database_url="sqlite://",
                           discord_public_key=None if key is None else public_hex(key),
                           rate_limits_enabled=False, request_log=False)
    app = create_app(settings)
    app.state.discord_client = fake.client
    return app


def post_signed(client: TestClient, key: Ed25519PrivateKey, interaction: dict[str, Any],
                timestamp: str | None = None) -> httpx.Response:
    body = json.dumps(interaction).encode()
    return client.post("/discord/interactions", content=body,
                       headers=signed_headers(key, body, timestamp))


def attachment(option_id: str, filename: str, size: int, url: str) -> dict[str, Any]:
    return {"id": option_id, "filename": filename, "size": size, "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": "application/x-yaml"}


def battle_interaction(options: list[dict[str, Any]],
                       attachments: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """An APPLICATION_COMMAND interaction for `/warscore battle` as Discord sends it."""
    data: dict[str, Any] = {"id": "1200000000000000001", "name": "warscore", "type": 1,
                            "options": [{"name": "battle", "type": 1, "options": options}]}
    if attachments:
        data["resolved"] = {"attachments": attachments}
    return {"id": "1300000000000000001", "application_id": APPLICATION, "type": 2,
            "token": TOKEN, "version": 1, "data": data,
            "channel_id": "1400000000000000001", "guild_id": "1500000000000000001"}


def two_sheets(fake: FakeDiscord, attacker: bytes, defender: bytes,
               year: int = 3019) -> dict[str, Any]:
    """A `/warscore battle` with both sheets attached (served by `fake`)."""
    urls = {"attacker": f"{CDN}/attacker.yaml", "defender": f"{CDN}/defender.yaml"}
    fake.files[urls["attacker"]] = attacker
    fake.files[urls["defender"]] = defender
    attachments = {
        "901": attachment("901", "attacker.yaml", max(1, len(attacker)), urls["attacker"]),
        "902": attachment("902", "defender.yaml", max(1, len(defender)), urls["defender"]),
    }
    options = [{"name": "attacker", "type": 11, "value": "901"},
               {"name": "defender", "type": 11, "value": "902"},
               {"name": "year", "type": 4, "value": year},
               {"name": "name", "type": 3, "value": "Pelennor"}]
    return battle_interaction(options, attachments)


def sheet(side: str) -> bytes:
    """One army of the source's demonstration battle, as its own YAML file."""
    return yaml.safe_dump(DEMONSTRATION[side], sort_keys=False).encode()
