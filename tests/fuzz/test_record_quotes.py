"""A replayed record that differs is named in one short line, however large the recorded value.

The refusal quotes at most `records.QUOTED_LENGTH` characters of a recorded or replayed value
(once, a few megabytes of a forged event came back as one line of as many megabytes).
"""

from __future__ import annotations

import json
from pathlib import Path

from fairfight.core import records
from tests.fuzz.conftest import assert_refused, invoke

SCENARIO = Path(__file__).resolve().parents[2] / "examples" / "clash" / "scenarios"
LONGEST_REFUSAL = 3 * records.QUOTED_LENGTH
"""Two quoted values, the place and the words around them."""


def test_a_clash_replay_quotes_a_huge_forged_value_briefly(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    played = invoke("clash", "play", SCENARIO / "belvoir-wood.yaml", "--record", record)
    assert played.exit_code == 0, played.stderr
    header, turn = record.read_text(encoding="utf-8").splitlines()
    forged = json.loads(turn)
    forged["events"][-1]["forged"] = "x" * 500_000
    record.write_text(f"{header}\n{json.dumps(forged)}\n", encoding="utf-8")
    line = assert_refused(invoke("clash", "replay", record), codes=(1,))
    assert "forged" in line and "xxx..." in line and len(line) <= LONGEST_REFUSAL, line[:500]


def test_a_clash_record_with_ai_players_not_a_list_is_one_line(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    assert invoke("clash", "play", SCENARIO / "belvoir-wood.yaml", "--record", record
                  ).exit_code == 0
    header, turn = record.read_text(encoding="utf-8").splitlines()
    changed = {**json.loads(header), "ai_players": 5}
    record.write_text(f"{json.dumps(changed)}\n{turn}\n", encoding="utf-8")
    line = assert_refused(invoke("clash", "replay", record), codes=(2,))
    assert "ai_players: must be a list of player ids" in line
