"""A stored war in Debian's Chromium: the moderator creates a two-nation war and opens a
battle, each nation sends and seals its sheet from a browser context of its own without ever
seeing the other's, the result page appears with both sheets and the posts, and the re-run in
the browser matches the published figures.

The service runs in this process on a free port with a throwaway SQLite database. Screenshots
are kept in `test-artifacts/warscore/`.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.warscore.war_sheets import GONDOR, GONDOR_TOTAL, MORDOR, MORDOR_TOTAL
from tests.web.chromium_session import launched_chromium, new_page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "warscore"


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    import uvicorn

    from fairfight.web import WebSettings, create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=2)
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join()


def send_sheet(page: Any, link: str, sheet: str, secret_of_other: str, me: int) -> None:
    """Follow the nation's link, send the sheet from the form, and check the other is hidden."""
    page.goto(link)
    assert secret_of_other not in page.content()
    page.locator("textarea[name=sheet]").fill(sheet)
    page.locator("button.send-sheet").click()
    page.wait_for_load_state()
    assert page.locator(f"#sheet-1-{me} .sheet-state").inner_text() == "submitted"
    assert secret_of_other not in page.content()


def test_a_two_nation_war_in_chromium(server: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with launched_chromium() as browser:
        moderator, mordor, gondor = (new_page(browser, 1280) for _ in range(3))
        moderator.goto(f"{server}/warscore/wars")
        moderator.fill("#war-moderator", "Saruman")
        moderator.click("#create-war")
        links = {code.get_attribute("data-nation"): code.inner_text()
                 for code in moderator.locator("code.nation-link").all()}
        assert set(links) == {"Mordor", "Gondor"}
        moderator.click("#to-war")
        moderator.fill("#round-battle", "Pelennor Fields")
        moderator.click("#open-round-button")
        assert "Pelennor Fields" in moderator.locator("#round-1 h2").inner_text()

        send_sheet(mordor, links["Mordor"], MORDOR, "Garrison of Gondor", 0)
        mordor.locator("button.seal-sheet").click()
        mordor.wait_for_load_state()
        send_sheet(gondor, links["Gondor"], GONDOR, "Host of Mordor", 1)
        assert "Host of Mordor" not in gondor.content()  # sealed, yet still hidden from Gondor
        gondor.locator("button.seal-sheet").click()  # the great leader is not approved yet
        assert "approval" in gondor.content()
        gondor.screenshot(path=str(ARTIFACTS / "refused-before-approval.png"))

        moderator.reload()
        assert "Host of Mordor" in moderator.content()  # the moderator reads both
        moderator.locator("#sheet-1-1 button.approve").click()
        moderator.wait_for_load_state()
        gondor.goto(links["Gondor"])
        gondor.locator("button.seal-sheet").click()
        gondor.wait_for_load_state()
        gondor.locator("#result-1").click()
        gondor.wait_for_load_state()
        assert re.search(r"/warscore/r/[0-9a-f]{64}$", gondor.url)
        content = gondor.content()
        assert "Host of Mordor" in content and "Garrison of Gondor" in content
        assert MORDOR_TOTAL in content and GONDOR_TOTAL in content
        assert "[url=" in gondor.locator("#post-bbcode").input_value()
        digest = gondor.url.rsplit("/", 1)[1]
        assert digest in gondor.locator("#post-text").input_value()

        mordor.goto(gondor.url)
        mordor.click("#rerun-button")
        verdict = mordor.locator("#rerun-verdict")
        verdict.filter(has_text="Re-run").wait_for()
        mordor.wait_for_function(
            "() => document.getElementById('rerun-verdict').className.startsWith('rerun-')")
        assert verdict.get_attribute("class") == "rerun-match", mordor.locator(
            "#rerun-checks").inner_text()
        assert mordor.locator(".rerun-fail").count() == 0
        assert mordor.locator(".rerun-ok").count() >= 15
        mordor.screenshot(path=str(ARTIFACTS / "result-rerun.png"), full_page=True)


def test_a_year_round_re_runs_in_chromium(server: str) -> None:
    import httpx

    from tests.warscore.war_sheets import GONDOR_NWS, MORDOR_NWS, SETUP, YEAR

    with httpx.Client(base_url=server) as http:
        created = http.post("/api/warscore/wars", json=SETUP).json()
        moderator = created["moderator_link"].split("token=")[1]
        war_id = created["id"]
        http.post(f"/api/warscore/wars/{war_id}/rounds", json=YEAR,
                  headers={"X-Moderator-Token": moderator})
        digest = None
        for index, (name, sheet) in enumerate((("Mordor", MORDOR_NWS), ("Gondor", GONDOR_NWS))):
            token = {"X-Nation-Token": created["nation_links"][name].split("token=")[1]}
            url = f"/api/warscore/wars/{war_id}/rounds/1/sheets/{index}"
            http.put(url, json={"sheet": sheet}, headers=token)
            digest = http.post(url + "/seal", headers=token).json()["digest"]
    assert digest is not None
    with launched_chromium() as browser:
        page = new_page(browser, 1280)
        page.goto(f"{server}/warscore/r/{digest}")
        assert "Total: 85" in page.locator("#figures-text").inner_text()
        page.click("#rerun-button")
        page.wait_for_function(
            "() => document.getElementById('rerun-verdict').className.startsWith('rerun-')")
        assert page.locator("#rerun-verdict").get_attribute("class") == "rerun-match"
        assert page.locator(".rerun-ok").count() == 4  # two sheets, two NWS totals
