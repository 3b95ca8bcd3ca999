"""My contributions in a real browser with witnesses: the page checks each receipt against the
newest checkpoint a majority of the witnesses cosigned (each cosignature checked in the
browser) and says plainly when the log it is shown is not the one the witnesses saw (here the
checkpoint the page fetches is swapped, in the browser, for one the same witnesses cosigned
over another root: what a service showing two logs would serve)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairfight.web import WebSettings, create_app
from tests.system import playwright_api
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import live_server
from tests.web.test_conquest_my_contributions_browser import PHONE, _lines, _season
from tests.web.witness_fake import FakeWitness

playwright_api()  # without Playwright the module is skipped (under CI it fails) here

WAIT = 60.0
"""Seconds the test waits for the background senders (never a speed check)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def test_receipts_are_checked_against_the_log_the_witnesses_saw(browser: Any,
                                                               tmp_path: Path) -> None:
    fakes = {name: FakeWitness(name) for name in ("alpha", "beta")}
    for number in range(1, 256):  # alpha's vkey holds a '+' in its base64 (the separator)
        fakes["alpha"].key = Ed25519PrivateKey.from_private_bytes(bytes([number]) * 32)
        if "+" in fakes["alpha"].setting().vkey.split("+", 2)[2]:
            break
    app = create_app(WebSettings(database_url=f"sqlite:///{_season(tmp_path)}",
                                 forecast_seasons=0,
                                 witnesses=[fake.setting() for fake in fakes.values()]))
    sender = app.state.conquest.witnessing
    sender.client_factory = lambda setting: fakes[setting.name].client(setting)
    with live_server(app) as base:
        sender.submit(1)
        assert sender.idle(WAIT)
        receipt = httpx.get(f"{base}/api/seasons/1/receipts/1").json()
        saved = tmp_path / "my-receipt.json"
        saved.write_text(json.dumps(receipt), encoding="utf-8")
        note = httpx.get(f"{base}/api/seasons/1/checkpoint").text
        size = int(note.split("\n")[1])
        page = new_page(browser, PHONE)
        page.goto(f"{base}/conquest/1/my-contributions")
        page.set_input_files("#receipt-files", str(saved))
        lines = _lines(page)
        assert len(lines) == 1 and lines[0].startswith("✓ my-receipt.json: $25 for"), lines
        assert "in the log the witnesses saw (cosigned by 2 of 2: alpha, beta)" in lines[0], lines
        said = page.inner_text("#witness-verdict")
        assert said == ("The newest checkpoint cosigned by a majority of the witnesses (2 of 2: "
                        f"alpha, beta) covers {size} leaves; the log shown here extends it "
                        "(checked in this browser)."), said

        # the same witnesses cosigned another log of this size: the page is shown that one
        origin, stated, _ = note.split("\n\n")[0].split("\n")
        body = f"{origin}\n{stated}\n{'ERERERERERERERERERERERERERERERERERERERERERE='}\n"
        forged = body + "\n" + "".join(
            fake.cosign(body, int(time.time())) for fake in fakes.values())
        page.route("**/checkpoint?size=*", lambda route: route.fulfill(
            status=200, content_type="text/plain; charset=utf-8", body=forged))
        page.reload()
        page.set_input_files("#receipt-files", str(saved))
        lines = _lines(page)
        said = page.inner_text("#witness-verdict")
        assert said.startswith("The log this page shows is not the one the witnesses saw: its "
                               f"newest head ({size} leaves) does not extend the checkpoint of "
                               f"{size} leaves cosigned by 2 of 2 witnesses (alpha, beta)"), said
        assert lines[0].startswith("✗ my-receipt.json: The log this page shows is not the one "
                                   "the witnesses saw"), lines
        page.context.close()
