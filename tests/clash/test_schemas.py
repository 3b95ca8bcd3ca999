"""The published JSON Schemas: every field described, and the engine's own documents valid.

No JSON Schema library is a dependency, so the examples are checked two ways: through the
pydantic models behind the schemas (a round trip that must give the document back), and by
a small validator below for the keywords these schemas use (types, properties, required,
additional and pattern properties, items, enums, constants, bounds, patterns, references,
anyOf, oneOf).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.clash.ai import ai_orders
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.orders import TurnOrders, parse_orders
from fairfight.clash.record import GameRecord, merge_orders
from fairfight.clash.scenario import load_scenario
from fairfight.clash.schemas import (
    SCHEMA_KINDS,
    OutcomeModel,
    RecordHeader,
    RecordTurn,
    json_schema,
)
from fairfight.clash.spec import parse_spec
from fairfight.cli import app
from fairfight.inputs import load_yaml

from .world_helpers import EXAMPLES

SPECS = Path(__file__).resolve().parents[2] / "examples" / "clash"
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def problems(schema: dict[str, Any], value: Any, root: dict[str, Any], where: str = "$"
             ) -> list[str]:
    """Where `value` breaks `schema` (the keywords these schemas use), as paths."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        return problems(root["$defs"][name], value, root, where)
    found: list[str] = []
    if "anyOf" in schema and all(problems(s, value, root, where) for s in schema["anyOf"]):
        found.append(f"{where}: matches none of anyOf")
    if "oneOf" in schema and sum(not problems(s, value, root, where)
                                 for s in schema["oneOf"]) != 1:
        found.append(f"{where}: does not match exactly one of oneOf")
    kind = schema.get("type")
    if kind == "integer":
        if not isinstance(value, int) or isinstance(value, bool):
            return [f"{where}: not an integer"]
    elif kind is not None and not isinstance(value, TYPES[kind]) or (
            kind in ("object", "string", "array", "null") and isinstance(value, bool)):
        return [f"{where}: not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in enum")
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: not {schema['const']!r}")
    if isinstance(value, int) and not isinstance(value, bool) and not (
            schema.get("minimum", value) <= value <= schema.get("maximum", value)):
        found.append(f"{where}: {value} out of bounds")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            found.append(f"{where}: does not match {schema['pattern']}")
        if not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value)):
            found.append(f"{where}: length")
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            found.append(f"{where}: item count")
        prefix = schema.get("prefixItems", [])
        for index, item in enumerate(value):
            item_schema = prefix[index] if index < len(prefix) else schema.get("items")
            if item_schema is not None:
                found += problems(item_schema, item, root, f"{where}[{index}]")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        found += [f"{where}.{name}: missing" for name in schema.get("required", [])
                  if name not in value]
        extra = schema.get("additionalProperties", True)
        patterns = schema.get("patternProperties", {})
        for name, item in value.items():
            matching = [s for pattern, s in patterns.items() if re.search(pattern, name)]
            if name in properties:
                found += problems(properties[name], item, root, f"{where}.{name}")
            elif matching:
                for item_schema in matching:
                    found += problems(item_schema, item, root, f"{where}.{name}")
            elif patterns and extra is True:
                found.append(f"{where}.{name}: matches no pattern")
            elif extra is False:
                found.append(f"{where}.{name}: not allowed")
            elif isinstance(extra, dict):
                found += problems(extra, item, root, f"{where}.{name}")
    return found


def undescribed(schema: dict[str, Any]) -> list[str]:
    """Properties of every object in the schema that carry no description."""
    missing = []
    for name, definition in {"(root)": schema, **schema.get("$defs", {})}.items():
        for field, item in definition.get("properties", {}).items():
            if not item.get("description"):
                missing.append(f"{name}.{field}")
    return missing


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_every_field_of_every_schema_is_described(kind: str) -> None:
    schema = json_schema(kind)
    assert schema["$schema"].endswith("2020-12/schema") and schema["title"]
    assert undescribed(schema) == []


def test_the_validator_can_refuse() -> None:
    schema = json_schema("orders")
    assert problems(schema, {"orders": {"gun-1": {"priority": 12}}}, schema)
    assert problems(schema, {"orders": {"gun-1": {"actions": [{"do": "fly"}]}}}, schema)
    assert problems(schema, {"orderz": {}}, schema)
    assert not problems(schema, {"orders": {"gun-1": {"priority": 1}}}, schema)


