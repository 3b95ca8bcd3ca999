"""Watch mode in Debian's Chromium: a fan watches the FAN CLASH of the demo season to its end on
a phone (the rounds appear one at a time, the score follows, the result only at the end, each
round read out politely), by the play button, by the keyboard and with reduced motion; then
without a script, step by step through links, to the full record, which fits a phone too.
Nothing is wider than the screen; axe-core finds nothing serious. Screenshots of the watch
page at 390 and 1280 px go to docs/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.accessibility import serious_violations
from tests.system import playwright_api
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import copy_season, live_server, make_app

playwright_api()  # without Playwright the module is skipped (under CI it fails) here

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PHONE, DESKTOP = 390, 1280
WIDE = ("() => [...document.querySelectorAll('body *')].filter(e =>"
        " e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)"
        ".map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)")
SHOWN = ("() => [document.querySelectorAll('#watch .watch-round:not([hidden])').length,"
         " !document.getElementById('step-6').hidden]")
# every change of what the page shows, as [rounds shown, result shown], in order
FOLLOW = ("() => { window.watchSeen = []; new MutationObserver(() => {"
          " const now = (" + SHOWN + ")(); const last = window.watchSeen.at(-1);"
          " if (!last || last[0] !== now[0] || last[1] !== now[1]) window.watchSeen.push(now);"
          " }).observe(document.getElementById('watch'),"
          " {subtree: true, attributes: true, attributeFilter: ['hidden']}); }")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(demo_master: tuple[Path, dict[str, object]],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module: both walks only read the season."""
    folder = tmp_path_factory.mktemp("watch")
    with live_server(make_app(copy_season(demo_master[0], folder))) as base:
        yield base


def _fits(page: Any, width: int) -> None:
    assert page.evaluate(WIDE) == [], page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width, page.url


def _said(page: Any) -> str:
    return " ".join(page.inner_text("#watch-said").split())


def test_a_fan_watches_the_fan_clash_to_the_end_on_a_phone(
        browser: Any, server: str, arranged: dict[str, object]) -> None:
    number = arranged["fan_clash_battle"]
    battle = httpx.get(f"{server}/api/seasons/1/battles/{number}").json()
    page = new_page(browser, PHONE)
    page.goto(f"{server}/conquest/1/battles/{number}/watch")
    assert page.evaluate(SHOWN) == [0, False]
    assert page.locator("#watch-play").is_visible()
    assert page.get_attribute("#watch-said", "aria-live") == "polite"
    _fits(page, PHONE)
    # play at a quick pace and follow every change the page makes
    page.evaluate(FOLLOW)
    page.evaluate("document.getElementById('watch').dataset.pace = '60'")
    page.click("#watch-play")
    page.wait_for_selector("#step-6:not([hidden])")
    assert page.evaluate("window.watchSeen") == [
        [1, False], [2, False], [3, False], [4, False], [5, False], [5, True]]
    assert page.inner_text("#watch-play") == "Play again"
    assert battle["winner_name"] in _said(page) and battle["reason"] in _said(page)
    assert (page.inner_text("#score-attacker"), page.inner_text("#score-defender")) == (
        str(battle["attacker_rounds"]), str(battle["defender_rounds"]))
    assert not page.locator("#watch-next").is_visible()
    _fits(page, PHONE)
    page.locator(".exact-fold summary").click()
    _fits(page, PHONE)
    assert serious_violations(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "watch-phone.png"), full_page=True)
    # by the keyboard: from the start, a round per Enter, each read out
    page.focus("#watch-again")
    page.keyboard.press("Enter")
    assert page.evaluate(SHOWN) == [0, False]
    assert page.evaluate("document.activeElement.id") == "watch-next"
    page.keyboard.press("Enter")
    assert page.evaluate(SHOWN) == [1, False]
    assert _said(page) == battle["rounds"][0]["said"]
    assert page.inner_text("#score-attacker") == str(
        int(battle["rounds"][0]["winner"] == "attacker"))
    # with reduced motion: nothing plays by itself, nothing moves
    page.emulate_media(reduced_motion="reduce")
    page.wait_for_selector("#watch-play", state="hidden")  # the page hears of it by an event
    page.keyboard.press("Enter")
    assert page.evaluate(SHOWN) == [2, False]
    assert page.evaluate("document.getAnimations().length") == 0
    assert _said(page) == battle["rounds"][1]["said"]
    # the skip goes straight to the result, with the focus on it
    page.focus("#watch-skip")
    page.keyboard.press("Enter")
    assert page.evaluate(SHOWN) == [5, True]
    assert page.evaluate("document.activeElement.id") == "result-title"
    page.context.close()
    wide = new_page(browser, DESKTOP)
    wide.goto(f"{server}/conquest/1/battles/{number}/watch?step=6")
    _fits(wide, DESKTOP)
    assert serious_violations(wide) == []
    wide.screenshot(path=str(SCREENSHOTS / "watch-desktop.png"), full_page=True)
    wide.context.close()


def test_without_a_script_each_round_is_a_step_and_the_episode_fits_a_phone(
        browser: Any, server: str, arranged: dict[str, object]) -> None:
    number = arranged["fan_clash_battle"]
    page = new_page(browser, PHONE, scripts=False)
    page.goto(f"{server}/conquest/1/battles/{number}")
    page.click("#watch-link")
    page.wait_for_url(re.compile(r"/watch$"))
    assert not page.locator("#watch-play").is_visible()
    for step in range(1, 7):
        page.click("#watch-next")
        page.wait_for_url(re.compile(rf"\?step={step}#step-{step}$"))
        assert page.evaluate(SHOWN) == [min(step, 5), step == 6]
    assert not page.locator("#watch-next").is_visible()
    _fits(page, PHONE)
    page.click("#full-record")
    page.wait_for_url(re.compile(rf"/battles/{number}$"))
    # the full record on a phone: the rounds stacked, the exact chances folded, nothing wider
    scrolled = page.evaluate("() => [...document.querySelectorAll('.table-wrap')]"
                             ".filter(w => w.scrollWidth > w.clientWidth)"
                             ".map(w => w.parentNode.id)")
    assert scrolled == []
    assert page.locator("table.rounds tbody tr").count() == 5
    page.locator(".exact-fold summary").click()
    assert page.locator(".exact-fold .fraction").first.is_visible()
    _fits(page, PHONE)
    page.context.close()
