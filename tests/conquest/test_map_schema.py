"""The committed JSON Schema is the one the pydantic models generate, and the map fits it."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from fairfight.conquest.rules.scenario import load_map, map_schema


def committed_schema() -> dict[str, Any]:
    text = (
        resources.files("fairfight.conquest")
        .joinpath("maps", "map.schema.json")
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


def test_committed_schema_equals_the_generated_one() -> None:
    assert committed_schema() == map_schema()


def test_schema_names_every_required_key_and_enum() -> None:
    schema = committed_schema()
    defs = schema["$defs"]
    assert set(schema["required"]) == {"name", "regions", "borders"}
    assert set(defs["Region"]["required"]) == {
        "code",
        "name",
        "population",
        "population_year",
        "population_basis",
        "ratings",
        "special",
    }
    assert set(defs["Ratings"]["required"]) == {"P", "S", "M", "R", "U"}
    for category in "PSMRU":
        rating = defs["Ratings"]["properties"][category]
        assert (rating["minimum"], rating["maximum"]) == (1, 10)
    assert defs["Special"]["properties"]["category"]["enum"] == ["P", "S", "M", "R", "U"]
    assert defs["BorderKind"]["enum"] == ["land", "sea"]
    assert defs["PopulationBasis"]["enum"] == ["census", "estimate", "official"]
    assert defs["SourceStatus"]["enum"] == ["sourced", "unsourced"]
    assert set(defs["Border"]["required"]) == {"a", "b", "kind"}


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        resolved: dict[str, Any] = schema["$defs"][node["$ref"].split("/")[-1]]
        return resolved
    return node


def _check(schema: dict[str, Any], node: dict[str, Any], value: Any, where: str) -> None:
    """A small structural validator: required keys, no extra keys, enums, integer bounds."""
    node = _resolve(schema, node)
    if "anyOf" in node:
        options = [_resolve(schema, option) for option in node["anyOf"]]
        if value is None:
            assert any(option.get("type") == "null" for option in options), where
            return
        node = next(option for option in options if option.get("type") != "null")
    if "enum" in node:
        assert value in node["enum"], where
    kind = node.get("type")
    if kind == "object":
        assert isinstance(value, dict), where
        assert set(node.get("required", [])) <= set(value), where
        assert set(value) <= set(node["properties"]), where
        for key, item in value.items():
            _check(schema, node["properties"][key], item, f"{where}.{key}")
    elif kind == "array":
        assert isinstance(value, list), where
        for index, item in enumerate(value):
            _check(schema, node["items"], item, f"{where}[{index}]")
    elif kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), where
        assert node.get("minimum", value) <= value <= node.get("maximum", value), where
    elif kind == "string":
        assert isinstance(value, str), where
    elif kind == "boolean":
        assert isinstance(value, bool), where


def test_shipped_map_fits_the_schema() -> None:
    schema = committed_schema()
    _check(schema, schema, load_map(), "map")


def test_the_structural_check_can_fail() -> None:
    schema = committed_schema()
    data = load_map()
    data["regions"][0]["ratings"]["P"] = 11
    try:
        _check(schema, schema, data, "map")
    except AssertionError as error:
        assert "regions[0].ratings.P" in str(error)
    else:
        raise AssertionError("a rating of 11 passed the schema check")
