"""A whole ballot game played in Debian's Chromium against three bots, to the final scores.

The service runs in this process on a free port with a throwaway SQLite database. Screenshots
of the board and of the filled declare form are kept in `test-artifacts/ballot/`.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ballot"
YEARS = 2
MOVES_AT_MOST = 400


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    import uvicorn

    from fairfight.web import WebSettings, create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join()


def test_a_full_game_against_three_bots_in_chromium(server: str) -> None:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.set_default_timeout(BROWSER_WAIT_MS)
        page.goto(f"{server}/ballot")
        page.select_option("select[name=victory]", "points")
        page.select_option("select[name=seat]", "1")
        page.fill("input[name=years]", str(YEARS))
        page.click("text=Start the game")
        page.locator("#board").screenshot(path=str(ARTIFACTS / "board.png"))
        assert page.locator("li.state").count() == 50
        declared = False
        for _ in range(MOVES_AT_MOST):
            if page.locator("#final").count():
                break
            phase = page.locator("#asked h2").inner_text()
            if "(declare)" in phase and not declared:
                first = page.locator("table.odds tbody tr").first.locator("td")
                race, card, party = (first.nth(n).inner_text() for n in range(3))
                page.fill("input[name=race_0]", race)
                page.select_option("select[name=card_0]", card.lstrip("#"))
                page.select_option("select[name=party_0]", party)
                page.locator("#asked").screenshot(path=str(ARTIFACTS / "declare-form.png"))
                declared = True
            elif "(discard)" in phase:
                prompt = page.locator("#asked").inner_text()
                need = int(re.search(r"discard (\d+) cards", prompt).group(1))  # type: ignore[union-attr]
                boxes = page.locator("input[name=discard]")
                for n in range(need):
                    boxes.nth(n).check()
            elif "(author)" in phase:
                page.check("input[name=decline]")
            elif "(amend-propose)" in phase:
                page.check("input[name=pass]")
            page.click("#submit-move")
            assert page.locator("#confirm").count() == 1, page.content()[:2000]
            page.click("#commit")
        assert page.locator("#final").count() == 1
        assert declared
        scores = page.locator("#scores tbody tr")
        assert scores.count() == 4
        assert "winner" in page.locator("#scores").inner_text()
        page.locator("#board").screenshot(path=str(ARTIFACTS / "board-final.png"))
        page.click("text=Replay it")
        assert "Record verified" in page.locator("#verdict").inner_text()
        browser.close()
    assert (ARTIFACTS / "board.png").stat().st_size > 0
    assert (ARTIFACTS / "declare-form.png").stat().st_size > 0
