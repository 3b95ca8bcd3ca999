"""The war score builder in a real browser (Debian's Chromium through Playwright).

Fills the form by hand with the source's demonstration battle and expects its published
result (112.50 / 175.53, 156 %, Operational Victory); refuses Extra-Human Plate on a human
army beside the field. Screenshots go to test-artifacts/ (kept out of version control).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from fairfight.web import WebSettings, create_app
from tests.system import CHROMIUM_ARGS, chromium_path, playwright_api

ARTIFACTS = Path(__file__).parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(create_app(WebSettings(database_url="sqlite://")),
                            host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    sync_api = playwright_api()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def watch_errors(page: Any) -> list[str]:
    """Collect script errors and console errors (a CSP refusal shows up there)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "status of 404" not in message.text else None)
    page.on("response", lambda response: errors.append(f"{response.status} {response.url}")
            if response.status == 404 and not response.url.endswith("/favicon.ico") else None)
    return errors


def fill_demonstration(page: Any) -> None:
    """The demonstration battle, typed in field by field as a game master would."""
    page.fill("#f-battle", "Demonstration battle")
    page.fill("#f-year", "3019")
    page.select_option("#f-kind", "land")
    page.fill("#f-attacker-nation", "Mordor")
    page.fill("#f-attacker-troops", "100000")
    page.select_option("#f-attacker-support-race", "orc")
    page.check("#army-attacker input[name='attacker.support.special_units'][value='trolls']")
    page.select_option("#f-attacker-morale-nws", "less")
    page.select_option("#f-attacker-morale-numbers", "heavily-outnumbering")
    page.select_option("#f-attacker-morale-previous", "fresh")
    page.select_option("#f-attacker-technology-armor", "light")
    page.select_option("#f-attacker-technology-weapons", "poorly-made")
    page.fill("#f-defender-nation", "Gondor")
    page.fill("#f-defender-troops", "43142")
    page.select_option("#f-defender-support-race", "human")
    page.check("#army-defender input[name='defender.support.special_units'][value='wizard']")
    page.select_option("#f-defender-support-ballista", "moderate")
    page.select_option("#f-defender-support-cavalry", "moderate")
    page.select_option("#f-defender-morale-nws", "greater")
    page.select_option("#f-defender-morale-numbers", "heavily-outnumbered")
    page.select_option("#f-defender-morale-previous", "recently-victorious")
    page.check("#army-defender input[name='defender.morale.specials'][value='great-leader']")
    page.fill("#f-defender-morale-approved_by", "Moderator")
    page.select_option("#f-defender-defensives", "small-fort")
    page.select_option("#f-defender-technology-armor", "partial-plate")
    page.select_option("#f-defender-technology-weapons", "well-made")


def test_demonstration_battle_typed_into_the_form(browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    errors = watch_errors(page)
    page.goto(f"{base_url}/warscore")
    fill_demonstration(page)
    page.wait_for_selector("#live-status:has-text('accepted')")
    page.wait_for_selector("td.total[data-side='defender']")
    assert page.inner_text("td.total[data-side='attacker']") == "112.50"
    assert page.inner_text("td.total[data-side='defender']") == "175.53"
    verdict = page.inner_text("#verdict")
    assert "156%" in verdict and "Operational Victory for Gondor" in verdict
    assert "Result: 156% Operational Victory" in page.input_value("#post-text")
    assert "[list]" in page.input_value("#post-bbcode")
    assert page.is_visible("button.copy[data-copy='post-bbcode']")
    shot(page, "warscore-demonstration-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "warscore-demonstration-phone")
    page.locator("#result").screenshot(path=str(ARTIFACTS / "warscore-result-phone.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways on a phone"
    assert not errors, errors
    page.close()


def test_extra_human_plate_on_humans_is_refused_beside_the_field(
        browser: Any, base_url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base_url}/warscore?example=demonstration")
    page.select_option("#f-defender-technology-armor", "extra-human-plate")
    slot = "[data-error-for='defender.technology.armor']"
    page.wait_for_selector(f"{slot}:has-text('extra-human plate')")
    assert "dwarf or uruk-hai" in page.inner_text(slot)
    assert page.get_attribute("#f-defender-technology-armor", "aria-invalid") == "true"
    assert page.inner_text("#live-status").startswith("✗")
    page.locator(slot).scroll_into_view_if_needed()
    shot(page, "warscore-extra-human-plate-refused")
    page.close()


def test_form_works_without_javascript(browser: Any, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{base_url}/warscore")
    fill_demonstration(page)
    page.click("button[type=submit]:has-text('Score the battle')")
    assert page.inner_text("td.total[data-side='defender']") == "175.53"
    assert not page.is_visible("button.copy")  # copying needs JavaScript; the text is there
    shot(page, "warscore-no-javascript-phone")
    context.close()
