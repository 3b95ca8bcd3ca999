"""The shipped examples stay valid: the example record replays under the current engine."""

from __future__ import annotations

import json
from pathlib import Path

from fairfight.conquest.record import verifier
from fairfight.conquest.rules import engine, scenario
from fairfight.conquest.store import publication

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "conquest"


def test_the_example_record_verifies() -> None:
    notes = publication.verify_folder(EXAMPLES / "tiny-record")
    assert any("8 battles replayed" in note for note in notes)
    history = verifier.load_record(EXAMPLES / "tiny-record")["history"]
    assert [entry["kind"] for entry in history].count("bonus") == 1


def test_the_example_record_plays_the_example_map() -> None:
    tiny = scenario.load_map(str(EXAMPLES / "tiny-map.json"))  # as `conquest new --map` loads it
    header = json.loads((EXAMPLES / "tiny-record" / "header.json").read_text(encoding="utf-8"))
    assert header["map_sha256"] == engine.map_sha256(tiny)
    assert header["map_name"] == tiny["name"]


def test_the_example_map_passes_the_map_loader() -> None:
    loaded = scenario.load_map(str(EXAMPLES / "tiny-map.json"))
    assert len(loaded["regions"]) == 8
