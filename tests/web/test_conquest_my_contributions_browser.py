"""My contributions in a real browser, at a phone's and a desktop's width.

A live server over a season the real code made. The fan adds $10 through the faction card's form
(the browser keeps the receipt), opens "my contributions" and reads the receipt in words, "in the
record", checked in the browser against the newest signed head; a receipt changed to say $30 is
named in one line. After the operator airs the rest and reveals, the kept receipt is still in the
record, the archive replayed in the browser holds it, and the season's verify page says it in
words too. Each page is axe-clean and never wider than the phone; screenshots of the new page go
to docs/screenshots/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fairfight.conquest.store import season
from tests.accessibility import assert_accessible
from tests.conquest.helpers import SEED
from tests.conquest.service_replay import SERVICE_MAP
from tests.system import playwright_api
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import ADMIN_TOKEN, live_server, make_app

playwright_api()  # without Playwright the module is skipped (under CI it fails) here

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = 390, 1280
BEARER = {"authorization": f"Bearer {ADMIN_TOKEN}"}
FIRST_BATTLES = 2


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def _season(folder: Path) -> Path:
    path = folder / "season.db"
    season.create_season(path, dict(SERVICE_MAP), "synthetic", seed=SEED)
    season.contribute(path, "ZZ-003", 25)
    list(season.fight(path, FIRST_BATTLES))
    return path


def _open_pool(base: str) -> str:
    for row in httpx.get(f"{base}/api/seasons/1/standings").json():
        if row["standing"] and row["pool"] == 0 and row["pool_state"] == "open":
            return str(row["faction"])
    raise AssertionError("no faction with an empty open pool")


def _air_and_reveal(base: str) -> None:
    while not httpx.get(f"{base}/api/seasons/1").json()["ended"]:
        aired = httpx.post(f"{base}/api/seasons/1/operator/air", json={"count": 10},
                           headers=BEARER, timeout=60)
        assert aired.status_code == 200, aired.text
    assert httpx.post(f"{base}/api/seasons/1/operator/reveal", headers=BEARER).status_code == 200


def _lines(page: Any) -> list[str]:
    page.wait_for_selector("body[data-receipts=checked]")
    return [" ".join(text.split()) for text in
            page.locator("#receipt-verdicts li").all_inner_texts()]


_WIDE = """
() => [...document.querySelectorAll("body *")]
  .filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth)
  .map((node) => node.tagName + "#" + node.id + "." + node.className).slice(0, 5)
"""


def _fits_and_passes(page: Any, shot: str | None = None) -> None:
    """At both widths: no horizontal scroll, axe-clean; the screenshot when asked."""
    for label, width in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size({"width": width, "height": 900})
        wide = page.evaluate(_WIDE)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (label, wide)
        assert_accessible(page)
        if shot:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{shot}-{label}.png"), full_page=True)


def test_a_fan_reads_each_receipt_in_words_before_and_after_the_reveal(
        browser: Any, tmp_path: Path) -> None:
    with live_server(make_app(_season(tmp_path))) as base:
        faction = _open_pool(base)
        name = httpx.get(f"{base}/api/seasons/1/factions/{faction}").json()["name"]
        page = new_page(browser, PHONE)
        page.goto(f"{base}/conquest/1/factions/{faction}")
        page.select_option("#amount", "10")
        with page.expect_navigation(url=re.compile(rf"/factions/{faction}\?added=")):
            page.locator("#contribute-button").click()
        page.wait_for_selector("body[data-receipt-kept=yes]")
        seq = int(page.locator("#receipt-link a").get_attribute("href").rsplit("/", 1)[1])
        receipt = httpx.get(f"{base}/api/seasons/1/receipts/{seq}").json()
        said = f"$10 for {name}, counted in battle {FIRST_BATTLES + 1}"

        page.locator("#my-contributions-link").click()
        kept = _lines(page)
        assert len(kept) == 1 and said in kept[0] and "in the record" in kept[0], kept
        assert "checked in this browser against the newest head" in kept[0], kept

        changed = json.loads(json.dumps(receipt))
        changed["entry"]["amount"] = 30
        forged = tmp_path / "changed-receipt.json"
        forged.write_text(json.dumps(changed), encoding="utf-8")
        page.set_input_files("#receipt-files", str(forged))
        page.wait_for_selector("#receipt-verdicts li:nth-child(2)")
        lines = _lines(page)
        assert lines[1] == (
            f"✗ changed-receipt.json: your receipt for entry {seq} says $30 for {name}, counted "
            f"in battle {FIRST_BATTLES + 1}, but the season log's entry {seq} is {said}"), lines
        _fits_and_passes(page, "my-contributions")

        _air_and_reveal(base)
        page.reload()
        after = _lines(page)
        assert len(after) == 1 and said in after[0] and "in the record" in after[0], after
        page.locator("#archive-published").click()
        page.wait_for_selector("body[data-archive]")
        verdict = page.inner_text("#archive-verdict")
        assert page.get_attribute("body", "data-archive") == "verified", verdict
        assert "also in the final record" in verdict and said in verdict, verdict
        _fits_and_passes(page, "my-contributions-revealed")

        page.goto(f"{base}/conquest/1/verify")
        on_verify = _lines(page)
        assert len(on_verify) == 1 and said in on_verify[0], on_verify
        assert "in the record" in on_verify[0], on_verify
        _fits_and_passes(page)

        page.locator("#forget-receipts").click()
        assert page.evaluate("localStorage.getItem('fairfight.receipts.1')") is None
        page.context.close()


def test_without_javascript_the_server_checks_the_receipt_and_says_so(
        browser: Any, tmp_path: Path) -> None:
    path = _season(tmp_path)
    with live_server(make_app(path)) as base:
        receipt = httpx.get(f"{base}/api/seasons/1/receipts/1").json()
        entry = receipt["entry"]
        name = httpx.get(f"{base}/api/seasons/1/factions/{entry['faction']}").json()["name"]
        saved = tmp_path / "my-receipt.json"
        saved.write_text(json.dumps(receipt), encoding="utf-8")
        page = new_page(browser, PHONE, scripts=False)
        page.goto(f"{base}/conquest/1/my-contributions")
        page.set_input_files("#receipt-files", str(saved))
        with page.expect_navigation():
            page.locator("#receipt-server-check").click()
        lines = [" ".join(text.split()) for text in
                 page.locator("#receipt-verdicts li").all_inner_texts()]
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"✓ my-receipt.json: $25 for {name}, counted in battle 1: "
                                   "in the record"), lines
        assert "checked by this server" in lines[0], lines
        assert page.locator("#server-checked").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
        page.context.close()
