"""One home for every rule constant: `tables.py`, read by the engine, the kernel and engine.js."""

from __future__ import annotations

import ast
import enum
import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

from fairfight.conquest.forecast import kernel as forecast_kernel
from fairfight.conquest.rules import scenario, tables
from tests.conquest.verifiers import ENGINE_JS
from tests.system import node_path

NOT_IN_ENGINE_JS = {"BEACON_LEAD_SECONDS"}
"""Used only when a season is created (`conquest new`); a verifier asks only "after"."""


def _json_value(value: Any) -> Any:
    """A constant as engine.js reports it: fractions as "top/bottom", enums by value."""
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(_json_value(key)): _json_value(item) for key, item in value.items()}
    return value


def _constants() -> dict[str, Any]:
    return {
        name: getattr(tables, name)
        for name in tables.__all__
        if name.isupper() and not isinstance(getattr(tables, name), type)
    }


def test_engine_js_names_and_values_every_constant_as_tables_does() -> None:
    program = "process.stdout.write(JSON.stringify(require(process.argv[1]).tables()))"
    run = subprocess.run(
        [node_path(), "-e", program, str(ENGINE_JS)], capture_output=True, text=True, check=True
    )
    in_javascript = json.loads(run.stdout)
    expected = {
        name: _json_value(value)
        for name, value in _constants().items()
        if name not in NOT_IN_ENGINE_JS
    }
    assert in_javascript == expected


def test_engine_js_declares_no_constant_under_another_name() -> None:
    """Every upper-case `const` at the top of engine.js is a tables.py name or a verifier detail
    with no counterpart in the rules (the record file limit, the map and header keys, the zip
    rules it shares with core/records.py)."""
    source = ENGINE_JS.read_text(encoding="utf-8")
    declared = set()
    for line in source.splitlines():
        words = line.split()
        if line.startswith("  const ") and len(words) > 1 and words[1].isupper():
            declared.add(words[1])
    own = {
        "ARCHIVE_NAMES", "BEACON_KEYS", "BEACON_SPEC_KEYS", "FILE_LIMIT", "FIRST_ROUND_DRAW",
        "HEADER_KEYS", "HEAD_FIELDS", "HEAD_SIGNING_PREFIX", "LEDGER_KEYS", "MAP_KEYS", "NOTHING",
        "ONE", "PUBLISHED", "PUBLISHED_FORM", "PUBLISHED_PATTERN", "RECEIPT_FIELDS",
        "RECEIPT_FORMAT", "REFUND_FIELDS", "SURROGATE", "USAGE",
        # the optional header field of a timelocked seed and its keys (verifier.py has them)
        "TIMELOCK", "TIMELOCK_KEYS",
        # the zip rules, mirrored from core/records.py (tests/fuzz holds them equal)
        "ARCHIVE_MAGIC", "CRC_TABLE", "ZIP_RULES",
        # the text rule's words, as core/records.py has them (the shared table of cases in
        # tests/conquest/text_cases.py holds every verifier's message equal)
        "BYTE_ORDER_MARK_RULE",
    }
    assert declared - own <= set(_constants())
    assert set(_constants()) - NOT_IN_ENGINE_JS <= declared


def _kernel_numbers() -> list[tuple[int, Any]]:
    """Every number written in the forecast kernel's code, with its line; indexes into arrays
    (`trace[played, 3]`) are positions, not rules, and are left out, and so are the numbers of
    a module-level guard that refuses to import (`if tables.X != 5: raise ...`): it names the
    rule a hand-unrolled piece of the kernel was written for, so that a changed table stops
    the kernel instead of changing its answers silently."""
    tree = ast.parse(Path(forecast_kernel.__file__).read_text(encoding="utf-8"))
    indexes = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        for inner in ast.walk(node.slice)
        if isinstance(node.slice, ast.Constant | ast.Tuple)
    }
    indexes |= {
        id(inner)
        for node in tree.body
        if isinstance(node, ast.If) and all(isinstance(line, ast.Raise) for line in node.body)
        for inner in ast.walk(node.test)
    }
    negated = {
        id(node.operand)
        for node in ast.walk(tree)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    }
    return [
        (node.lineno, -node.value if id(node) in negated else node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        and id(node) not in indexes
    ]


def test_the_forecast_kernel_writes_no_rule_number() -> None:
    """Every rule number comes from tables.py. Left in the code: 0, 1 and -1 (nothing, one,
    none), -2 (two factions leave the count of attackers) and 6, 63, 64 (64-bit words)."""
    allowed = {0, 1, -1, -2, 6, 63, 64}
    assert [(line, value) for line, value in _kernel_numbers() if value not in allowed] == []


def test_scenario_reads_the_rating_range_from_the_tables() -> None:
    assert not hasattr(scenario, "MIN_RATING") and not hasattr(scenario, "MAX_RATING")
    field = scenario.Ratings.model_fields["P"].metadata
    bounds = {type(item).__name__: item for item in field}
    assert bounds["Ge"].ge == tables.RATING_MIN and bounds["Le"].le == tables.RATING_MAX
