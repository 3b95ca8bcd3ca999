"""Sharing in a real browser: the embed inside a page of another origin at a phone's width
(the host receives its height), framing refused everywhere else, a share card fetched by its
hashed address, and the pages passing axe-core. Screenshots go to test-artifacts/share/."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.accessibility import assert_accessible
from tests.web.chromium_session import launched_chromium, new_page, visit
from tests.web.conquest_support import copy_season, free_port, live_server, make_app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "share"
PHONE, DESKTOP = 390, 1280
HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A forum post</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body {{ margin: 0; font-family: sans-serif; }} iframe {{ display: block; width: 100%;
border: 0; height: 150px; }}</style></head>
<body><main><h1>Our forum's post about the show</h1>
<iframe id="show" title="fairfight season 1" src="{service}/embed/seasons/1"></iframe>
<iframe id="refused" title="the season home, which refuses framing" src="{service}/conquest/1">
</iframe>
<script>
window.heights = [];
window.addEventListener("message", function (event) {{
  if (event.origin !== "{service}" || !event.data || event.data.type !== "fairfight:height") {{
    return;
  }}
  window.heights.push(event.data.height);
  document.getElementById("show").style.height = event.data.height + "px";
}});
</script></main></body></html>
"""


class _HostHandler(BaseHTTPRequestHandler):
    """Serves the host page (another origin: another port) for every path."""

    page = b""

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(self.page)))
        self.end_headers()
        self.wfile.write(self.page)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        return


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def service(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[str]:
    with live_server(make_app(copy_season(demo_master[0], tmp_path))) as base:
        yield base


@pytest.fixture
def host(service: str) -> Iterator[str]:
    """A second HTTP server, on another port, whose page frames the embed."""
    handler = type("Host", (_HostHandler,), {"page": HOST_PAGE.format(service=service).encode()})
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/forum"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_embed_in_another_origin_reports_its_height_at_phone_width(
        browser: Any, service: str, host: str) -> None:
    page = new_page(browser, PHONE)
    visit(page, host)
    page.wait_for_function("() => window.heights.length > 0")
    height = page.evaluate("window.heights[window.heights.length - 1]")
    frame = page.frame_locator("#show")
    assert frame.locator("#embed-standings").is_visible()
    assert "battle 7" in frame.locator("#embed-next").inner_text()
    inner = page.frame(url=f"{service}/embed/seasons/1")
    assert inner is not None
    content = inner.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
    assert height == content and height > 200
    page.wait_for_function(f"() => document.getElementById('show').offsetHeight === {height}")
    # the embed fits the phone: nothing wider than the frame
    assert inner.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the season home in the other frame was refused: Chromium shows its error page instead
    refused = page.query_selector("#refused").content_frame()
    assert refused is not None and refused.url.startswith("chrome-error:")
    _shot(page, f"embed-host-{PHONE}")
    page.set_viewport_size({"width": DESKTOP, "height": 900})
    page.wait_for_function(f"() => window.heights[window.heights.length - 1] !== {height}")
    wide = page.evaluate("window.heights[window.heights.length - 1]")
    assert wide < height  # wider frame, shorter content: the host is told the new height
    _shot(page, f"embed-host-{DESKTOP}")
    page.context.close()


def test_share_card_by_its_hashed_address_in_the_browser(browser: Any, service: str) -> None:
    page = new_page(browser, DESKTOP)
    visit(page, f"{service}/conquest/1/battles/2")
    image = page.get_attribute('meta[property="og:image"]', "content")
    assert image and image.startswith(f"{service}/conquest/1/cards/episode-2-")
    response = page.goto(image)
    assert response is not None and response.status == 200
    assert response.headers["content-type"] == "image/png"
    assert "immutable" in response.headers["cache-control"]
    size = page.evaluate("[document.images[0].naturalWidth, document.images[0].naturalHeight]")
    assert size == [1200, 630]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "card-episode-2.png").write_bytes(response.body())
    page.context.close()


def test_the_embed_passes_axe_core_and_the_season_home_shows_its_code(
        browser: Any, service: str) -> None:
    """The season home with its share section, the same demo season, is read by axe-core at
    both widths in tests/web/test_accessibility.py."""
    for width in (PHONE, DESKTOP):
        page = new_page(browser, width)
        visit(page, f"{service}/embed/seasons/1")
        assert_accessible(page)
        _shot(page, f"embed-{width}")
        visit(page, f"{service}/conquest/1")
        page.locator("#share").scroll_into_view_if_needed()
        assert not page.locator("#embed-code").is_visible()  # folded on the home
        page.locator("#embed-fold > summary").click()
        assert page.locator("#embed-code").is_visible()
        page.locator("#share").screenshot(path=str(ARTIFACTS / f"home-share-{width}.png"))
        page.context.close()
