"""Issue 21's fan, end to end in a real browser: a receipt that catches a re-played season.

A live server over a season the real code made. The fan adds to a faction's pool through the
faction card's form, reads the confirmation with the receipt in words and downloads the receipt;
the operator airs the rest of the season and reveals the seed through the operator API; the fan
downloads the archive from the season's verify page and drops it with the receipt on /verify: ✓.
The operator, who holds the seed and the season key, re-plays the season without that
contribution, copies the original header and reseals the manifest
(tests/conquest/service_replay.py); the fan drops that archive with the same receipt: ✗, naming
the receipt. Screenshots at a phone and a desktop width go to test-artifacts/receipt/.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fairfight.conquest.record import archive
from fairfight.conquest.store import season, season_keys
from fairfight.web.conquest.log_views import receipt_text
from tests.conquest.helpers import SEED
from tests.conquest.service_replay import SERVICE_MAP, replayed_archive
from tests.system import playwright_api
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import ADMIN_TOKEN, live_server, make_app

playwright_api()  # without Playwright the module is skipped (under CI it fails) here

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "receipt"
PHONE, DESKTOP = 390, 1280
BEARER = {"authorization": f"Bearer {ADMIN_TOKEN}"}
EARLY = ("ZZ-003", 25)
"""A contribution made before battle 1, which the re-play keeps."""
FIRST_BATTLES = 2
"""Battles aired before the fan contributes, so the fan's entry counts for battle 3."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def _shots(page: Any, name: str) -> None:
    """The page as it is, at the phone width and at the desktop width (full length)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for label, width in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, label)
    page.set_viewport_size({"width": PHONE, "height": 900})


def _download(page: Any, selector: str, target: Path) -> Path:
    """Click a download link as a fan would and keep the file where the fan saves it."""
    with page.expect_download() as started:
        page.locator(selector).click()
    started.value.save_as(str(target))
    return target


def _open_pool(base: str) -> str:
    """A standing faction whose pool is empty and open: the fan's choice."""
    for row in httpx.get(f"{base}/api/seasons/1/standings").json():
        if row["standing"] and row["pool"] == 0 and row["pool_state"] == "open":
            return str(row["faction"])
    raise AssertionError("no faction with an empty open pool after the first battles")


def _air_and_reveal(base: str) -> None:
    """The operator airs the rest of the season, ten battles at most per action, and reveals."""
    while not httpx.get(f"{base}/api/seasons/1").json()["ended"]:
        aired = httpx.post(f"{base}/api/seasons/1/operator/air", json={"count": 10},
                           headers=BEARER, timeout=60)
        assert aired.status_code == 200, aired.text
    revealed = httpx.post(f"{base}/api/seasons/1/operator/reveal", headers=BEARER)
    assert revealed.status_code == 200 and revealed.json()["seed"] == SEED


def _verdict(page: Any, base: str, zipped: Path, receipt: Path) -> str:
    """Drop the receipt and the archive on /verify and wait for the browser's verdict."""
    page.goto(f"{base}/verify")
    page.wait_for_selector("body[data-verifier=ready]")
    page.set_input_files("#saved", [str(receipt)])
    page.set_input_files("#archive", str(zipped))
    page.wait_for_selector("body[data-verdict]")
    return str(page.get_attribute("body", "data-verdict"))


def _season_before_the_fan(folder: Path) -> Path:
    """A season the real code made, one contribution and the first battles in."""
    path = folder / "season.db"
    season.create_season(path, dict(SERVICE_MAP), "synthetic", seed=SEED)
    season.contribute(path, *EARLY)
    list(season.fight(path, FIRST_BATTLES))
    return path


def _contribute_by_the_form(page: Any, base: str, faction: str) -> None:
    """Add $10 to the faction's pool with the faction card's form, as a fan does."""
    page.goto(f"{base}/conquest/1/factions/{faction}")
    page.select_option("#amount", "10")
    with page.expect_navigation(url=re.compile(rf"/factions/{faction}\?added=")):
        page.locator("#contribute-button").click()


def test_a_fans_receipt_passes_the_honest_archive_and_refuses_the_replayed_one(
    browser: Any, tmp_path: Path
) -> None:
    path = _season_before_the_fan(tmp_path)
    saved = tmp_path / "fan"
    saved.mkdir()
    with live_server(make_app(path)) as base:
        faction = _open_pool(base)
        name = httpx.get(f"{base}/api/seasons/1/factions/{faction}").json()["name"]
        page = new_page(browser, PHONE)
        _contribute_by_the_form(page, base, faction)
        confirmation = page.locator("#contribution-recorded").inner_text()
        assert "$10" in confirmation and name in confirmation, confirmation
        assert f"battle {FIRST_BATTLES + 1}" in confirmation, confirmation
        words = page.locator("#receipt-words").inner_text()
        _shots(page, "confirmation")
        receipt_file = _download(page, "#receipt-link a", saved / "my-receipt.json")
        receipt = json.loads(receipt_file.read_text(encoding="utf-8"))
        assert receipt["entry"]["faction"] == faction and receipt["entry"]["amount"] == 10
        assert receipt["entry"]["before_battle"] == FIRST_BATTLES + 1
        assert receipt_text(receipt) in words
        assert receipt["head"] == httpx.get(f"{base}/api/seasons/1/heads").json()["heads"][
            receipt["leaf_index"]]

        _air_and_reveal(base)
        page.goto(f"{base}/conquest/1/verify")
        honest_zip = _download(page, "#record-download", saved / "season-1-record.zip")

        verdict = _verdict(page, base, honest_zip, receipt_file)
        verified = page.inner_text("#result")
        assert verdict == "verified", verified
        assert f"your ${receipt['entry']['amount']} for " in verified, verified
        assert f"entry {receipt['entry']['seq']}" in verified and "in the record" in verified
        assert "saved head" not in verified, verified  # none was given
        assert "cannot check here" not in verified  # Chromium's Web Crypto checks Ed25519
        _shots(page, "verdict-honest")

        honest = tmp_path / "honest"
        with zipfile.ZipFile(io.BytesIO(honest_zip.read_bytes())) as zipped:
            zipped.extractall(honest)
        # The operator reads the season key from its file beside the season file.
        private = season_keys.KeyFile(season_keys.key_file_for(path)).read()
        forged, _ = replayed_archive(honest, private, {1: [EARLY]}, tmp_path / "replay")
        forged_zip = archive.write_zip(
            {item.name: item.read_bytes() for item in sorted(forged.iterdir()) if item.is_file()},
            saved / "season-1-record-rebuilt.zip")[0]

        assert _verdict(page, base, forged_zip, receipt_file) == "failed"
        failed = page.inner_text("#result")
        index = receipt["leaf_index"]
        assert f"receipt {receipt_file.name}: leaf {index} of the final log" in failed, failed
        _shots(page, "verdict-replayed")
        page.context.close()


_BROKEN_WORDS = """
(element) => {
  const broken = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}
"""
"""The words of an element that the browser splits across two lines (a break after a hyphen
is where a person would break too, so the pieces between hyphens are the words)."""


def test_the_receipt_in_words_breaks_lines_between_words_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    with live_server(make_app(_season_before_the_fan(tmp_path))) as base:
        page = new_page(browser, PHONE)
        _contribute_by_the_form(page, base, _open_pool(base))
        words = page.locator("#receipt-words")
        broken = words.evaluate(_BROKEN_WORDS)
        page.context.close()
    assert broken == [], broken
