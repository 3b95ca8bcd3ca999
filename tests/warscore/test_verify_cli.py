"""`fairfight warscore verify FILE`: a published result scored again from its sealed sheets; a
changed figure, sheet, digest or post fails (exit 1), a file that is no result is refused
(exit 2, one line)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "warscore" / "published-result.json"


@pytest.fixture
def published() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "result.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_the_example_verifies(run: Any, published: dict[str, Any], tmp_path: Path) -> None:
    result = run("verify", write(tmp_path, published), "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["verified"] is True
    assert [c["name"] for c in answer["checks"]] == [
        "digest", "sheet attacker", "sheet defender", "input", "figures", "posts"]


def _total(data: dict[str, Any]) -> None:
    data["document"]["result"]["defender"]["total"] = "147.23"


def _sheet(data: dict[str, Any]) -> None:
    sheets = data["document"]["sheets"]
    sheets["attacker"]["text"] = sheets["attacker"]["text"].replace("100000", "150000")


def _post(data: dict[str, Any]) -> None:
    data["posts"]["text"] = data["posts"]["text"].replace("Solid", "Strategic")


def _approval(data: dict[str, Any]) -> None:
    data["document"]["filled"]["defender"].pop("approved_by")


@pytest.mark.parametrize(("change", "failed"), [
    (_total, {"digest", "figures", "posts"}),
    (_sheet, {"digest", "sheet attacker", "input", "figures", "posts"}),
    (_post, {"posts"}),
    (_approval, {"digest", "figures"}),  # without the approval the sheets do not score
])
def test_a_changed_result_fails(run: Any, published: dict[str, Any], tmp_path: Path,
                                change: Callable[[dict[str, Any]], None],
                                failed: set[str]) -> None:
    data = copy.deepcopy(published)
    change(data)
    result = run("verify", write(tmp_path, data), "--json")
    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout)
    assert {c["name"] for c in answer["checks"] if not c["ok"]} == failed


@pytest.mark.parametrize("data", [[], {"document": {}}, {"document": {
    "format": "fairfight-warscore-result", "version": 1, "kind": "battle", "sheets": {}}}])
def test_a_file_that_is_no_result_is_refused(run: Any, tmp_path: Path, data: Any) -> None:
    result = run("verify", write(tmp_path, data))
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("InputError: document")
