"""engine.js's own luck (`seasonLuck`) on the hand-computed small season and on random small
seasons, against the figures of test_season_luck (hand, and brute-force checked)."""

from __future__ import annotations

import json
import random
import subprocess
from typing import Any

from fairfight.conquest.record import season_luck
from tests.conquest.test_season_luck import SMALL_SEASON, _battle, _chance
from tests.conquest.verifiers import ENGINE_JS
from tests.system import node_path

_PROGRAM = """
const engine = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const plain = (key, value) => (typeof value === "bigint" ? Number(value) : value);
process.stdout.write(JSON.stringify(
  cases.map(([history, champion]) => engine.seasonLuck(history, champion)), plain));
"""


def _in_node(cases: list[tuple[list[dict[str, Any]], str | None]]) -> list[dict[str, Any]]:
    run = subprocess.run([node_path(), "-e", _PROGRAM, str(ENGINE_JS)], input=json.dumps(cases),
                         capture_output=True, text=True, check=True)
    found: list[dict[str, Any]] = json.loads(run.stdout)
    return found


def test_engine_js_computes_the_small_season_by_hand() -> None:
    # The figures worked out by hand in test_season_luck.test_a_small_season_by_hand.
    (luck,) = _in_node([(SMALL_SEASON, "BB")])
    assert luck["factions"]["AA"]["at_least"] == "0x5/0x8"
    assert luck["factions"]["BB"]["at_most"] == "0x1/0x4"
    assert luck["factions"]["BB"]["expected_before_fan"] == "5/4"
    assert luck["factions"]["BB"]["secured"] == 1
    assert luck["season"] == {"battles": 3, "observed": 1, "expected": "1/4",
                              "at_least": "0x1/0x4", "at_most": "0x1/0x1"}
    assert luck["champion"]["faction"] == "BB"
    assert luck == season_luck.season_luck(SMALL_SEASON, "BB")


def test_engine_js_agrees_with_the_python_module_on_random_small_seasons() -> None:
    rng = random.Random(3434)
    cases: list[tuple[list[dict[str, Any]], str | None]] = []
    for _ in range(40):
        history = []
        for _ in range(rng.randint(0, 9)):
            attacker, defender = rng.sample(["AA", "BB", "CC", "DD"], 2)
            after = _chance(rng)
            history.append(_battle(attacker, defender, str(_chance(rng)), str(after),
                                   attacker if rng.random() < after else defender))
        cases.append((history, rng.choice([None, "AA", "CC"])))
    for (history, champion), luck in zip(cases, _in_node(cases), strict=True):
        assert luck == season_luck.season_luck(history, champion)
