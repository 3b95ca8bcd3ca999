"""A demonstration season for `make run`: a few battles aired, pools filled, a rebellion waiting.

`python -m fairfight.web.conquest.demo_season [FOLDER] [--new]` builds it in FOLDER (default
`.run/`) the first time and keeps it afterwards, so a second `make run` serves the season
already played and the receipts saved from it still check; `--new` (`make run NEW=1`) starts
over, and says so. It prints the address and a fresh admin token, then starts `fairfight serve`
on it. Only the token's SHA-256 is handed to the server. The season is short
(`DEMO_SEASON_LENGTH` battles at most) so that a newcomer can air it to its end and reveal.
To show every banner early, the builder looks at the next battle's draws with the seed it
holds and fills both fighters' pools before battle 2 (a FAN CLASH) and one fighter's before
battle 3 (a secured win). An operator who knows the seed can always do this; that is why the
operator and staff may not contribute.

The service has no form that creates a season (seasons are made on the command line, `conquest
new`, where `--ends-by` timelocks the seed); the demo is the one season it makes itself, so a
new one gets a planned end `DEMO_PLANNED_END` ahead and its seed is timelocked like any season
made with `--ends-by` (docs/season-log.md, "A seed that unlocks itself").
"""

from __future__ import annotations

import os
import secrets
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import season
from fairfight.core.draws import new_seed

__all__ = [
    "DEMO_BATTLES", "DEMO_FILE", "DEMO_PLANNED_END", "DEMO_SEASON_LENGTH", "build_demo_season",
    "main", "prepare",
]

DEMO_BATTLES = 6
"""Battles aired before the show opens."""
DEMO_SEASON_LENGTH = 40
"""The demo season's most battles: few enough to air to the end and reach the reveal."""
DEMO_FILE = "demo-season.db"
DEMO_PLANNED_END = timedelta(days=30)
"""How far ahead a new demo season's planned end lies: its seed unlocks a day after that, and
airing stops an hour before the unlock, so a kept demo season airs for about a month."""


def _next_fighters(path: Path, seed: str) -> tuple[str, str]:
    """Who fights the next battle (the operator's privileged peek; see the module docstring)."""
    now = season.summary(path)
    state = {
        "world": engine.compile_world(now.map_data),
        "key": engine.season_key(seed, None),
        "max_battles": now.header["max_battles"],
        "board": now.board,
    }
    _, entry = engine.play_step(state, now.ledger)
    return entry["attacker"], entry["defender"]


def _fund_a_rebellion(path: Path) -> str | None:
    """Fill the fund of the first absorbed faction that still has an empty open pool."""
    board = season.summary(path).board
    for code, faction in sorted(board["factions"].items()):
        if not faction["standing"] and faction["pool_state"] == tables.PoolState.OPEN:
            for amount in (20, 20, 10):
                season.contribute(path, code, amount)
            return str(code)
    return None


def _fillable(path: Path, code: str) -> bool:
    """The faction's pool is open and empty, counting contributions already dated."""
    now = season.summary(path)
    state = {"world": {}, "key": "", "max_battles": None, "board": now.board}
    pool = engine.pending_board(state, now.ledger)["factions"][code]
    return bool(pool["pool_state"] == tables.PoolState.OPEN and pool["pool"] == 0)


def _fight(path: Path) -> int:
    return int(list(season.fight(path, 1))[-1]["number"])


