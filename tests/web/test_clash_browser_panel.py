"""The attack panel you can act on, in Chromium, on the Siege of Castel as blue.

One walk: the assault panel opens with the verdict, the chances and "Order this attack" in the
first screen at 1280 and at 390 px, the rest folded; the address bar follows each click;
tiles are labelled for the mode they are in; bombard mode gets its exact panel; and every
clash page fits 390 px (the seat links' page too). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.web.chromium_session import visit
from tests.web.test_warscore_browser import (  # one server and browser recipe for every page
    ARTIFACTS,
    DESKTOP,
    PHONE,
    base_url,
    browser,
)

__all__ = ["base_url", "browser"]

PANEL_TO_BUTTON = """() => {
  window.scrollTo(0, 0);
  const panel = document.getElementById('attack-panel').getBoundingClientRect();
  const button = document.querySelector('#order-attack, #order-bombard').getBoundingClientRect();
  return [Math.round(panel.height), Math.round(button.bottom - panel.top),
          Math.round(button.bottom)];
}"""
"""The panel's height, how far below its top the order button ends, and where the button ends
on the page opened at its top, in CSS pixels."""


def _siege_seat(base: str) -> tuple[str, str]:
    request = urllib.request.Request(
        f"{base}/api/clash/tables", data=json.dumps({"scenario": "siege"}).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        table = json.loads(answer.read())
    return table["game"], base + table["seats"]["blue"]


def _labels(page: Any) -> list[str]:
    return [str(label) for label in page.eval_on_selector_all(
        "a.cb-target-link", "links => links.map(a => a.getAttribute('aria-label'))")]


def _fits(page: Any, size: dict[str, int]) -> tuple[int, int]:
    """The panel's height and button depth at this viewport: the order button within the
    panel's first screen; at 1280, where the panel sits beside the board, within the page's."""
    page.set_viewport_size(size)
    height, button, on_page = page.evaluate(PANEL_TO_BUTTON)
    assert button <= size["height"], (size, height, button)
    if size == DESKTOP:
        assert on_page <= size["height"], (size, height, on_page)
    if size == PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return height, button


def test_a_panel_to_act_on(browser: Any, base_url: str) -> None:
    game, seat = _siege_seat(base_url)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    visit(page, seat)
    page.click("g.cb-unit[data-unit='tank-1']")
    page.wait_for_selector("a.cb-target-link")
    assert page.url.endswith("select=tank-1")   # the address follows the click
    assert _labels(page) == ["attack (2,2)"]
    page.click("g.cb-unit[data-unit='garrison']")
    page.wait_for_selector("#attack-panel")
    assert page.url.endswith("select=tank-1&mode=assault&target=2%2C2")
    assert page.locator("#order-attack").is_visible()
    assert page.locator("#panel-details").get_attribute("open") is None   # details folded
    assert not page.locator("#strength-after").is_visible()
    desktop = _fits(page, DESKTOP)
    page.screenshot(path=str(ARTIFACTS / "clash-panel-1280.png"))   # the first screen
    phone = _fits(page, PHONE)
    page.locator("#unit-orders").screenshot(path=str(ARTIFACTS / "clash-panel-390.png"))
    assert max(desktop[0], phone[0]) < 1000, (desktop, phone)   # it was ~3,000 px
    page.click("#panel-details > summary")
    assert page.locator("#strength-after").is_visible()

    page.click("g.cb-unit[data-unit='gun-2']")
    page.click("#mode-bombard")
    page.wait_for_selector("#bombard-range")
    assert _labels(page) == ["bombard (2,2)"]
    page.click("g.cb-unit[data-unit='garrison']")
    page.wait_for_selector("#attack-panel[data-kind='bombardment']")
    assert page.url.endswith("select=gun-2&mode=bombard&target=2%2C2")
    assert "They lose" in page.inner_text("#bands")
    _fits(page, PHONE)
    page.set_viewport_size(DESKTOP)
    page.click("#mode-move")
    page.wait_for_selector("#unit-orders:has-text('Move path')")
    assert _labels(page) and all(label.startswith("move to (") for label in _labels(page))
    page.go_back()   # the history holds every click
    page.wait_for_selector("#attack-panel[data-kind='bombardment']")

    page.set_viewport_size(PHONE)
    for path in ("/clash", "/clash/rules", "/clash/exchange?example=worked-example&r=617",
                 f"/clash/play/{game}"):
        page.goto(base_url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.goto(base_url + "/clash")
    page.check("#new-table input[name=mode][value=online]")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#seat-links")   # two long secret links
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
