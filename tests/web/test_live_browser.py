"""The season home in a real browser when its event cursor goes stale: the stream drops, the
browser reconnects with its last event id, the table no longer covers it (a restored
database), and the page reloads itself."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.web.chromium_session import launched_chromium, new_page, visit
from tests.web.conquest_support import live_server
from tests.web.live_support import service_app, wait_until


def test_a_stale_cursor_makes_the_page_reload_itself(season_file: Path) -> None:
    app = service_app(f"sqlite:///{season_file}")
    live = app.state.conquest.live
    with launched_chromium() as browser, live_server(app) as base:
        page = new_page(browser, 1280)
        visit(page, f"{base}/conquest/1")
        wait_until(lambda: live.clients() == 1, "the page opened its event stream")
        page.evaluate("window.beforeTheReload = true")
        with sqlite3.connect(season_file) as connection:  # as if restored from an old backup
            connection.execute("DELETE FROM season_event")
        # Drop the page's stream, as a restarted process would: the browser comes back
        # with its last event id, which the table no longer holds.
        for clients in list(live._clients.values()):
            for client in list(clients):
                live._loop.call_soon_threadsafe(_drop_now, client)
        page.wait_for_function("() => window.beforeTheReload === undefined")
        wait_until(lambda: live.clients() == 1, "the reloaded page listens again")
        assert page.locator("#map-title").inner_text().startswith("Map after battle")


def _drop_now(client: object) -> None:
    from fairfight.web.conquest.live import _drop

    _drop(client)  # type: ignore[arg-type]
