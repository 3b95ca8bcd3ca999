"""The ballot pages pass axe-core in Chromium with no serious or critical violation: the lobby,
the created table, the seat page at every question it is asked (the declare form among them),
the confirmation, the replay and the rules (also at 390 px). axe-core runs through the
browser's debugging channel, so each page is checked with its CSP on, as served."""

from __future__ import annotations

from typing import Any

from tests.accessibility import assert_accessible
from tests.ballot.test_web_browser import answer, server, visit
from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api

__all__ = ["server"]

STEPS_AT_MOST = 200


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
        page.click("text=Replay it")
        page.wait_for_selector("#verdict")
        assert_accessible(page)
        browser.close()
