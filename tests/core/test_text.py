"""The text rules: lone surrogates refused by path, nesting measured on the text before parsing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from fairfight.core.errors import InputError
from fairfight.core.text import (
    LONE_SURROGATE_RULE,
    MAX_DEPTH,
    check_json_nesting,
    check_yaml_nesting,
    json_depth_exceeds,
    lone_surrogate_path,
    may_spell_a_surrogate,
    require_valid_unicode,
    yaml_depth_exceeds,
)

ROOT = Path(__file__).resolve().parents[2]
YAML_FILES = sorted((ROOT / "examples").rglob("*.yaml"))


def _depth(value: object) -> int:
    """The nesting of a parsed value: a scalar 0, a flat list or mapping 1."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def test_a_lone_surrogate_is_found_by_its_path() -> None:
    value = json.loads('{"units": [{"name": "ok"}, {"name": "bad \\ud800"}]}')
    assert lone_surrogate_path(value) == "units[1].name"
    assert lone_surrogate_path(json.loads('"\\udfff"')) == "value"
    assert lone_surrogate_path(json.loads('{"\\udc00": 1}')) == "\\udc00"


def test_a_surrogate_pair_is_valid_text() -> None:
    text = '{"emoji": "\\ud83d\\ude00"}'
    assert lone_surrogate_path(json.loads(text)) is None
    require_valid_unicode(json.loads(text), "file", text)


def test_the_refusal_names_the_place_and_the_rule() -> None:
    text = '{"a": ["\\ud800"]}'
    with pytest.raises(InputError) as caught:
        require_valid_unicode(json.loads(text), "record.jsonl: line 3", text)
    assert caught.value.field == "record.jsonl: line 3: a[0]"
    assert caught.value.rule == LONE_SURROGATE_RULE
    caught.value.one_line().encode("utf-8")   # the message itself is printable


def test_text_without_an_escape_needs_no_walk() -> None:
    assert not may_spell_a_surrogate('{"a": "\\u00e9", "b": "plain"}')
    assert may_spell_a_surrogate('"\\uD800"')
    assert may_spell_a_surrogate('"\\U0000dc00"')   # the YAML spelling


def test_yaml_spells_surrogates_too() -> None:
    text = 'name: "\\ud800"\n'
    value = yaml.safe_load(text)
    assert may_spell_a_surrogate(text)
    assert lone_surrogate_path(value) == "name"


@pytest.mark.parametrize("depth", [1, 10, MAX_DEPTH, MAX_DEPTH + 1, 10_000])
def test_json_depth_is_measured_exactly(depth: int) -> None:
    text = '{"a":' * depth + "1" + "}" * depth
    assert json_depth_exceeds(text) is (depth > MAX_DEPTH)
    mixed = "[" * depth + "]" * depth
    assert json_depth_exceeds(mixed) is (depth > MAX_DEPTH)


def test_brackets_inside_json_strings_do_not_count() -> None:
    text = json.dumps({"note": "[" * 500, "escaped": '\\"[[[[' * 50})
    assert not json_depth_exceeds(text)


def test_json_nesting_is_refused_before_the_parser_runs() -> None:
    text = "[" * 100_000 + "]" * 100_000   # past Python's recursion limit
    assert sys.getrecursionlimit() < 100_000
    with pytest.raises(InputError, match=f"nested more than {MAX_DEPTH} levels deep"):
        check_json_nesting(text, "deep.json")


@pytest.mark.parametrize("text", [
    "a: " + "[" * 10_000 + "]" * 10_000 + "\n",            # flow
    "- " * 10_000 + "1\n",                                   # compact block sequences
    "".join(" " * level + "k:\n" for level in range(200)),   # indentation
    "a: {b: " + "[" * 70 + "]" * 70 + "}\n",                 # flow inside block inside flow
    "x:\n  y:\n" + "    - " * 1 + "- " * 70 + "z\n",
])
def test_deep_yaml_is_refused_on_its_text(text: str) -> None:
    with pytest.raises(InputError, match="nested more than"):
        check_yaml_nesting(text, "deep.yaml")


@pytest.mark.parametrize("path", YAML_FILES, ids=[p.name for p in YAML_FILES])
def test_real_yaml_files_measure_close_to_their_depth(path: Path) -> None:
    text = path.read_text("utf-8")
    real = _depth(yaml.safe_load(text))
    assert yaml_depth_exceeds(text, real + 1) is None
    assert yaml_depth_exceeds(text, real - 1) is not None


def test_yaml_text_in_quotes_comments_and_block_scalars_is_not_nesting() -> None:
    text = ("a: '[[[[[['\n"
            "b: \"{{{{\"  # [[[[[[\n"
            "c: |\n"
            "  [[[[[[[[\n"
            "      {{{{{{{{\n"
            "d: plain[text\n")
    assert yaml_depth_exceeds(text, 1) is None
    assert _depth(yaml.safe_load(text)) == 1
