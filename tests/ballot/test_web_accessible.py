"""The ballot pages pass axe-core in Chromium with no serious or critical violation: the lobby,
the created table, the seat page at every question it is asked and at the end (each at 1280
and at 390 px), the confirmation, the replay and the rules (also at 390 px). axe-core runs
through the browser's debugging channel, so each page is checked with its CSP on, as served.

On the way the seat page is shown at 1280 and 390 px at each question and at the end, never
wider than the phone, and those screens (the top of the page, what a person sees first) are
kept in the suite's artifacts (test-artifacts, ballot); `FAIRFIGHT_DOCS_SCREENSHOTS=1` keeps them in
docs/screenshots/ballot/ instead, for docs/ballot.md (a run never changes the docs unasked)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from tests.accessibility import assert_accessible
from tests.ballot.test_web_browser import answer, server, visit
from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api

__all__ = ["server"]

STEPS_AT_MOST = 200
_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = (_ROOT / "docs" / "screenshots" if os.environ.get("FAIRFIGHT_DOCS_SCREENSHOTS") == "1"
               else _ROOT / "test-artifacts") / "ballot"
WIDTHS = {"1280": (1280, 900), "390": (390, 844)}


def shown_at_both_widths(page: Any, name: str) -> None:
    """Keep the top of the page at 1280 and 390 px; at 390 it must not scroll sideways and
    passes axe-core too (the same page, laid out for a phone)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        page.set_viewport_size({"width": width, "height": height})
        if width == 390:  # on a phone, from the question (or the end) down
            page.evaluate("() => document.querySelector('#asked, #final').scrollIntoView()")
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{label}.png"))
        if width == 390:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, f"the seat page ({name}) is {wide} px wide at 390 px"
            assert_accessible(page)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_every_ballot_page_passes_axe_core(server: tuple[str, Any]) -> None:
    base, _ = server
    executable = chromium_path()
    sync_api = playwright_api()
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(BROWSER_WAIT_MS)
        page.goto(f"{base}/ballot/rules")
        assert_accessible(page)
        page.set_viewport_size({"width": 390, "height": 844})  # the rules' wide tables scroll
        assert_accessible(page)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(f"{base}/ballot")
        assert_accessible(page)
        page.select_option("select[name=victory]", "points")
        page.fill("input[name=years]", "1")
        for seat, kind in enumerate(["human", "pollster", "machine", "none", "none"]):
            page.select_option(f"select[name=seat_{seat}]", kind)
        page.click("text=Create the table")
        assert_accessible(page)  # the created table, its links shown once
        page.click("#to-seat")
        seat_url = page.url
        checked: set[str] = set()
        for _ in range(STEPS_AT_MOST):
            visit(page, seat_url)
            if page.locator("#final").count():
                break
            if not page.locator("#asked").count():
                continue
            phase = page.locator("#asked h2").inner_text()
            if phase not in checked:
                checked.add(phase)
                assert_accessible(page)
                name = re.sub(r"[^a-z-]", "", phase.split("(")[-1])
                shown_at_both_widths(page, name)
                if "(declare)" in phase:
                    page.click("#submit-move")
                    page.wait_for_selector("#confirm")
                    assert_accessible(page)
                    page.click("#commit")
                    continue
            answer(page)
        assert page.locator("#final").count() == 1
        assert "Your move (declare)" in checked, checked
        assert_accessible(page)  # the final table
        shown_at_both_widths(page, "final")
        page.click("text=Replay it")
        page.wait_for_selector("#verdict")
        assert_accessible(page)
        browser.close()
