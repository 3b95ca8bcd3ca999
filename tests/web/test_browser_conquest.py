"""The show in a real browser: Playwright driving Debian's Chromium against a live server.

Each test serves its own copy of the demo season (built once per session: six battles, a FAN
CLASH in battle 2, a rebellion waiting) with uvicorn on a free loopback port, then asserts what a
person sees. Screenshots of every page, at a phone width and a desktop width, are kept under
test-artifacts/browser/ (ignored by git).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api
from tests.web.conquest_support import ADMIN_TOKEN, copy_season, live_server, make_app

sync_api = playwright_api()

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PHONE, DESKTOP = 390, 1280
PAGES = {
    "front": "/",
    "seasons": "/conquest",
    "home": "/conquest/1",
    "battles": "/conquest/1/battles",
    "episode-fan-clash": "/conquest/1/battles/2",
    "faction": "/conquest/1/factions/SX",
    "rules": "/conquest/rules",
    "verify": "/conquest/1/verify",
    "operator": "/conquest/operator",
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def served(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[Any]:
    """A live server over a private copy of the demo season: (base URL, app)."""
    app = make_app(copy_season(demo_master[0], tmp_path))
    with live_server(app) as base:
        yield base, app


@pytest.fixture
def server(served: tuple[str, Any]) -> str:
    return str(served[0])


def _page(browser: Any, width: int = DESKTOP, *, scripts: bool = True) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  java_script_enabled=scripts)
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT_MS)
    return page


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _ledger(base: str, faction: str) -> list[int]:
    rows = httpx.get(f"{base}/api/seasons/1/ledger", params={"per_page": 100}).json()["entries"]
    return [row["amount"] for row in rows if row["faction"] == faction]


def _open_pool(base: str) -> str:
    """A standing faction whose pool is empty and open, and that is not about to fight."""
    for row in httpx.get(f"{base}/api/seasons/1/standings").json():
        if row["standing"] and row["pool"] == 0 and row["holdings"] == 1:
            return str(row["faction"])
    raise AssertionError("the demo season has no faction with an empty open pool")


def test_the_home_page_shows_standings_and_the_map(browser: Any, server: str) -> None:
    page = _page(browser)
    page.goto(f"{server}/conquest/1")
    rows = httpx.get(f"{server}/api/seasons/1/standings").json()
    standings = page.locator("#standings tbody tr")
    assert not standings.first.is_visible()  # the full table is behind "show all"
    page.locator("#show-all > summary").click()
    assert standings.count() == len(rows) > 100
    for index in (0, len(rows) - 1):
        cells = standings.nth(index).locator("td")
        assert cells.nth(0).inner_text().startswith(rows[index]["name"])
        assert cells.nth(1).inner_text().strip() == str(rows[index]["holdings"])
        assert cells.nth(2).inner_text().strip() == f"{rows[index]['people']:,}"
    assert page.locator("#map-title").inner_text() == "Map after battle 6"
    regions = page.locator("#map svg.conquest-map a.map-region")
    assert len(set(regions.evaluate_all("links => links.map(a => a.dataset.region)"))) == 136
    box = page.locator("#map svg.conquest-map").bounding_box()
    assert box is not None and box["width"] > 900 and box["height"] > 800
    texas = page.locator('#map a[data-region="US-TX"]').first
    assert texas.locator("title").text_content() == "Texas (US-TX): held by Texas"
    assert page.locator("#map .map-legend li").count() >= 2
    _shot(page, "home-desktop")
    texas.click()
    page.wait_for_url(re.compile(r"/conquest/1/factions/US-TX$"))
    assert page.locator("h1").inner_text().startswith("Texas")
    # A speck of an island is still there to see and to click: its marker.
    page.go_back()
    marker = page.locator('#map a[data-region="BM"] circle.marker').first
    box = marker.bounding_box()
    assert box is not None and box["width"] >= 5
    marker.click()
    page.wait_for_url(re.compile(r"/conquest/1/factions/BM$"))
    page.context.close()


def test_an_episode_shows_the_odds_before_and_after_and_the_fan_clash(
    browser: Any, server: str, arranged: dict[str, object]
) -> None:
    number = arranged["fan_clash_battle"]
    battle = httpx.get(f"{server}/api/seasons/1/battles/{number}").json()
    assert battle["reason"] == "FAN CLASH"
    page = _page(browser)
    page.goto(f"{server}/conquest/1/battles/{number}")
    assert page.locator("#banners .banner", has_text="FAN CLASH").is_visible()
    for which in ("before", "after"):
        figure = page.locator(f"#odds-{which}")
        assert figure.is_visible()
        permille = int(figure.get_attribute("data-permille") or "-1")
        assert permille == battle["odds"][f"{which}_permille"]
        bar = figure.locator("rect.att").bounding_box()
        whole = figure.locator("svg").bounding_box()
        assert bar is not None and whole is not None
        assert abs(bar["width"] / whole["width"] - permille / 1000) < 0.01
        assert battle["odds"][f"{which}_text"] in figure.inner_text()
    assert page.locator("#odds .clash").is_visible()
    moved = page.locator("#map svg.conquest-map a.map-region.changed")
    assert set(moved.evaluate_all("links => links.map(a => a.dataset.region)")) == set(
        battle["changed_hands"])
    _shot(page, "episode-fan-clash-desktop")
    page.context.close()


@pytest.mark.parametrize("scripts", [True, False], ids=["with-script", "without-script"])
def test_a_fan_adds_25_by_the_form_and_a_double_click_records_it_once(
    browser: Any, server: str, scripts: bool
) -> None:
    faction = _open_pool(server)
    before = _ledger(server, faction)
    page = _page(browser, PHONE, scripts=scripts)
    page.goto(f"{server}/conquest/1/factions/{faction}")
    assert page.locator("#pool-amount").inner_text() == "$0"
    page.select_option("#amount", "25")
    page.locator("#contribute-button").dblclick()
    # Without a script both clicks post the form: the first page load is cut off by the
    # second, so wait for where the browser ends up rather than for one navigation.
    sync_api.expect(page).to_have_url(re.compile(rf"/factions/{faction}\?added="),
                                      timeout=BROWSER_WAIT_MS)
    page.wait_for_load_state()
    assert page.locator("#pool-amount").inner_text() == "$25"
    assert page.locator("#contribution-recorded").is_visible()
    assert _ledger(server, faction) == [*before, 25]
    _shot(page, f"contribution-phone-{'script' if scripts else 'no-script'}")
    page.context.close()


def test_the_same_rendered_form_sent_twice_at_once_records_once(
    browser: Any, server: str
) -> None:
    """A double click that gets through (two posts of one form, same key) adds $25 once."""
    faction = _open_pool(server)
    page = _page(browser)
    page.goto(f"{server}/conquest/1/factions/{faction}")
    page.select_option("#amount", "25")
    statuses = page.evaluate(
        """() => {
          const form = document.getElementById('contribute-form');
          const send = () => fetch(form.action, {method: 'POST', body: new FormData(form)})
            .then(r => r.status);
          return Promise.all([send(), send()]);
        }"""
    )
    assert 200 in statuses and set(statuses) <= {200, 409}, statuses
    assert _ledger(server, faction) == [25]
    page.reload()
    assert page.locator("#pool-amount").inner_text() == "$25"
    page.context.close()


def test_the_operator_airs_a_battle_and_an_open_home_page_updates_itself(
    browser: Any, served: tuple[str, Any]
) -> None:
    server, app = served
    page = _page(browser)
    page.goto(f"{server}/conquest/1")
    assert page.locator("#map-title").inner_text() == "Map after battle 6"
    assert page.locator("#latest li").count() == 6
    # The page listens once its event stream is open: wait until the server counts it.
    give_up = time.monotonic() + BROWSER_WAIT_MS / 1000
    while app.state.conquest.live.clients() < 1:
        assert time.monotonic() < give_up, "the page never opened its event stream"
        time.sleep(0.05)
    response = httpx.post(f"{server}/api/seasons/1/operator/air", json={"count": 1},
                          headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=30)
    assert response.status_code == 200, response.text
    aired = response.json()["battles"][0]
    status = page.locator("#live-status")
    status.wait_for(state="visible")
    assert f"Battle {aired['number']} has aired" in status.inner_text()
    page.locator("#map-title", has_text=f"Map after battle {aired['number']}").wait_for()
    moved = httpx.get(f"{server}/api/seasons/1/battles/{aired['number']}").json()["changed_hands"]
    outlined = page.locator("#map svg.conquest-map a.map-region.changed:not([tabindex])")
    assert sorted(outlined.evaluate_all("links => links.map(a => a.dataset.region)")) == sorted(
        moved)
    assert page.locator("#latest li").count() == 7
    assert page.locator("#latest li").first.get_attribute("data-number") == str(aired["number"])
    assert page.locator("#latest-episode").inner_text().startswith(f"Battle {aired['number']}:")
    _shot(page, "home-after-live-update-desktop")
    page.context.close()


@pytest.mark.parametrize("width", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_fits_the_screen_and_is_kept_as_a_screenshot(
    browser: Any, server: str, width: int
) -> None:
    """Nothing but scrolling tables sticks out sideways, at a phone's width or a desktop's."""
    page = _page(browser, width)
    for name, path in PAGES.items():
        response = page.goto(f"{server}{path}")
        assert response is not None and response.status == 200, path
        wide = page.evaluate(
            "() => [...document.querySelectorAll('body *')].filter(e =>"
            " e.getBoundingClientRect().right > window.innerWidth + 1"
            " && !e.closest('.table-wrap, pre')).map(e => e.tagName + '.' + e.className)"
        )
        assert wide == [], f"{path} at {width}px: {wide[:5]}"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        # Every table shows as many header cells as cells in its rows (none hidden on one side).
        shown = page.evaluate(
            "() => [...document.querySelectorAll('table')].filter(t => t.tHead && t.tBodies[0]"
            " && t.tBodies[0].rows[0]).map(t => [t.tHead.rows[0], t.tBodies[0].rows[0]].map("
            "r => [...r.cells].filter(c => c.getClientRects().length > 0).length))"
        )
        assert all(head == body for head, body in shown), f"{path} at {width}px: {shown}"
        if name == "home" and width == PHONE:
            page.locator("#show-all > summary").click()  # the full standings are folded
            fits = page.evaluate("() => { const w = document.querySelector('#standings "
                                 ".table-wrap'); return w.scrollWidth <= w.clientWidth; }")
            assert fits, "the standings need sideways scrolling on a phone"
        _shot(page, f"{name}-{'phone' if width == PHONE else 'desktop'}")
    page.context.close()
