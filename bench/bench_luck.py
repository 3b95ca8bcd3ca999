"""A season's luck for every faction, the champion and the upsets: at most 200 ms (issue 34).

The season is played in memory on the default map (136 regions) with fan money and a
rebellion, so it runs to about 136 battles with secured wins among them. Timed: the whole of
`luck.json` (`record.season_luck.season_luck`: every faction's Poisson-binomial tails, the
champion's run, the upsets), and the same figures turned into words. Baseline in the same run:
`core.luck.luck_of_wins` over the same runs (the general measure, one dictionary convolution
per run), so the ratio says what the whole-number polynomial of the shipped module buys.
engine.js's own `seasonLuck` is timed too, in Node, on the same battles.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from bench.timing import best_seconds
from fairfight.conquest import luck as words
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import season_luck
from fairfight.conquest.rules import engine
from fairfight.core.luck import luck_of_wins

BUDGET_SECONDS = 0.200
"""Issue 34: a 136-battle season's luck for all factions."""
ENGINE_JS = Path(engine.__file__).parents[1] / "record" / "engine.js"
JS_TIMER = """
const engine = require(process.argv[1]);
const [history, champion] = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
let best = Infinity;
for (let i = 0; i < 5; i += 1) {
  const start = performance.now();
  engine.seasonLuck(history, champion);
  best = Math.min(best, performance.now() - start);
}
process.stdout.write(String(best / 1000));
"""


def _javascript_seconds(history: list[dict[str, Any]], champion: str | None) -> float | None:
    """engine.js's own `seasonLuck` on the same season in Node (best of 5); None without Node."""
    with tempfile.TemporaryDirectory() as scratch:
        season = Path(scratch) / "season.json"
        season.write_text(json.dumps([history, champion]), encoding="utf-8")
        try:
            run = subprocess.run(["node", "-e", JS_TIMER, str(ENGINE_JS), str(season)],
                                 capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            return None
    return float(run.stdout)


def _default_map() -> dict[str, Any]:
    try:
        from fairfight.conquest.rules import scenario

        return dict(scenario.load_map("north-america"))
    except Exception:  # the map may not be installed in this checkout
        return synthetic_map()


def _season() -> tuple[list[dict[str, Any]], str | None]:
    """A whole season with pools and a rebellion: its history and its champion."""
    state = engine.new_state(_default_map(), "1c" * 32)
    ledger: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    codes = sorted(state["board"]["factions"])
    for code, amount in zip(codes[::13], (50, 25, 50, 10, 50, 5, 50, 30, 50, 45, 50),
                            strict=False):
        ledger.append(engine.check_contribution(state, ledger, code, amount))
    while not state["board"]["ended"]:
        if len(history) == 3:
            for amount in (25, 25):  # the absorbed faction's rebellion fund: a bonus round
                ledger.append(engine.check_contribution(
                    state, ledger, history[0]["absorbed"], amount))
        state, entry = engine.play_step(state, ledger)
        history.append(entry)
    world, board = state["world"], state["board"]
    champion = season_luck.champion_of(board, lambda code: engine.population_power(
        engine.people(world, board, code, board["next_battle"])))
    return history, champion


def _baseline(history: list[dict[str, Any]]) -> None:
    """Every faction's run and the upsets through the general measure of `core.luck`."""
    runs: dict[str, tuple[list[Fraction], list[bool]]] = {}
    for entry in history:
        after = Fraction(entry["battle_chance"]["after"])
        for role, chance in (("attacker", after), ("defender", 1 - after)):
            chances, won = runs.setdefault(entry[role], ([], []))
            chances.append(chance)
            won.append(entry["winner"] == entry[role])
    for chances, won in runs.values():
        luck_of_wins(chances, won)
    luck_of_wins([season_luck.upset_chance(Fraction(e["battle_chance"]["after"]))
                  for e in history], [bool(e["upset"]) for e in history])


def main() -> None:
    history, champion = _season()
    figures = season_luck.season_luck(history, champion)
    secured = sum(1 for entry in history if entry["secured"])
    print(f"season: {len(history)} battles, {len(figures['factions'])} factions, "
          f"{secured} secured, champion {champion}", flush=True)
    baseline = best_seconds(lambda: _baseline(history))
    shipped = best_seconds(lambda: season_luck.season_luck(history, champion))
    worded = best_seconds(lambda: words.luck_lines(season_luck.season_luck(history, champion)))
    print(f"{'baseline: core.luck per run':<48} {baseline * 1000:>10.1f} ms", flush=True)
    timed = [("luck.json (season_luck)", shipped), ("luck.json and its words", worded)]
    in_node = _javascript_seconds(history, champion)
    if in_node is not None:
        timed.append(("luck.json in Node (engine.js seasonLuck)", in_node))
    for label, seconds in timed:
        verdict = "within" if seconds <= BUDGET_SECONDS else "OVER"
        print(f"{label:<48} {seconds * 1000:>10.1f} ms  ({baseline / seconds:,.2f}x the "
              f"baseline's speed; {verdict} the {BUDGET_SECONDS * 1000:.0f} ms budget)",
              flush=True)
