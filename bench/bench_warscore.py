"""warscore: battles scored per second, against baselines measured in the same run.

- The engine (cross-field checks, labelled factors, exact ratio and tier) against the bare
  five-factor Decimal product written out by hand, and the same product in binary floats (what
  a spreadsheet would do) against that baseline too: the price of the engine and of exactness.
- A whole battle file (read, YAML, validation, scoring, JSON) against YAML parsing alone.
"""

from __future__ import annotations

import json
from decimal import Decimal as D
from pathlib import Path

import yaml

from bench.timing import best_seconds, report
from fairfight.warscore import battle_json, demonstration_battle, load_battle, score_battle

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "warscore" / "demonstration.yaml"
BATTLES = 2_000
FILES = 200
ONE, D100 = D("1"), D("100")


def _decimal_product() -> None:
    for _ in range(BATTLES):
        mordor = D100 * (ONE + D("0.20") - D("0.30")) * (ONE - D("0.05") + D("0.20") + D("0.10"))
        gondor = (
            D("43.14")
            * (ONE + D("0.20") + D("0.10") + D("0.10"))
            * (ONE + D("0.05") - D("0.20") + D("0.20") + D("0.50"))
            * D("1.25")
            * D("1.5")
        )
        (max(mordor, gondor) * 100 / min(mordor, gondor)).quantize(ONE)


def _float_product() -> None:
    for _ in range(BATTLES):
        mordor = 100.0 * (1.0 + 0.20 - 0.30) * (1.0 - 0.05 + 0.20 + 0.10) * 1.0
        gondor = 43.14 * (1.0 + 0.20 + 0.10 + 0.10) * (1.0 + 0.05 - 0.20 + 0.20 + 0.50) * 1.25 * 1.5
        round(max(mordor, gondor) / min(mordor, gondor) * 100)


def main() -> None:
    battle = demonstration_battle()

    def exact() -> None:
        for _ in range(BATTLES):
            score_battle(battle, battle.year)

    baseline = BATTLES / best_seconds(_decimal_product, repeats=3)
    report("hand-written Decimal product (baseline)", baseline, "battles/s")
    report(
        "same product in floats", BATTLES / best_seconds(_float_product, 3), "battles/s", baseline
    )
    report(
        "exact battle score (check + Decimal + tier)",
        BATTLES / best_seconds(exact, 3),
        "battles/s",
        baseline,
    )

    def parse_only() -> None:
        for _ in range(FILES):
            yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))

    def whole_file() -> None:
        for _ in range(FILES):
            parsed = load_battle(EXAMPLE)
            json.dumps(battle_json(score_battle(parsed, parsed.year)))

    file_baseline = FILES / best_seconds(parse_only, repeats=3)
    report("YAML parse of a battle file (baseline)", file_baseline, "files/s")
    report(
        "battle file to JSON (parse, validate, score)",
        FILES / best_seconds(whole_file, 3),
        "files/s",
        file_baseline,
    )
