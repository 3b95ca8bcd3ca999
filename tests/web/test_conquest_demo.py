"""`make run`'s demo season: kept between runs, short enough to reach its reveal, and a console
that says how many battles are left and, once the season is over, only what is left to do."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.rules import tables
from fairfight.conquest.store import season
from fairfight.web.conquest.demo_season import DEMO_BATTLES, DEMO_FILE, prepare
from tests.web.conquest_support import ADMIN_TOKEN, copy_season, make_app

HTML = {"accept": "text/html"}
CONSOLE = "/conquest/operator"


@pytest.fixture
def demo_folder(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Path:
    """A `.run` folder holding a copy of the session's demo season, as `make run` left it."""
    folder = tmp_path / "run"
    folder.mkdir()
    copied = copy_season(demo_master[0], tmp_path)
    for part in tmp_path.glob(copied.name + "*"):  # the database and its key file
        part.rename(folder / (DEMO_FILE + part.name[len(copied.name):]))
    return folder


def test_a_second_run_keeps_the_season_and_what_fans_gave(demo_folder: Path) -> None:
    path = demo_folder / DEMO_FILE
    board = season.summary(path).board["factions"]
    open_pool = next(code for code, faction in sorted(board.items())
                     if faction["standing"] and faction["pool"] == 0
                     and faction["pool_state"] == tables.PoolState.OPEN)
    receipt = season.contribute(path, open_pool, 5)
    before = season.summary(path)
    kept, news = prepare(demo_folder)
    after = season.summary(kept)
    assert kept == path
    assert after.commitment == before.commitment and after.ledger == before.ledger
    assert any(entry["faction"] == open_pool and entry["amount"] == 5 for entry in after.ledger)
    assert receipt
    assert news[0].startswith(f"kept the demo season you played: {DEMO_BATTLES} battles aired, "
                              f"{40 - DEMO_BATTLES} left at most")
    assert "make run NEW=1" in news[0]


def test_an_unreadable_season_file_is_left_in_place_with_the_way_to_start_over(
        tmp_path: Path) -> None:
    (tmp_path / DEMO_FILE).write_bytes(b"not a season")
    with pytest.raises(SystemExit, match="make run NEW=1"):
        prepare(tmp_path)
    assert (tmp_path / DEMO_FILE).read_bytes() == b"not a season"


def test_the_demo_season_is_short_and_reaches_its_reveal(demo_folder: Path) -> None:
    path = demo_folder / DEMO_FILE
    assert season.summary(path).header["max_battles"] == 40
    for _ in season.fight(path, 100):
        pass
    over = season.summary(path)
    assert over.board["ended"] and over.battles <= 40
    assert season.reveal(path)
    assert season.summary(path).revealed_seed is not None


def _battles_line(html: str) -> str:
    found = re.search(r'id="state-battles-1">(.*?)</dd>', html, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_the_console_counts_battles_left_then_offers_only_what_remains(
        demo_folder: Path) -> None:
    path = demo_folder / DEMO_FILE
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        client.post(f"{CONSOLE}/sign-in", data={"token": ADMIN_TOKEN}, headers=HTML)
        playing = client.get(CONSOLE, headers=HTML).text
        assert _battles_line(playing) == (f"{DEMO_BATTLES} aired; next is battle "
                                          f"{DEMO_BATTLES + 1}, {40 - DEMO_BATTLES} left at most")
        assert 'id="schedule-form-1"' in playing and "Reveal the seed" not in playing
        for _ in season.fight(path, 100):
            pass
        over = client.get(CONSOLE, headers=HTML).text
        assert "the season is over" in _battles_line(over)
        assert 'id="schedule-form-1"' not in over
        assert 'action="/conquest/operator/1/air"' not in over
        assert "Reveal the seed" in over and "Export the record" in over
        season.reveal(path)
        revealed = client.get(CONSOLE, headers=HTML).text
        assert "Reveal the seed" not in revealed and "Export the record" in revealed


def test_every_page_has_an_icon(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/x-icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"  # the ICO header: reserved 0, type 1
    home = client.get("/conquest/1", headers=HTML).text
    assert '<link rel="icon" href="/favicon.ico"' in home
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and svg.text.startswith("<svg")


def test_the_committed_icon_is_the_drawing_tool_s() -> None:
    from tools.favicon import STATIC, svg

    assert (STATIC / "favicon.svg").read_text(encoding="utf-8") == svg()


def test_a_new_demo_season_has_its_seed_timelocked_past_a_planned_end(tmp_path: Path) -> None:
    """The service makes no season but the demo: that one gets a planned end, so its seed
    unlocks without the operator like a season made with `conquest new --ends-by`."""
    before = int(time.time())  # the demo plans from the whole second it starts in
    path, news = prepare(tmp_path, new=True)
    lock = season.summary(path).header["timelock"]
    assert lock["network"] == "quicknet" and "BEGIN AGE ENCRYPTED FILE" in lock["ciphertext"]
    opens = 1692803367 + 3 * (lock["round"] - 1)  # quicknet's clock, by hand
    earliest = before + 30 * 86400 + 86400  # the planned end a month on, plus the day's margin
    assert earliest <= opens <= time.time() + 31 * 86400 + 3, (opens, earliest)
    assert f"the seed unlocks with quicknet round {lock['round']} at " in news[0]
