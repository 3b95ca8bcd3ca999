"""Games that end, in a real browser: an online game played to the last unit (both seats see
the winner, the commit button is gone, the replay is linked, the waiting seat learns it from
the live stream), a resignation behind its confirmation box, and a hot-seat game to the end.
Each on Last Stand, one assault from the end, so each walk is short."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.accessibility import assert_accessible
from tests.system import BROWSER_WAIT_MS
from tests.web.chromium_session import revisit, visit
from tests.web.test_clash_browser_seats import Service, choose, commit, service, shots, submit
from tests.web.test_clash_end import LAST_STAND, WITH_RESERVE
from tests.web.test_warscore_browser import browser

__all__ = ["browser", "service"]


def _quick_stream(service: Service) -> None:
    """The waiting page hears of the end within a fifth of a second, not a second."""
    assert service.server is not None
    service.server.config.app.state.clash.stream_poll_seconds = 0.2


def _table(base: str, scenario: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/clash/tables", data=json.dumps({"scenario_data": scenario}).encode(),
        headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        table: dict[str, Any] = json.loads(answer.read())
        return table


def _order_the_last_assault(page: Any) -> None:
    choose(page, "b-tank")
    page.click("g.cb-unit[data-unit='r-last']")
    page.wait_for_selector("#attack-panel")
    submit(page, "#order-attack")
    commit(page)


def _context(browser: Any) -> Any:
    """A context for one player, its CSP bypassed for axe-core, waiting as long as the suite's
    other browser tests do: a turn run on a busy machine (the first one compiles the preview
    kernel) can take longer than Playwright's 30 s default."""
    context = browser.new_context(bypass_csp=True)
    context.set_default_timeout(BROWSER_WAIT_MS)
    return context


def _assert_over(page: Any, words: str) -> None:
    assert words in page.inner_text("#result-words")
    assert page.locator("#commit").count() == 0 and page.locator("#resign").count() == 0


def test_an_online_game_is_played_to_the_end_on_both_sides(browser: Any,
                                                           service: Service) -> None:
    _quick_stream(service)
    table = _table(service.base, LAST_STAND)
    game = table["game"]
    contexts = [_context(browser) for _ in range(2)]
    blue, red = (context.new_page() for context in contexts)
    visit(blue, service.base + table["seats"]["blue"])
    visit(red, service.base + table["seats"]["red"])
    _order_the_last_assault(blue)
    assert "✓ Your orders are committed" in blue.inner_text("#orders")
    # red's page reloads on the news of blue's orders whenever that news comes: a fresh page,
    # loaded after them, has nothing to reload for while red commits
    red = revisit(red, service.base + table["seats"]["red"])
    commit(red)   # the turn runs: red's page shows the turn as red saw it
    red.wait_for_selector("#result")
    _assert_over(red, "blue wins: red has no unit left on the board")
    blue.wait_for_selector("#result")   # blue's page reloads on the live stream's news
    _assert_over(blue, "Game over after turn 1: blue wins")
    summary = blue.inner_text("#result-summary")
    assert "turns played: 1" in summary and "blue (winner)" in summary
    shots(blue, "clash-game-over-blue")
    red.click("#replay-link")
    assert red.url.endswith(f"/clash/replay/{game}") and "blue wins" in red.inner_text("#result")
    assert_accessible(blue)   # last: it skips where axe-core is not installed
    for context in contexts:
        context.close()


def test_a_resignation_needs_its_box_ticked(browser: Any, service: Service) -> None:
    _quick_stream(service)
    table = _table(service.base, WITH_RESERVE)
    contexts = [_context(browser) for _ in range(2)]
    blue, red = (context.new_page() for context in contexts)
    visit(blue, service.base + table["seats"]["blue"])
    visit(red, service.base + table["seats"]["red"])
    red.click("#resign")   # the box is not ticked: the browser keeps the form back
    assert red.locator("#result").count() == 0
    red.check("#resign-confirm")
    red.click("#resign")
    red.wait_for_selector("#result")
    _assert_over(red, "blue wins: red resigned")
    blue.wait_for_selector("#result")
    _assert_over(blue, "blue wins: red resigned")
    for context in contexts:
        context.close()


def test_a_hot_seat_game_is_played_to_the_end(browser: Any, service: Service) -> None:
    context = _context(browser)
    made = context.request.post(f"{service.base}/api/clash/tables",
                                data={"scenario_data": LAST_STAND, "mode": "hotseat"})
    game = made.json()["game"]          # the table's cookie is now this browser's
    page = context.new_page()
    visit(page, f"{service.base}/clash/play/{game}")
    submit(page, "#take-seat")
    _order_the_last_assault(page)
    assert "Hand over to red" in page.inner_text("#handover")
    submit(page, "#take-seat")
    commit(page)
    _assert_over(page, "blue wins: red has no unit left on the board")
    assert page.locator("svg.cb-board").count() == 0 and page.locator("#take-seat").count() == 0
    shots(page, "clash-hotseat-game-over")
    page.click("#replay-link")
    assert "blue wins" in page.inner_text("#result")
    context.close()