@pytest.mark.parametrize("name", ["belvoir-wood.yaml", "siege.yaml"])
def test_the_example_scenarios_are_valid(name: str) -> None:
    data = load_yaml(EXAMPLES / name)
    schema = json_schema("scenario")
    assert problems(schema, data, schema) == []


def _game(turns: int) -> tuple[GameRecord, list[dict[str, Any]]]:
    scenario = load_scenario(EXAMPLES / "belvoir-wood.yaml")
    record = GameRecord(scenario, ai_players=tuple(p.id for p in scenario.players))
    world = record.start()
    for _ in range(turns):
        orders = merge_orders([ai_orders(world, p.id) for p in scenario.players])
        world = record.play(world, orders).world
    lines = [record.header(), *record.turns]
    return record, json.loads(json.dumps(lines))


def test_the_orders_of_a_game_and_of_the_docs_are_valid() -> None:
    schema = json_schema("orders")
    _, lines = _game(2)
    siege = {"orders": {
        "gun-1": {"stance": "hold", "priority": 1, "actions": [{"do": "bombard",
                                                                "target": [2, 2]}]},
        "tank-1": {"stance": "advance", "actions": [
            {"do": "assault", "target": [2, 2], "supporters": []}]},
        "rifles-b": {"stance": "entrench"}}}
    for orders in (siege, *(line["orders"] for line in lines[1:])):
        assert problems(schema, orders, schema) == []
        model = TurnOrders.model_validate(orders)
        assert TurnOrders.model_validate(model.model_dump(mode="json")) == model
    world = load_scenario(EXAMPLES / "siege.yaml")
    assert parse_orders(GameRecord(world).start(), siege).orders["gun-1"].priority == 1


def test_every_line_of_a_record_is_valid() -> None:
    schema = json_schema("record")
    _, lines = _game(3)
    header, *turns = lines
    assert problems(schema, header, schema) == []
    assert problems(schema["$defs"]["RecordHeader"], header, schema) == []
    assert RecordHeader.model_validate(header).model_dump(
        mode="json", by_alias=True, exclude_none=True) == header
    for line in turns:
        assert problems(schema, line, schema) == []
        assert problems(schema["$defs"]["RecordTurn"], line, schema) == []
        assert RecordTurn.model_validate(line).model_dump(
            mode="json", by_alias=True, exclude_none=True)["turn"] == line["turn"]
    kinds = {event["event"] for line in turns for event in line["events"]}
    assert {"turn", "orders", "clash", "end"} <= kinds


@pytest.mark.parametrize("name", ["worked-example.json", "siege-bombardment.json",
                                  "reaction-ambush.json"])
def test_outcomes_are_valid_and_round_trip(name: str) -> None:
    schema = json_schema("outcome")
    spec = parse_spec(json.loads((SPECS / name).read_text(encoding="utf-8")))
    for r in (0, 617, 999):
        outcome = json.loads(json.dumps(resolve_exchange(spec, r).to_json()))
        assert problems(schema, outcome, schema) == []
        assert OutcomeModel.model_validate(outcome).model_dump(
            mode="json", by_alias=True) == outcome


def test_a_clash_events_outcome_is_an_outcome() -> None:
    _, lines = _game(2)
    schema = json_schema("outcome")
    clashes = [e for line in lines[1:] for e in line["events"] if e["event"] == "clash"]
    assert clashes
    for event in clashes:
        assert problems(schema, event["outcome"], schema) == []


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_the_command_prints_each_schema(kind: str) -> None:
    result = CliRunner().invoke(app, ["clash", "schema", "--kind", kind, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json_schema(kind)


def test_an_unknown_kind_is_one_line_naming_the_option() -> None:
    result = CliRunner().invoke(app, ["clash", "schema", "--kind", "army"])
    assert result.exit_code == 2
    assert "--kind" in result.output


def test_a_full_validator_agrees_where_one_is_installed() -> None:
    """jsonschema_rs comes with the API fuzzer of the dev tools; it is not a dependency."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    _, lines = _game(2)
    record = jsonschema_rs.validator_for(json_schema("record"))
    assert all(record.is_valid(line) for line in lines)
    scenario = jsonschema_rs.validator_for(json_schema("scenario"))
    assert scenario.is_valid(load_yaml(EXAMPLES / "siege.yaml"))
    assert not scenario.is_valid({"seed_key": "x"})
    outcome = jsonschema_rs.validator_for(json_schema("outcome"))
    event = next(e for line in lines[1:] for e in line["events"] if e["event"] == "clash")
    assert outcome.is_valid(event["outcome"])
