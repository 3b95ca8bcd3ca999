"""The threat view and plan odds in a real browser, in one walk: blue opens its seat on
Crossing, shows the threats (heat marks on its own tiles and the table), writes an assault
and counts the plan's odds; both sections fit 390 px and pass axe-core.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accessibility import assert_accessible
from tests.web.chromium_session import visit
from tests.web.test_clash_browser_seats import Service, new_table, shots
from tests.web.test_warscore_browser import browser

__all__ = ["browser"]


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    monkeypatch.setenv("FAIRFIGHT_CLASH_DATABASE_URL", f"sqlite:///{tmp_path / 'clash.db'}")
    running = Service()
    running.start()
    yield running
    running.stop()


def test_threats_and_plan_odds_on_the_play_page(browser: Any, service: Service) -> None:
    table = new_table(service.base)
    game = table["game"]
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    visit(page, service.base + table["seats"]["blue"])
    page.click("#threats-toggle")
    page.wait_for_selector("#threat-table")
    rows = page.inner_text("#threat-table")
    assert "Red Front" in rows and "Red Reserve" not in rows
    marks = page.locator("g.cb-threat")
    assert marks.count() == 2   # the guns' and the armour's tiles, each with its label
    label = marks.first.text_content() or ""
    assert "⚔" in label and "‰" in label
    shots(page, "clash-threats")
    assert_accessible(page)
    answer = page.request.post(f"{service.base}/api/clash/play/{game}/orders", data={
        "turn": 1, "unit": "b-tank", "orders": {"stance": "advance", "actions": [
            {"do": "move", "path": [[2, 2]]}, {"do": "assault", "target": [3, 1]}]}})
    assert answer.ok, answer.text()
    visit(page, f"{service.base}/clash/play/{game}")
    page.click("#odds-toggle")
    page.wait_for_selector("#odds-objectives")
    assert "(3,1)" in page.inner_text("#odds-objectives")
    assert "Blue Armour" in page.inner_text("#odds-survival")
    shots(page, "clash-plan-odds")
    assert_accessible(page)
    context.close()
