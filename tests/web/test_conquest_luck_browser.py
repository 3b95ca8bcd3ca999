"""The luck in a real browser (Playwright driving Debian's Chromium): the season home's last
section, and a rare run followed to its faction card, which tells the same run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api
from tests.web.conquest_support import copy_season, live_server, make_app

sync_api = playwright_api()

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(),
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[str]:
    with live_server(make_app(copy_season(demo_master[0], tmp_path))) as base:
        yield base


def test_the_home_ends_with_the_luck_and_a_rare_run_leads_to_its_card(
        browser: Any, server: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(BROWSER_WAIT_MS)
    page.goto(f"{server}/conquest/1")
    section = page.locator("#season-luck")
    assert section.locator("h2").inner_text() == "Luck of the season"
    luck = httpx.get(f"{server}/api/seasons/1").json()["luck"]
    assert section.locator(".luck-season").inner_text() == f"{luck['sentence']}."
    rare = section.locator("li.luck-rare")
    assert rare.count() == len(luck["rarest"]) == 3
    first = luck["rarest"][0]
    assert first["sentence"] in rare.first.inner_text()
    section.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    section.screenshot(path=str(ARTIFACTS / "home-luck.png"))
    rare.first.locator("a").click()
    page.wait_for_url(f"{server}/conquest/1/factions/{first['faction']}")
    card = page.locator("#faction-luck .luck-run").inner_text()
    assert card.lower() == f"{first['sentence']}."
    page.context.close()
