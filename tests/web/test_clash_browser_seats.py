"""Two people play Crossing against each other in a real browser (two browser contexts):
three turns with a move, a bombardment, an assault and a stance change, each seeing only
its own view, and a restart of the service in the middle of the game that keeps it.

Screenshots at 1280 and 390 px go to test-artifacts/; every page checked with axe-core.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from fairfight.web import WebSettings, create_app
from tests.accessibility import assert_accessible
from tests.web.chromium_session import revisit, visit
from tests.web.test_clash_seats import CROSSING
from tests.web.test_warscore_browser import (  # one browser recipe for every page
    ARTIFACTS,
    DESKTOP,
    PHONE,
    browser,
    free_port,
)

__all__ = ["browser"]


class Service:
    """A uvicorn server in a thread on a clash database file; `restart` starts a fresh app."""

    def __init__(self) -> None:
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.base = ""

    def start(self) -> None:
        port = free_port()
        config = uvicorn.Config(create_app(WebSettings(database_url="sqlite://")),
                                host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)
        self.base = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        for hook in self.server.config.app.state.exit_hooks:   # as `fairfight serve` does
            hook()
        self.server.should_exit = True
        self.thread.join()


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    monkeypatch.setenv("FAIRFIGHT_CLASH_DATABASE_URL", f"sqlite:///{tmp_path / 'clash.db'}")
    running = Service()
    running.start()
    yield running
    running.stop()


def new_table(base: str) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/clash/tables", data=json.dumps({"scenario_data": CROSSING}).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        table: dict[str, Any] = json.loads(answer.read())
        return table


def shots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / f"{name}-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    page.set_viewport_size(DESKTOP)


def commit(page: Any) -> None:
    submit(page, "#commit")


def submit(page: Any, button: str) -> None:
    """Press a form's button and wait for the page it loads: a click does not wait for the
    navigation it starts, and the next click could land on the page being left."""
    with page.expect_navigation():
        page.click(button)


def choose(page: Any, unit: str) -> None:
    """Select one of the seat's units and wait until the board shows it selected: the board
    swaps pages in place, and a click made before the swap ends is answered by a page that
    forgot the selection (a newer click wins over an older one still loading)."""
    page.click(f"g.cb-unit[data-unit='{unit}']")
    page.wait_for_selector(f"g.cb-unit.selected[data-unit='{unit}']")


def test_two_people_play_three_turns(browser: Any, service: Service) -> None:
    table = new_table(service.base)
    game = table["game"]
    # axe-core is added as a script tag, which the pages' CSP would refuse
    blue_context = browser.new_context(bypass_csp=True)
    red_context = browser.new_context(bypass_csp=True)
    blue, red = blue_context.new_page(), red_context.new_page()
    visit(blue, service.base + table["seats"]["blue"])
    visit(red, service.base + table["seats"]["red"])
    assert blue.url.endswith(f"/clash/play/{game}") and "token" not in blue.url
    # each sees only its view: blue not red's reserve, red not blue's rifles in the city
    assert "Red Reserve" not in blue.content() and "Blue Rifles" in blue.content()
    assert "Blue Rifles" not in red.content() and "Red Reserve" in red.content()
    assert_accessible(blue)

    # turn 1 — blue: the guns bombard red's front, the armour moves next to it; red: its
    # front changes Stance
    choose(blue, "b-guns")
    blue.click("#mode-bombard")
    assert "Range 2 (highlighted), shots left 1" in blue.inner_text("#bombard-range")
    blue.click("g.cb-unit[data-unit='r-front']")
    submit(blue, "#order-bombard")
    choose(blue, "b-tank")
    blue.click("#mode-move")
    blue.click("a.cb-target-link[href*='path=2%2C2']")
    steps = blue.inner_text("#path-steps")
    assert "(2,2) — 1 of 3 MP" in steps and "reaction possible: Red Front" in steps
    shots(blue, "clash-seat-move-path")
    assert_accessible(blue)
    submit(blue, "#order-move")
    assert "bombard (3,1)" in blue.inner_text("#activation")
    commit(blue)
    red = revisit(red, f"{service.base}/clash/play/{game}")   # a fresh page: no reload pending
    choose(red, "r-front")   # out of Hold: it will not react
    red.select_option("#stance-only", "advance")
    submit(red, "#order-stance")
    assert "b-guns" not in red.inner_text("#orders")   # red never sees blue's orders
    commit(red)
    red.wait_for_selector("#events")
    assert "bombarded" in red.inner_text("#events")
    shots(red, "clash-seat-turn-1-red")
    assert_accessible(red)

    # the service restarts in the middle of the game: both seats carry on
    service.stop()
    service.start()
    blue = revisit(blue, f"{service.base}/clash/play/{game}")
    red = revisit(red, f"{service.base}/clash/play/{game}")
    assert "turn 2" in blue.inner_text("h1") and "turn 2" in red.inner_text("h1")

    # turn 2 — blue's armour assaults red's front from the panel
    choose(blue, "b-tank")
    blue.click("g.cb-unit[data-unit='r-front']")
    blue.wait_for_selector("#attack-panel")
    shots(blue, "clash-seat-attack-panel")
    assert_accessible(blue)
    submit(blue, "#order-attack")
    assert "assault" in blue.inner_text("#activation")
    commit(blue)
    red = revisit(red, f"{service.base}/clash/play/{game}")
    commit(red)
    red.wait_for_selector("#events")
    assert "assaulted" in red.inner_text("#events")

    # turn 3 — stance changes on both sides, then the turn's log as each saw it
    blue = revisit(blue, f"{service.base}/clash/play/{game}?select=b-rifles")
    blue.select_option("#stance-only", "entrench")
    submit(blue, "#order-stance")
    commit(blue)
    red = revisit(red, f"{service.base}/clash/play/{game}?select=r-reserve")
    red.select_option("#stance-only", "hold")
    submit(red, "#order-stance")
    commit(red)
    blue = revisit(blue, f"{service.base}/clash/play/{game}")
    assert "turn 4" in blue.inner_text("h1")
    assert "Red Reserve" not in blue.content() and "r-reserve" not in blue.content()
    visit(blue, f"{service.base}/clash/play/{game}?turn=3")   # loaded after the turn ran
    assert "Blue Rifles: stance entrench" in blue.inner_text("#events")
    assert "Red Reserve" not in blue.inner_text("#events")   # red's orders stay red's
    shots(blue, "clash-seat-turn-3-blue")
    blue_context.close()
    red_context.close()


def test_hot_seat_hands_the_screen_over(browser: Any, service: Service) -> None:
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    visit(page, f"{service.base}/clash")
    page.check("#new-table input[name=scenario][value=belvoir-wood]")
    page.check("#new-table input[name=mode][value=hotseat]")
    submit(page, "#new-table button[type=submit]")
    assert "Hand over to blue" in page.inner_text("#handover")
    assert page.locator("svg.cb-board").count() == 0
    assert_accessible(page)
    submit(page, "#take-seat")
    choose(page, "battery-1")
    page.select_option("#stance-only", "entrench")
    submit(page, "#order-stance")
    assert "1st Field Bty" in page.inner_text("#activation")
    commit(page)
    assert "Hand over to red" in page.inner_text("#handover")
    assert "1st Field Bty" not in page.content() and "battery-1" not in page.content()
    shots(page, "clash-hotseat-handover")
    submit(page, "#take-seat")
    assert "you play red" in page.inner_text("h1")
    assert "entrench" not in page.inner_text("#orders")
    assert_accessible(page)
    context.close()


def test_a_waiting_page_reloads_when_the_other_side_commits(browser: Any,
                                                            service: Service) -> None:
    table = new_table(service.base)
    blue_context, red_context = browser.new_context(), browser.new_context()
    blue, red = blue_context.new_page(), red_context.new_page()
    visit(blue, service.base + table["seats"]["blue"])
    visit(red, service.base + table["seats"]["red"])
    commit(blue)
    assert "blue: ✓ committed" in blue.inner_text("#commit-state")
    red.wait_for_function("() => document.readyState === 'complete'")
    commit(red)
    blue.wait_for_selector("text=turn 2", timeout=15_000)   # reloaded by its live stream
    blue_context.close()
    red_context.close()
