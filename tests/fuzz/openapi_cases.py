"""Hostile requests generated from the service's own OpenAPI document.

For every operation it publishes: each top-level field of a JSON body gets the values a
coercing reader would wrongly accept for its declared type (text for a number, true for a
number, 1.0 for a whole number, a number for text or a flag), then values no reader should
choke on (huge and negative numbers, a lone surrogate, 10,000 levels of nesting, a long text),
and the body gets an unknown field; each integer path or query parameter gets 1.0, true,
40 and 5,000 digits and non-ASCII digits. A new route or field is fuzzed without anyone
listing it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Case", "WRONG_TYPES", "cases_of", "encoded", "json_body_operations"]

DEEP = 10_000

WRONG_TYPES: dict[str, list[Any]] = {
    "integer": ["1", True, False, 1.0, 0.0, "0x10", [1], {"n": 1}, None],
    "number": ["1.5", True, [1.5]],
    "boolean": ["true", "yes", 1, 0, 1.0, [True]],
    "string": [1, 0.5, True, ["x"], {"x": "y"}],
    "array": ["x", 1, {"0": "x"}, True],
    "object": ["x", 1, [1, 2], True],
}
"""Values of another JSON type than the one declared: a strict reader refuses every one (a
`null` counts only where the field may not be null)."""

ODD_VALUES: list[Any] = [
    10**40, -(10**40), 2**63, -(2**63) - 1, 9_223_372_036_854_775_807, -1, 1e308,
    "\ud800", "\udfff tail", "x" * 20_000, "../../etc/passwd", "", " ", "١٢", "0" * 5000,
]
"""Values of plausible types that no reader should crash on; the answer may be anything
short of a 5xx."""

PARAMETER_VALUES = ["1.0", "true", "9" * 40, "7" * 5000, "١", "1e3", "+1", " 1"]
"""Texts for an integer path or query parameter that are not plain digits in range: each is
refused."""
PARAMETER_EDGES = ["9" * 18, "-" + "9" * 18, "-1", "0", ""]
"""Plain digits at the edge of what is read (or an empty text): the answer may be anything
short of a 5xx (18 nines times a page size overflows the database if nothing bounds it)."""


@dataclass(frozen=True)
class Case:
    """One hostile request: method, path (parameters filled), query, and a body: raw bytes,
    or `changes` laid over a baseline (the one sampled from the schema here, or a known-good
    body the test holds for `template`, so only the changed field can be wrong)."""

    label: str
    method: str
    path: str
    query: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    template: str = ""
    baseline: dict[str, Any] = field(default_factory=dict)
    changes: dict[str, Any] | None = None
    wrong_type: str = ""
    """The body field given a value of the wrong type (its refusal must name it)."""
    parameter: str = ""
    """The integer parameter given a text that is not plain digits (must be refused)."""


def _resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = document["components"]["schemas"][name]
    return schema


def _types(document: dict[str, Any], schema: dict[str, Any]) -> tuple[set[str], bool]:
    """The JSON types a schema allows (one level of anyOf), and whether null is one."""
    schema = _resolve(document, schema)
    if "anyOf" in schema or "oneOf" in schema:
        kinds: set[str] = set()
        for option in schema.get("anyOf", []) + schema.get("oneOf", []):
            kinds |= _types(document, option)[0] or {"?"}
        return kinds - {"null"}, "null" in kinds
    if "const" in schema or "enum" in schema:
        return {"enum"}, False
    kind = schema.get("type")
    if isinstance(kind, list):
        return set(kind) - {"null"}, "null" in kind
    return ({kind} if kind else set()), False


def _sample(document: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A plausible value of a schema, for the fields beside the one under attack."""
    schema = _resolve(document, schema)
    if "default" in schema:
        return schema["default"]
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for option in schema.get("anyOf", []):
        if option.get("type") != "null":
            return _sample(document, option)
    kind = schema.get("type")
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1))
    if kind == "boolean":
        return True
    if kind == "string":
        return "x" * int(schema.get("minLength", 1))
    if kind == "array" and "prefixItems" in schema:
        return [_sample(document, item) for item in schema["prefixItems"]]
    if kind == "array":
        return [_sample(document, schema.get("items", {}))] * int(schema.get("minItems", 0))
    if kind == "object":
        return {name: _sample(document, part)
                for name, part in schema.get("properties", {}).items()
                if name in schema.get("required", [])}
    return None


