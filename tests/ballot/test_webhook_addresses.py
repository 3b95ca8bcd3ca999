"""A ballot webhook reaches no special-purpose address of the IANA registries, neither when it
is set nor when a message is sent, and the message goes to the address that was checked."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from fairfight.web import WebSettings, create_app, webhook_addresses
from fairfight.web.ballot.notify import check_webhook, deliver
from fairfight.web.webhook_addresses import parse_ranges

REFUSED = [
    "0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "100.127.255.254", "127.0.0.1",
    "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1",
    "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.7",
    "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
    "[::]", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:8.8.8.8]", "[::127.0.0.1]",
    "[64:ff9b::a00:1]", "[64:ff9b::808:808]", "[64:ff9b:1::1]", "[100::1]",
    "[2001::1]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[2001:2::1]", "[2001:db8::1]",
    "[2002:7f00:1::1]", "[2002:808:808::1]", "[fc00::1]", "[fd12:3456::1]", "[fe80::1]",
    "[fec0::1]", "[ff02::1]", "[3fff::1]",
]
"""Hosts in special-purpose ranges; each is refused (written as a URL's host)."""

PUBLIC = ["8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.1", "198.17.255.255",
          "198.20.0.1", "172.32.0.1", "[2606:4700:4700::1111]", "[2a00:1450:4001::1]"]
"""Ordinary addresses, some just outside a refused range: each is accepted."""


@pytest.mark.parametrize("host", REFUSED)
def test_every_special_purpose_range_is_refused(host: str) -> None:
    with pytest.raises(ValueError, match="special-purpose") as refused:
        check_webhook(f"http://{host}/hook", allow_private=False)
    assert refused.value.field == "webhook"  # type: ignore[attr-defined]
    assert host.strip("[]").split(":")[-1] in str(refused.value.value)  # type: ignore[attr-defined]


@pytest.mark.parametrize("host", PUBLIC)
def test_ordinary_addresses_are_accepted(host: str) -> None:
    assert check_webhook(f"https://{host}/hook", allow_private=False) == f"https://{host}/hook"


def test_the_operator_may_allow_a_range_and_only_that_range() -> None:
    allowed = parse_ranges("100.64.0.0/10, fd00::/8")
    assert check_webhook("http://100.64.0.1/", False, allowed) == "http://100.64.0.1/"
    assert check_webhook("http://[fd00::5]/", False, allowed) == "http://[fd00::5]/"
    for still_refused in ("http://10.0.0.1/", "http://127.0.0.1/", "http://[fc00::1]/"):
        with pytest.raises(ValueError, match="special-purpose"):
            check_webhook(still_refused, False, allowed)


def test_a_range_setting_that_is_not_a_range_stops_the_service_from_starting() -> None:
    with pytest.raises(ValidationError, match="not an address range"):
        WebSettings(ballot_webhook_allowed_ranges="10.0.0.0/8, the office")


def test_one_special_answer_among_several_refuses_the_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, 80))
               for address in ("93.184.216.34", "100.64.0.1")]
    monkeypatch.setattr(webhook_addresses.socket, "getaddrinfo", lambda *a, **k: answers)
    with pytest.raises(ValueError, match="shared address space"):
        check_webhook("http://hooks.example.org/", allow_private=False)


class _Receiver(BaseHTTPRequestHandler):
    got: list[tuple[str, Any]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Receiver.got.append((str(self.headers["Host"]), json.loads(body)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


@pytest.fixture()
def receiver() -> Iterator[HTTPServer]:
    server = HTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join()


def test_a_message_goes_to_the_address_checked_not_a_second_lookup(
    monkeypatch: pytest.MonkeyPatch, receiver: HTTPServer,
) -> None:
    """DNS rebinding: the name answers an allowed address when checked and a refused one
    after; the message still goes to the checked address, looked up once."""
    port = receiver.server_port
    lookups: list[str] = []

    def rebinding(host: str, *args: Any, **kwargs: Any) -> list[Any]:
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) == 1 else "10.9.9.9"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(webhook_addresses.socket, "getaddrinfo", rebinding)
    _Receiver.got.clear()
    status = deliver(f"http://turns.example.org:{port}/hook", {"seat": 1}, False,
                     parse_ranges("127.0.0.0/8"))
    assert status == 204 and lookups == ["turns.example.org"]
    assert _Receiver.got == [(f"turns.example.org:{port}", {"seat": 1})]
    # the next message looks the name up again, finds 10.9.9.9, and is not sent
    assert deliver(f"http://turns.example.org:{port}/hook", {"seat": 1}, False,
                   parse_ranges("127.0.0.0/8")) == 0
    assert len(_Receiver.got) == 1


def test_the_api_refuses_the_shared_address_space(tmp_path: Path) -> None:
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    with TestClient(app) as client:
        created = client.post("/api/ballot/tables", json={
            "seats": ["human", "pollster", "pollster"], "my_seat": 0, "years": 1}).json()
        link = next(seat for seat in created["seats"] if seat["seat"] == 0)
        answer = client.post(f"/api/ballot/tables/{created['id']}/seats/0/webhook",
                             json={"url": "http://100.64.0.1/"},
                             headers={"X-Seat-Token": link["token"]})
    assert answer.status_code == 422
    assert answer.json()["field"] == "webhook"
    assert "shared address space" in answer.json()["message"]
    assert answer.json()["value"] == '"http://100.64.0.1/"'
