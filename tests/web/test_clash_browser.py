"""The clash pages in a real browser (Debian's Chromium through Playwright).

On Belvoir Wood (the §23 situation as a board) the attack panel shows the §23 figures, the
retreat tile and the overlay colours; ordering the attack and running the Cascade shows the
reconciliation line with the resolved losses inside the predicted bands. The figures are
typed from the worked example. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

from tests.accessibility import assert_accessible
from tests.web.test_warscore_browser import (  # one server and browser recipe for both pages
    ARTIFACTS,
    DESKTOP,
    PHONE,
    base_url,
    browser,
    shot,
    watch_errors,
)

__all__ = ["base_url", "browser"]

SECTION_23 = ("They break — certain (1000‰)", "26 ── 34 ── 41", "78 drops to 37–52",
              "14 ── 19 ── 25", "92 drops to 67–78", "97 : 74", "±250‰",
              "Your attack falters: never (0‰)", "+180 veteran", "+120 combined arms",
              "+400 forest cover", "+200 dug in ×2", "fall back to Ford Seven")


def start_belvoir(page: Any, base: str) -> None:
    page.goto(f"{base}/clash")
    page.check("input[name=scenario][value=belvoir-wood]")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("svg.cb-board")


def open_attack(page: Any) -> None:
    page.click("g.cb-unit[data-unit='armour-2']")
    page.wait_for_selector("a.cb-target-link")
    page.click("g.cb-unit[data-unit='rifles-3']")
    page.wait_for_selector("#attack-panel")
    page.click("#panel-details > summary")   # the figures behind the verdict, folded at first


def test_section_23_on_the_board(browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    start_belvoir(page, base_url)
    open_attack(page)
    text = re.sub(r"\s+", " ", page.inner_text("#attack-panel"))
    for figure in SECTION_23:
        assert figure in text, figure
    retreat = page.locator("#retreat-tile")
    assert (retreat.get_attribute("data-x"), retreat.get_attribute("data-y")) == ("2", "2")
    assert retreat.is_visible()
    fill = page.locator("g.cb-overlay[data-permille='1000'] .cb-overlay-fill")
    assert fill.evaluate("node => getComputedStyle(node).fill") == "rgb(31, 122, 63)"
    assert "▲1000‰" in (page.text_content("g.cb-overlay[data-permille='1000']") or "")
    shot(page, "clash-belvoir-panel-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "clash-belvoir-panel-phone")
    page.locator("svg.cb-board").screenshot(path=str(ARTIFACTS / "clash-board-phone.png"))
    page.locator("#attack-panel").screenshot(path=str(ARTIFACTS / "clash-panel-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors
    page.close()


def test_the_panel_charts_the_strength_after_at_phone_and_desktop_widths(
        browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    start_belvoir(page, base_url)
    open_attack(page)
    charts = page.locator("#strength-after figure.cp-chart")
    assert charts.count() == 2
    for side in ("they", "you"):
        chart = page.locator(f"figure.cp-chart[data-side='{side}'] svg.cp-chart-svg")
        assert chart.is_visible() and chart.bounding_box()["height"] > 20
        assert page.locator(f"figure.cp-chart[data-side='{side}'] rect.cp-bar").count() >= 1
    below = page.inner_text("figure.cp-chart[data-side='they'] ul.cp-below")
    assert "Chance they fall below 50" in below and "Chance they are destroyed" in below
    assert_accessible(page)
    page.locator("#strength-after").screenshot(path=str(ARTIFACTS / "clash-chart-desktop.png"))
    shot(page, "clash-chart-panel-desktop")
    page.set_viewport_size(PHONE)
    page.locator("#strength-after").screenshot(path=str(ARTIFACTS / "clash-chart-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_accessible(page)
    assert not errors, errors
    page.close()


def test_commit_shows_the_reconciliation_inside_the_band(browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    start_belvoir(page, base_url)
    open_attack(page)
    page.click("#order-attack")
    page.wait_for_selector("#orders li")
    page.click("#run-turn")
    page.wait_for_selector("#reconciliation")
    line = page.inner_text("#reconciliation")
    match = re.search(r"They lose: predicted (\d+)–(\d+), actual (\d+)", line)
    assert match, line
    low, high, actual = (int(group) for group in match.groups())
    assert (low, high) == (26, 41) and low <= actual <= high
    assert "inside the band" in line
    shot(page, "clash-belvoir-reconciliation")
    page.click("#event-forth")
    page.wait_for_selector("#event-now:has-text('retreat')")
    page.click("#event-back")
    page.wait_for_selector("#reconciliation")
    page.close()


def test_exchange_page_shows_the_section_23_panel_and_fog(browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base_url}/clash/exchange?example=worked-example&r=617")
    text = re.sub(r"\s+", " ", page.inner_text("#attack-panel"))
    for figure in SECTION_23[:-1]:
        assert figure in text, figure
    assert "predicted 26–41, actual 35" in text
    page.check("input[name=fog][value=grade]")
    page.click("#fog-form button[type=submit]")
    assert "PROVISIONAL" in page.inner_text("#fog")
    shot(page, "clash-exchange-fog")
    ARTIFACTS.mkdir(exist_ok=True)
    page.close()
