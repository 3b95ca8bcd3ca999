"""The commands, through the root application [CliRunner on fairfight.cli:app]."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.cli import app

runner = CliRunner()
EXAMPLE = str(Path(__file__).parents[2] / "examples" / "clash" / "worked-example.json")


def _write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_resolve_golden(worked: dict[str, Any]) -> None:
    result = runner.invoke(app, ["clash", "resolve", EXAMPLE, "--r", "617", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = worked["resolution"]
    for key in ("a", "d", "volatility", "reliability", "resolve_attacker", "resolve_defender",
                "s", "a_eff", "d_eff", "share_a", "share_d", "ld", "la", "shock_defender",
                "shock_attacker", "defender_breaks", "attacker_falters", "contributions"):
        assert data[key] == expected[key], key
    assert data["after"]["defender"]["strength"] == 43
    assert data["after"]["supporters"][0]["strength"] == 93


def test_resolve_text() -> None:
    result = runner.invoke(app, ["clash", "resolve", EXAMPLE, "--r", "617"])
    assert result.exit_code == 0 and "A 97 : D 74" in result.stdout


def test_preview_json_and_panel(worked: dict[str, Any]) -> None:
    result = runner.invoke(app, ["clash", "preview", EXAMPLE, "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    for key in ("ld_band", "la_band", "shock_defender_band", "break_permille",
                "falter_permille"):
        assert data[key] == worked["preview"][key]
    assert data["evaluations"] <= 33 and "pivots" not in data
    panel = runner.invoke(app, ["clash", "preview", EXAMPLE])
    assert panel.exit_code == 0 and "ODDS 97 : 74" in panel.stdout


def test_preview_with_fog() -> None:
    result = runner.invoke(app, ["clash", "preview", EXAMPLE, "--json",
                                 "--unobserved", "grade,supply_tier"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ranges"]["break_permille"] == [44, 1000]
    assert [pivot["field"] for pivot in data["pivots"]] == ["defender.grade",
                                                           "defender.supply_tier"]
    assert [pivot["threshold"] for pivot in data["pivots"]] == ["veteran", None]
    assert data["pivots"][1]["marking"] == "does not change the verdict"
    bad = runner.invoke(app, ["clash", "preview", EXAMPLE, "--unobserved", "mood"])
    assert bad.exit_code == 2 and "--unobserved" in bad.output


def _edit(worked: dict[str, Any], change: Any) -> dict[str, Any]:
    data = copy.deepcopy(worked["spec"])
    change(data)
    return data


BAD = [
    ("terrain", lambda d: d.update(terrain="swamp")),
    ("lead.strength", lambda d: d["lead"].update(strength=150)),
    ("supporters", lambda d: d["supporters"].extend([d["supporters"][0]] * 2)),
    ("supporters", lambda d: d.update(kind="reaction")),
]


@pytest.mark.parametrize(("field", "change"), BAD)
@pytest.mark.parametrize("command", ["resolve", "preview"])
def test_bad_spec_exit_2_one_line(tmp_path: Path, worked: dict[str, Any], field: str,
                                  change: Any, command: str) -> None:
    path = _write(tmp_path, _edit(worked, change))
    args = ["clash", command, path] + (["--r", "5"] if command == "resolve" else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"InputError: {field}:")
    assert "Traceback" not in result.output


def test_bad_draw_missing_file_and_broken_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["clash", "resolve", EXAMPLE, "--r", "1000"])
    assert result.exit_code == 2 and "InputError: r:" in result.output
    missing = runner.invoke(app, ["clash", "preview", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "file not found" in missing.output
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = runner.invoke(app, ["clash", "preview", str(broken)])
    assert result.exit_code == 2 and "line 1" in result.output


def test_zero_strength_is_refused(tmp_path: Path, worked: dict[str, Any]) -> None:
    path = _write(tmp_path, _edit(worked, lambda d: d["defender"].update(strength=0)))
    result = runner.invoke(app, ["clash", "resolve", path, "--r", "5"])
    assert result.exit_code == 2 and "RuleError: defender.strength" in result.output


def test_rules_sweep_oracle_draw() -> None:
    rules = runner.invoke(app, ["clash", "rules"])
    assert rules.exit_code == 0 and "combat logic version 1" in rules.stdout
    sweep = runner.invoke(app, ["clash", "sweep", "--json", "--workers", "1"])
    assert sweep.exit_code == 0, sweep.output
    assert json.loads(sweep.stdout)["passed"] is True
    draw = runner.invoke(app, ["clash", "draw", "game", "1", "2", "0"])
    assert draw.exit_code == 0 and 0 <= int(draw.stdout) < 1000
    bad = runner.invoke(app, ["clash", "draw", "bad key!", "1", "2", "0"])
    assert bad.exit_code == 2


def test_a_range_marks_its_field_unobserved() -> None:
    result = runner.invoke(app, ["clash", "preview", EXAMPLE, "--json",
                                 "--strength-range", "40-100"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["provisional"] == ["defender.strength"] and data["cases"] == 61
    assert data["estimated"] is True and data["command_win_permille"] == 400
    bad = runner.invoke(app, ["clash", "preview", EXAMPLE, "--strength-range", "high"])
    assert bad.exit_code == 2 and "--strength-range" in bad.output


@pytest.mark.parametrize("name", sorted(p.name for p in Path(EXAMPLE).parent.glob("*.json")))
def test_every_shipped_example_previews(name: str) -> None:
    path = str(Path(EXAMPLE).parent / name)
    result = runner.invoke(app, ["clash", "preview", path, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["evaluations"] <= 33


def test_oracle_command() -> None:
    result = runner.invoke(app, ["clash", "oracle", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == {"cases": 5376, "mismatches": 0, "most_evaluations": data["most_evaluations"],
                    "passed": True, "first_mismatches": []}
    assert data["most_evaluations"] <= 33


def test_resolve_prints_the_reconciliation_line() -> None:
    """Section 23 and CB-2440: predicted 26-41, the draw 617 gives a defender loss of 35."""
    from pathlib import Path

    from typer.testing import CliRunner

    from fairfight.cli import app

    example = Path(__file__).resolve().parents[2] / "examples" / "clash" / "worked-example.json"
    result = CliRunner().invoke(app, ["clash", "resolve", str(example), "--r", "617"])
    assert result.exit_code == 0
    assert "predicted 26–41, actual 35 (their loss)" in result.stdout
    assert "predicted 14–25, actual 18 (your loss)" in result.stdout
