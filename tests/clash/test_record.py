"""Game records: an AI-vs-AI game replays byte for byte; a changed draw is caught at its
clash; a changed outcome or order is caught at the first event it touches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fairfight.clash.ai import ai_orders
from fairfight.clash.generate import generate_scenario
from fairfight.clash.record import GameRecord, load_record, merge_orders, replay_record
from fairfight.clash.scenario import parse_scenario
from fairfight.core.errors import InputError, VerificationError


def _ai_game(turns: int = 5) -> GameRecord:
    record = GameRecord(parse_scenario(generate_scenario("rec", width=12, height=12,
                                                         per_side=10)), ("blue", "red"))
    world = record.start()
    for _ in range(turns):
        world = record.play(world, merge_orders([ai_orders(world, p) for p in world.sides])
                            ).world
    return record


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("games") / "game.jsonl"
    _ai_game().save(path)
    return path


def test_a_recorded_ai_game_replays_byte_for_byte(recorded: Path, tmp_path: Path) -> None:
    record = load_record(recorded)
    assert replay_record(record) == 5
    assert sum(1 for turn in record.turns for e in turn["events"] if e["event"] == "clash") > 3
    again = tmp_path / "again.jsonl"
    record.save(again)
    assert again.read_bytes() == recorded.read_bytes()
    fresh = tmp_path / "fresh.jsonl"
    _ai_game().save(fresh)   # the same game played again: the same bytes
    assert fresh.read_bytes() == recorded.read_bytes()


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def test_a_changed_draw_is_caught_at_that_clash(recorded: Path, tmp_path: Path) -> None:
    rows = _rows(recorded)
    clashes = [(line, index) for line, row in enumerate(rows[1:], start=1)
               for index, event in enumerate(row["events"]) if event["event"] == "clash"]
    line, index = clashes[len(clashes) // 2]
    event = rows[line]["events"][index]
    event["r"] = (event["r"] + 1) % 1000
    tampered = tmp_path / "tampered.jsonl"
    _write(tampered, rows)
    with pytest.raises(VerificationError) as caught:
        replay_record(load_record(tampered))
    assert caught.value.place == (f"turn {rows[line]['turn']} event {index} (clash by "
                                  f"{event['initiator']}, ordinal {event['ordinal']})")
    assert caught.value.detail.startswith(f"r: recorded {event['r']}, replayed ")


def test_a_changed_outcome_is_named_by_its_field(recorded: Path, tmp_path: Path) -> None:
    rows = _rows(recorded)
    line, index = next((line, index) for line, row in enumerate(rows[1:], start=1)
                       for index, event in enumerate(row["events"])
                       if event["event"] == "clash")
    rows[line]["events"][index]["outcome"]["ld"] += 1
    tampered = tmp_path / "tampered.jsonl"
    _write(tampered, rows)
    with pytest.raises(VerificationError, match=r"outcome\.ld: recorded"):
        replay_record(load_record(tampered))


def test_a_record_of_another_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "something-else"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="not a clash game record"):
        load_record(path)


def test_a_broken_line_is_named(recorded: Path, tmp_path: Path) -> None:
    lines = recorded.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:40]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_record(path)
    assert "line 3" in caught.value.field
