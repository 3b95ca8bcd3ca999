"""Verify anywhere: engine.js in Node and in Chromium against the Python verifier, one season.

The season is played on the default map (136 regions) with fan money and a rebellion, and
exported as a season archive. Both verifiers do the same work: check the manifest, replay
every battle and compare every field. Baseline: the Python verifier in this process (no
interpreter start-up counted). engine.js is timed three ways: the whole `node engine.js verify
DIR` command (Node start-up included), the verification alone inside one Node process, and the
verification of the season's zip inside Debian's Chromium (the verify page's engine, served by
the web service on a loopback port).
"""

from __future__ import annotations

import base64
import json
import resource
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from bench.timing import best_seconds, report
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import engine
from fairfight.conquest.store import publication, season

ENGINE_JS = Path(engine.__file__).parents[1] / "record" / "engine.js"
TIMER = """
const engine = require(process.argv[2]);
(async () => {
  let best = Infinity, result;
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    result = await engine.verifyPath(process.argv[3]);
    best = Math.min(best, performance.now() - start);
  }
  process.stdout.write(JSON.stringify({ ok: result.ok, seconds: best / 1000 }));
})();
"""


def _default_map() -> dict[str, object]:
    try:
        from fairfight.conquest.rules import scenario

        return dict(scenario.load_map("north-america"))
    except Exception:  # the map may not be installed in this checkout
        return synthetic_map()


def _archive(folder: Path) -> tuple[Path, int]:
    """A finished season on the default map, exported; returns the folder and its battles."""
    path = folder / "season.db"
    season.create_season(path, _default_map(), "bench", seed="be" * 32)
    summary = season.summary(path)
    codes = sorted(summary.board["factions"])
    for code, amount in zip(codes[::17], (50, 25, 50, 10, 45, 50, 5, 30, 50), strict=False):
        season.contribute(path, code, amount)
    fought = list(season.fight(path, 3))
    absorbed = fought[0]["absorbed"]
    for amount in (25, 25):
        season.contribute(path, absorbed, amount)  # its rebellion fund: a bonus round next
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, folder / "record")
    publication.export_record(path, folder / "season.zip")
    return folder / "record", season.summary(path).battles


BROWSER_TIMER = """async (encoded) => {
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  let best = Infinity, result;
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    result = await FairfightConquest.verifyArchive(bytes);
    best = Math.min(best, performance.now() - start);
  }
  return { ok: result.ok, seconds: best / 1000 };
}"""


def _chromium_seconds(zipped: Path) -> float | None:
    """engine.js verifying the zip in Chromium, best of three; None without a browser."""
    chromium = shutil.which("chromium")
    try:
        import uvicorn
        from playwright.sync_api import sync_playwright

        from fairfight.web import WebSettings, create_app
    except ImportError:
        return None
    if chromium is None:
        return None
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    app = create_app(WebSettings(database_url="sqlite://"))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/verify")
            # as the verify page's worker does: the season log's checker first, then engine.js
            page.add_script_tag(url="/verify/seasonlog.js")
            page.add_script_tag(url="/verify/engine.js")
            encoded = base64.b64encode(zipped.read_bytes()).decode("ascii")
            measured = page.evaluate(BROWSER_TIMER, encoded)
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert measured["ok"], "engine.js did not verify the benchmark season in Chromium"
    return float(measured["seconds"])


def main() -> None:
    node = shutil.which("node")
    with tempfile.TemporaryDirectory() as scratch:
        record, battles = _archive(Path(scratch))
        python = best_seconds(lambda: publication.verify_folder(record), repeats=3)
        report("Python verify, one season (baseline)", 1 / python, "seasons/s")
        print(f"  {battles} battles: {python:.3f} s", flush=True)
        if node is None:
            print("node is not installed: engine.js not measured", flush=True)
            return
        command = [node, str(ENGINE_JS), "verify", str(record)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        whole = best_seconds(lambda: subprocess.run(command, check=True, capture_output=True), 3)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 3
        timer = Path(scratch) / "timer.js"
        timer.write_text(TIMER, encoding="utf-8")
        measured = subprocess.run(
            [node, str(timer), str(ENGINE_JS), str(record)],
            check=True,
            capture_output=True,
            text=True,
        )
        inside = json.loads(measured.stdout)
        assert inside["ok"], "engine.js did not verify the benchmark season"
        report("engine.js verify in Node, whole command", 1 / whole, "seasons/s", 1 / python)
        report(
            "engine.js verify in Node, replay alone", 1 / inside["seconds"], "seasons/s", 1 / python
        )
        verdict = "within" if whole <= 1.0 else "OVER"
        print(
            f"  {battles} battles: {whole:.3f} s with start-up, {inside['seconds']:.3f} s "
            f"without ({verdict} the 1 s target); {cpu:.3f} s of CPU per command "
            "(wall times include waiting on a busy machine)",
            flush=True,
        )
        browser = _chromium_seconds(record.parent / "season.zip")
        if browser is None:
            print("chromium or playwright is not installed: the browser was not measured")
            return
        report("engine.js verify in Chromium, replay alone", 1 / browser, "seasons/s", 1 / python)
        verdict = "within" if browser <= 1.0 else "OVER"
        print(f"  {battles} battles: {browser:.3f} s ({verdict} the 1 s target)", flush=True)
