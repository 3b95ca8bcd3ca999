"""The specification: validation naming the field [CB-290..CB-340] and canonical bytes [CB-320]."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from fairfight.clash.spec import ClashSpec, check_resolvable, parse_spec
from fairfight.core.errors import InputError, RuleError

EXAMPLE = Path(__file__).parents[2] / "examples" / "clash" / "worked-example.json"


def _bad(worked: dict[str, Any], edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(worked["spec"])
    edit(data)
    return data


def _set(path: str, value: Any) -> Any:
    def edit(data: dict[str, Any]) -> None:
        *parents, leaf = path.split(".")
        node = data
        for part in parents:
            node = node[part]
        node[leaf] = value
    return edit


CASES = [
    ("terrain", _set("terrain", "swamp"), "Input should be"),
    ("lead.strength", _set("lead.strength", 150), "less than or equal to 100"),
    ("defender.strength", _set("defender.strength", "78"), "valid integer"),
    ("lead.grade", _set("lead.grade", "legendary"), "Input should be"),
    ("supporters", lambda d: d["supporters"].extend([d["supporters"][0]] * 2), "at most 2"),
    ("supporters", lambda d: d.update(kind="reaction"), "no supporters"),
    ("supporters", lambda d: d.update(kind="bombardment"), "no supporters"),
    ("lead", _set("lead.stance", "march"), "march"),
    ("defender_extra_mods", _set("defender_extra_mods", -100), "caught"),
    ("volatility_floor", _set("volatility_floor", 300), "250 or 600"),
    ("flankers", _set("flankers", 9), "less than or equal to 8"),
    ("lead.strength", _set("lead.strength", 92.0), "valid integer"),
    ("kind", _set("kind", "disengagement"), "disengagement"),
    ("lead.colour", _set("lead.colour", "red"), "Extra inputs"),
    ("defender.dig_in", _set("defender.dig_in", 5), "less than or equal to 4"),
]


@pytest.mark.parametrize(("field", "edit", "message"), CASES)
def test_bad_input_names_the_field(worked: dict[str, Any], field: str, edit: Any,
                                   message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_spec(_bad(worked, edit))
    assert caught.value.field == field
    assert message in caught.value.rule
    assert "\n" not in caught.value.one_line()


def test_strength_zero_is_refused_before_resolution(worked: dict[str, Any]) -> None:
    """CB-340: a well-formed spec with nobody to fight is refused as a rule, not bad input."""
    spec = parse_spec(_bad(worked, _set("lead.strength", 0)))
    with pytest.raises(RuleError, match="lead.strength"):
        check_resolvable(spec)


def test_canonical_bytes(worked: dict[str, Any], worked_spec: ClashSpec) -> None:
    """One byte form: sorted keys, no spaces, every field spelled out [CB-320, CB-360]."""
    data = worked_spec.canonical_bytes()
    assert b" " not in data
    decoded = json.loads(data)
    assert list(decoded) == sorted(decoded)
    assert decoded["lead"]["def"] == 38
    assert parse_spec(decoded).canonical_bytes() == data
    shuffled = dict(reversed(list(worked["spec"].items())))
    assert parse_spec(shuffled).canonical_bytes() == data
    with pytest.raises(Exception):  # noqa: B017 - frozen
        worked_spec.terrain = "open"  # type: ignore[misc]


def test_shipped_example_is_the_golden_spec(worked_spec: ClashSpec) -> None:
    example = parse_spec(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert example.canonical_bytes() == worked_spec.canonical_bytes()


def test_canonical_bytes_are_sorted_compact_json_of_every_field(worked: dict[str, Any]) -> None:
    """CB-320: the byte form is the full spec (defaults spelled out) as JSON with sorted keys
    and no whitespace, built here with the standard library from the golden spec."""
    expected = json.dumps(worked["spec"], sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    sparse = copy.deepcopy(worked["spec"])
    for key in ("stack_extra", "attacker_edge_mods", "defender_extra_mods", "in_own_city",
                "encircled", "volatility_floor"):
        del sparse[key]
    for unit in (sparse["lead"], sparse["defender"], *sparse["supporters"]):
        del unit["works"], unit["shaken"]
    assert parse_spec(sparse).canonical_bytes() == expected


def test_an_absent_defender_is_refused(worked: dict[str, Any]) -> None:
    """CB-340: no defender, no clash; the message names the field."""
    data = copy.deepcopy(worked["spec"])
    del data["defender"]
    with pytest.raises(InputError) as caught:
        parse_spec(data)
    assert caught.value.field == "defender"