def build_demo_season(path: Path, seed: str | None = None,
                      map_data: dict[str, Any] | None = None,
                      max_battles: int | None = DEMO_SEASON_LENGTH,
                      ends_by: datetime | None = None) -> dict[str, Any]:
    """Create the demo season in `path`, its seed timelocked past `ends_by` when given;
    returns what was arranged, for tests and the banner."""
    from fairfight.conquest.rules import scenario

    chosen = map_data if map_data is not None else scenario.load_map("north-america")
    secret = seed or new_seed()
    season.create_season(path, chosen, str(chosen.get("name", "map")), seed=secret,
                         max_battles=max_battles, ends_by=ends_by)
    by_size = sorted(chosen["regions"], key=lambda r: (r["population"], r["code"]))
    season.contribute(path, by_size[-1]["code"], 25)
    season.contribute(path, by_size[-2]["code"], 10)
    fought = _fight(path)
    clash_battle, secured_battle = None, None
    while clash_battle is None and fought < DEMO_BATTLES - 2:
        fighters = _next_fighters(path, secret)
        if all(_fillable(path, code) for code in fighters):
            for code in fighters:
                season.contribute(path, code, 50)
            clash_battle = fought + 1
        fought = _fight(path)
    for code in reversed(_next_fighters(path, secret)):
        if _fillable(path, code):
            season.contribute(path, code, 50)
            secured_battle = fought + 1
            break
    while fought < DEMO_BATTLES:
        fought = _fight(path)
    rebel = _fund_a_rebellion(path)
    for code in (by_size[0]["code"], by_size[len(by_size) // 2]["code"]):
        if _fillable(path, code) and season.summary(path).board["factions"][code]["standing"]:
            season.contribute(path, code, 15)
    return {"fan_clash_battle": clash_battle, "secured_battle": secured_battle,
            "rebellion_waiting": rebel}


def prepare(folder: Path, *, new: bool = False) -> tuple[Path, list[str]]:
    """The demo season's file in `folder`, built unless one is kept, and what to tell the user.

    A season already there is served as it is: deleting it would make every receipt a fan saved
    point at a season that no longer exists. One that cannot be read is left in place too, with
    the way to start over, rather than deleted behind the user's back.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DEMO_FILE
    if path.exists() and not new:
        try:
            now = season.summary(path)
        except Exception as error:  # noqa: BLE001 - any unreadable file gets the same advice
            raise SystemExit(f"{path} is not a season this version can serve ({error}); "
                             "start a new demo season with: make run NEW=1") from None
        most = now.header.get("max_battles")
        left = f", {max(most - now.battles, 0)} left at most" if most else ""
        ended = "; the season is over, reveal it from the operator console" \
            if now.board.get("ended") else ""
        return path, [f"kept the demo season you played: {now.battles} battles aired{left}{ended}"
                      f" ({path}; make run NEW=1 starts a new one)"]
    for stale in folder.glob(DEMO_FILE + "*"):
        stale.unlink()
    print(("starting a new demo season, as asked: " if new else "building the demo season: ")
          + f"{DEMO_BATTLES} battles on the north-america map, {DEMO_SEASON_LENGTH} at most...",
          flush=True)
    arranged = build_demo_season(path, ends_by=datetime.now(UTC) + DEMO_PLANNED_END)
    from fairfight.conquest.store import season_timelock

    locked = season_timelock.unlock_note(season.summary(path).header["timelock"])
    return path, [f"FAN CLASH in battle {arranged['fan_clash_battle']}; rebellion fund waiting: "
                  f"{arranged['rebellion_waiting']}; {locked}."]


def main(arguments: list[str]) -> None:
    """Build or keep the season, print the address and token, and serve until Ctrl-C."""
    from fairfight.web.conquest.operator import token_digest

    new = "--new" in arguments
    folders = [argument for argument in arguments if argument != "--new"]
    path, news = prepare(Path(folders[0] if folders else ".run"), new=new)
    token = secrets.token_urlsafe(24)
    print("season home:    http://127.0.0.1:8000/conquest/1  (front page http://127.0.0.1:8000/)")
    print("operator:       http://127.0.0.1:8000/conquest/operator")
    print(f"admin token:    {token}")
    print(" ".join([*news, "Stop with Ctrl-C."]), flush=True)
    env = {**os.environ, "FAIRFIGHT_ADMIN_TOKEN_SHA256": token_digest(token)}
    env.pop("FAIRFIGHT_PAYMENT_SECRET", None)
    os.execve(sys.executable, [sys.executable, "-m", "fairfight", "serve", "--db", str(path),
                               "--host", "127.0.0.1", "--port", "8000"], env)


if __name__ == "__main__":
    main(sys.argv[1:])