def _filled(path: str, operation: dict[str, Any], hostile: tuple[str, str] | None) -> str:
    values = {parameter["name"]: "1" for parameter in operation.get("parameters", [])
              if parameter["in"] == "path"}
    if hostile is not None:
        values[hostile[0]] = hostile[1]
    return re.sub(r"\{([^}]+)\}", lambda found: values.get(found.group(1), "1"), path)


def json_body_operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, body schema) of every operation that declares a JSON body object."""
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                schema = _resolve(document, content["application/json"]["schema"])
                if schema.get("type") == "object" or "properties" in schema:
                    found.append((method.upper(), path, schema))
    return found


def encoded(body: Any) -> bytes:
    """A body as sent: JSON, a lone surrogate travelling as its escape."""
    return json.dumps(body).encode()


def _body_cases(document: dict[str, Any]) -> list[Case]:
    cases = []
    for method, path, schema in json_body_operations(document):
        operation = document["paths"][path][method.lower()]
        where = _filled(path, operation, None)
        baseline = _sample(document, schema)
        if not isinstance(baseline, dict):
            baseline = {}
        laid = {"template": path, "baseline": baseline}
        cases.append(Case(f"{method} {path} unknown field", method, where,
                          changes={"zz_not_a_field": 1}, **laid))
        cases.append(Case(f"{method} {path} deep body", method, where,
                          body=b'{"a":' * DEEP + b"1" + b"}" * DEEP))
        for name, part in schema.get("properties", {}).items():
            kinds, nullable = _types(document, part)
            if len(kinds) == 1 and next(iter(kinds)) in WRONG_TYPES:
                for wrong in WRONG_TYPES[next(iter(kinds))]:
                    if wrong is None and nullable:
                        continue
                    cases.append(Case(f"{method} {path} {name}={wrong!r:.20}", method, where,
                                      changes={name: wrong}, wrong_type=name, **laid))
            for odd in ODD_VALUES:
                cases.append(Case(f"{method} {path} {name}={odd!r:.20}", method, where,
                                  changes={name: odd}, **laid))
            cases.append(Case(f"{method} {path} {name} deep", method, where,
                              body=b'{"' + name.encode() + b'": ' + b"[" * DEEP + b"]" * DEEP
                              + b"}"))
    return cases


def _parameter_cases(document: dict[str, Any]) -> list[Case]:
    cases = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if path.endswith(("/events", "/stream")):
                continue  # endless streams: their parameters are checked before they start
            for parameter in operation.get("parameters", []):
                kinds, _ = _types(document, parameter.get("schema", {}))
                if kinds != {"integer"} or parameter["in"] not in ("path", "query"):
                    continue
                for text in PARAMETER_VALUES + PARAMETER_EDGES:
                    label = f"{method.upper()} {path} {parameter['name']}={text[:20]!r}"
                    strict = text in PARAMETER_VALUES
                    if parameter["in"] == "path":
                        if not text:
                            continue
                        cases.append(Case(label, method.upper(),
                                          _filled(path, operation, (parameter["name"], text)),
                                          parameter=parameter["name"] if strict else ""))
                    else:
                        cases.append(Case(label, method.upper(), _filled(path, operation, None),
                                          query={parameter["name"]: text},
                                          parameter=parameter["name"] if strict else ""))
    return cases


def cases_of(document: dict[str, Any]) -> list[Case]:
    """Every hostile request the document's operations call for, in a stable order."""
    return _body_cases(document) + _parameter_cases(document)
