"""A ballot table played in Debian's Chromium by three people (three browser contexts) and a
bot, a one-year game (the presidential year, declarations included) to the final scores, by
clicking only (one of the people on a 390 px phone, never scrolling sideways on any page it
is shown, asked, waiting, reviewing an answer or at the end; every question any person is
asked is also seen at 390 px): each
person sees only their own hand, a spectator none, a page updates live when another person
moves (and a background tab shows "your turn"), a seat rejoins from another browser with its
link, and the seat page fits a 390 px phone.

The service runs in this process on a free port with a throwaway SQLite database. Screenshots
at 390 and 1280 px are kept in `test-artifacts/ballot/`.
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

from fairfight.ballot.deck import build_cards
from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api
from tests.web.chromium_session import visit

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ballot"
YEARS = 1
"""One year: a second repeats the same pages in the browser; a two-year table through every
page, API route and stream, from each seat, is the crawl of tests/ballot/test_tables_privacy.py."""
ROUNDS_AT_MOST = 400
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NOTIFICATION_STUB = """
Object.defineProperty(document, "hidden", { get: () => true });
window.Notification = function (title) { sessionStorage.setItem("notified", title); };
window.Notification.permission = "granted";
window.Notification.requestPermission = () => Promise.resolve("granted");
"""
"""A tab in the background whose person allowed notifications; each one shown is remembered."""


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    import uvicorn

    from fairfight.web import WebSettings, create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}"))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    running.should_exit = True
    thread.join()


def other_hands(app: Any, table: str, me: int) -> list[str]:
    row = app.state.ballot_store.load(table)
    game = row.game()
    cards = build_cards(row.key)
    return [
        cards[card].label()
        for seat, hand in enumerate(game.state.hands)
        if seat != me
        for card in hand
    ]


def answer(page: Any) -> None:
    """Fill in the simplest legal answer to what the page asks, review it and confirm it."""
    phase = page.locator("#asked h2").inner_text()
    if "(discard)" in phase:
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
    page.wait_for_selector("#confirm")
    if page.viewport_size["width"] <= PHONE["width"]:  # the review fits a phone too
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the review of {phase} is {width} px wide at 390 px"
    page.click("#commit")
    page.wait_for_selector("#seats")


def test_three_people_and_a_bot_play_a_year_in_chromium(server: tuple[str, Any]) -> None:
    base, app = server
    executable = chromium_path()
    sync_api = playwright_api()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        # seat 2 plays the whole game on a phone, by clicking as the others do
        people = [browser.new_context(viewport=size) for size in (DESKTOP, DESKTOP, PHONE)]
        pages = [context.new_page() for context in people]
        for page in pages:
            page.set_default_timeout(BROWSER_WAIT_MS)
        host = pages[0]
        host.goto(f"{base}/ballot")
        host.select_option("select[name=victory]", "points")
        host.fill("input[name=years]", str(YEARS))
        for seat, kind in enumerate(["human", "human", "human", "machine", "none"]):
            host.select_option(f"select[name=seat_{seat}]", kind)
        host.click("text=Create the table")
        links = [host.locator(f"code.invite[data-seat='{n}']").inner_text() for n in (1, 2)]
        table = links[0].split("/tables/")[1].split("/")[0]
        host.click("#to-seat")
        for page, link in zip(pages[1:], links, strict=True):
            page.goto(link)
        seat_urls = [f"{base}/ballot/tables/{table}/seats/{n}" for n in range(3)]
        assert "token=" not in pages[1].url
        watcher = browser.new_context().new_page()
        watcher.goto(f"{base}/ballot/tables/{table}")
        assert watcher.locator("#hand").count() == 0

        # A page updates by itself when the table moves on: seat 1 waits for seats 0 and 2,
        # its tab in the background with notifications allowed (the browser's own API stubbed).
        pages[1].add_init_script(NOTIFICATION_STUB)
        visit(pages[1], seat_urls[1])
        answer(pages[1])
        assert pages[1].locator("#answered").count() == 1
        for seat in (0, 2):
            visit(pages[seat], seat_urls[seat])
            answer(pages[seat])
        pages[1].wait_for_selector("#answered", state="detached")
        pages[1].wait_for_selector("#asked")   # the page reloads by itself: wait for the new one
        assert pages[1].locator("#asked").count() == 1
        told = pages[1].evaluate("sessionStorage.getItem('notified')")
        assert told == "Ballot: your turn"

        phone = browser.new_context()  # seat 1 rejoins from another device with its link
        elsewhere = phone.new_page()
        elsewhere.goto(links[0])
        visit(pages[1], seat_urls[1])
        assert elsewhere.locator("#hand").inner_text() == pages[1].locator("#hand").inner_text()
        phone.close()

        pages[0].set_viewport_size({"width": 390, "height": 844})
        visit(pages[0], seat_urls[0])
        pages[0].screenshot(path=str(ARTIFACTS / "table-390.png"), full_page=True)
        width = pages[0].evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the seat page is {width} px wide at 390 px"
        pages[0].set_viewport_size({"width": 1280, "height": 900})
        pages[0].screenshot(path=str(ARTIFACTS / "table-1280.png"), full_page=True)

        declare_seen = declared = False
        folds = 0
        narrow_phases: set[str] = set()
        every_phase: set[str] = set()
        """Every question any person was asked; each must be seen on a phone."""
        for _ in range(ROUNDS_AT_MOST):
            over = False
            for seat, page in enumerate(pages):
                visit(page, seat_urls[seat])
                if seat == 2:  # the phone, at every page it shows: asked, waiting or the end
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= 390, f"seat 2's phone is {width} px wide at {page.url}"
                hand = page.locator("#hand").inner_text() if page.locator("#hand").count() else ""
                leaked = [label for label in other_hands(app, table, seat) if label in hand]
                assert not leaked, (seat, leaked[:3])
                if page.locator("#final").count():
                    over = True
                    continue
                if page.locator("#asked").count():
                    asked = page.locator("#asked h2").inner_text()
                    every_phase.add(asked)
                    if seat == 0 and asked not in narrow_phases:
                        narrow_phases.add(asked)
                        fits_a_phone(page, asked)
                    if seat == 2:  # on the phone all along (checked above)
                        narrow_phases.add(asked)
                    if seat == 0 and "(declare)" in asked and not declared:
                        declared = declare_by_clicking(page)
                        continue
                    if seat == 0 and "(withdraw)" in asked and declared:
                        folds = check_folded_chances(page)
                    if not declare_seen and "(declare)" in asked:
                        declare_seen = True
                        page.set_viewport_size({"width": 390, "height": 844})
                        page.screenshot(path=str(ARTIFACTS / "declare-390.png"), full_page=True)
                        width = page.evaluate("document.documentElement.scrollWidth")
                        assert width <= 390, f"the declare form is {width} px wide at 390 px"
                        page.set_viewport_size({"width": 1280, "height": 900})
                    answer(page)
            if over:
                break
        for page in pages:
            visit(page, page.url)
            assert page.locator("#final").count() == 1
        assert "winner" in pages[2].locator("#seats").inner_text()
        assert pages[2].evaluate("document.documentElement.scrollWidth") <= 390  # the end, too
        assert re.search(r"wins with \d+ points?|share the win", pages[2].inner_text("#winner"))
        assert "year-cap" not in pages[2].inner_text("#final")
        assert "Luck in the races" in pages[2].locator("#luck").inner_text()
        assert pages[2].locator("#luck tbody tr").count() == 4   # one row a seat
        pages[2].set_viewport_size(DESKTOP)
        pages[2].locator("#luck").screenshot(path=str(ARTIFACTS / "luck-1280.png"))
        pages[2].click("text=Replay it")
        assert "Record verified" in pages[2].locator("#verdict").inner_text()
        assert "✓" in pages[2].locator("#commitment-check").inner_text()
        assert "{'" not in pages[2].inner_text("main")
        narrow = browser.new_page(viewport={"width": 390, "height": 844})
        for path in ("/ballot", "/ballot/rules", f"/ballot/tables/{table}/replay?step=3"):
            narrow.goto(f"{base}{path}")
            width = narrow.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"{path} is {width} px wide at 390 px"
        browser.close()
    assert declare_seen and (ARTIFACTS / "declare-390.png").stat().st_size > 0
    # the year's phases past the withdraw step depend on the dealt game (a bill, a veto, an
    # impeachment, an amendment) and on who is asked (a veto goes to the president, who may
    # sit at a desktop); these three come to every seat every year, the phone's included
    core = {"Your move (draft)", "Your move (declare)", "Your move (withdraw)"}
    assert core <= narrow_phases <= every_phase, (narrow_phases, every_phase)
    assert declared and folds > 0, "seat 0 declared and saw its chances at the withdraw step"


def fits_a_phone(page: Any, asked: str) -> None:
    """At 390 px the seat page asking `asked` is no wider than the screen (a screenshot kept)."""
    page.set_viewport_size({"width": 390, "height": 844})
    name = re.sub(r"[^a-z-]", "", asked.split("(")[-1])
    page.screenshot(path=str(ARTIFACTS / f"ask-{name}-390.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the seat page asking {asked} is {width} px wide at 390 px"
    page.set_viewport_size({"width": 1280, "height": 900})


def declare_by_clicking(page: Any) -> bool:
    """Declare by clicking: the suggestion is picked already; the first race's button opens
    every card in it (the picks so far kept), a click on another declaration there (a card no
    other race has picked) swaps it, and the review names that race and card. Nothing is
    typed."""
    race = page.locator("fieldset.race").first
    assert race.locator("input:checked").count() == 1
    suggested = race.locator("input:checked").get_attribute("value")
    picked = page.locator("fieldset.race input:checked").evaluate_all(
        "inputs => inputs.map(input => input.value)")
    shown = race.locator("label.option:not(.none)").count()
    with page.expect_navigation():
        race.locator("button.open-race").click()
    race = page.locator("fieldset.race").first
    assert race.locator("label.option:not(.none)").count() > shown
    assert page.locator("fieldset.race input:checked").evaluate_all(
        "inputs => inputs.map(input => input.value)") == picked
    used = {value.split(":")[0] for value in picked if value not in ("none", suggested)}
    choice = next(
        option for option in race.locator("label.option:not(.none)").all()
        if option.get_attribute("data-card") not in used
        and option.locator("input").get_attribute("value") != suggested
    )
    card = choice.get_attribute("data-card")
    choice.locator(".option-text").click()
    assert choice.locator("input").is_checked()
    name = race.locator("input:checked").get_attribute("name")
    page.click("#submit-move")
    page.wait_for_selector("#confirm, #form-error")
    assert page.locator("#confirm").count(), page.inner_text("#form-error")
    assert f"{name.removeprefix('pick_')}: #{card} " in page.inner_text("#confirm")
    page.click("#commit")
    page.wait_for_selector("#seats")
    return True


def check_folded_chances(page: Any) -> int:
    """At 390 px with every fraction unfolded, the withdraw step is no wider than the screen
    (a contested race's exact chance can run to hundreds of digits)."""
    chances = page.locator(".withdraw-chance")
    assert "exact" in chances.first.inner_text() or "about" in chances.first.inner_text()
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("document.querySelectorAll('details.fraction').forEach(d => d.open = true)")
    page.screenshot(path=str(ARTIFACTS / "withdraw-390.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the withdraw step is {width} px wide at 390 px"
    page.set_viewport_size({"width": 1280, "height": 900})
    return int(chances.count())
