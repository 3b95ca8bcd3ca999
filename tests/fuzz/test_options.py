"""Every integer option and argument of every command, fed numbers that are not plain digits,
and the documented ranges fed values just outside them."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st

from fairfight.cli import RULESETS
from fairfight.clitypes import integer_annotation
from tests.fuzz.conftest import assert_refused, invoke

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "examples" / "clash" / "worked-example.json"
TINY_MAP = ROOT / "examples" / "conquest" / "tiny-record" / "map.json"
NOT_PLAIN = ["10.0", "+10", "6_17", "617.0", "1e3", "", " 10", "0x10", "1,000", "ten", "-",
             "１０", "٣", "9" * 40, "nan", "10 ", "--5"]


def integer_parameters() -> list[tuple[str, str, Any]]:
    """(ruleset, verb, parameter) for every integer parameter of every command."""
    found = []
    for ruleset in sorted(RULESETS):
        group = typer.main.get_command(importlib.import_module(f"fairfight.{ruleset}.cli").app)
        for verb, command in sorted(group.commands.items()):  # type: ignore[attr-defined]
            for param in command.params:
                if integer_annotation(param.type_descriptor.annotation):
                    found.append((ruleset, verb, param))
    return found


def command_line(ruleset: str, verb: str, target: Any, text: str) -> list[str]:
    """The verb with placeholder values for its other required parameters and `text` for
    the parameter under test."""
    group = typer.main.get_command(importlib.import_module(f"fairfight.{ruleset}.cli").app)
    command = group.commands[verb]  # type: ignore[attr-defined]
    words = [ruleset, verb]
    for param in command.params:
        if param.param_type_name == "argument":
            words.append(text if param.name == target.name else "1")
        elif param.name == target.name:
            words += [param.opts[0], text]
    return words


PARAMETERS = integer_parameters()


def test_every_ruleset_has_integer_options() -> None:
    assert {ruleset for ruleset, _, _ in PARAMETERS} == set(RULESETS)


@pytest.mark.parametrize("text", NOT_PLAIN)
@pytest.mark.parametrize(("ruleset", "verb", "param"), PARAMETERS,
                         ids=[f"{r} {v} {p.name}" for r, v, p in PARAMETERS])
def test_integer_parameters_take_plain_digits_only(
    ruleset: str, verb: str, param: Any, text: str
) -> None:
    line = assert_refused(invoke(*command_line(ruleset, verb, param, text)), codes=(2,))
    assert any(word in line for word in ("whole number", "digits", "Missing", "No such option"))


@given(st.text(max_size=12).filter(lambda s: not s.lstrip("-").isascii()
                                   or not s.lstrip("-").isdigit() or s.count("-") > 1
                                   or (s.startswith("-") is False and "-" in s)))
def test_any_non_integer_draw_is_one_line(text: str) -> None:
    result = invoke("clash", "resolve", WORKED, "--r", text)
    assert_refused(result, codes=(2,), given=text)


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("season") / "s.db"
    created = invoke("conquest", "new", path, "--map", TINY_MAP, "--seed", "ab" * 32)
    assert created.exit_code == 0, created.output
    return path


OUT_OF_RANGE: list[list[object]] = [
    ["clash", "resolve", WORKED, "--r", "-1"],
    ["clash", "resolve", WORKED, "--r", "1000"],
    ["clash", "resolve", WORKED, "--r", "999999999999999999"],
    ["clash", "sweep", "--workers", "0"],
    ["clash", "sweep", "--workers", "999999999999999999"],
    ["clash", "draw", "key", "-1", "0", "0"],
    ["clash", "preview", WORKED, "--strength-range", "0-999999999999999999999"],
    ["ballot", "odds", "--max-edge", "-1"],
    ["ballot", "odds", "--max-edge", "999999999999999999"],
    ["ballot", "play", "--years", "0"],
    ["ballot", "play", "--human", "-1"],
    ["ballot", "play", "--human", "999999999999999999"],
    ["ballot", "simulate", "--games", "0"],
    ["ballot", "simulate", "--games", "999999999999999999"],
    ["ballot", "simulate", "--jobs", "0"],
    ["ballot", "simulate", "--seed-base", "-1"],
    ["warscore", "war", ROOT / "examples" / "warscore" / "war_of_the_ring.yaml",
     "--year", "999999999999999999"],
]
SEASON_OUT_OF_RANGE: list[list[str]] = [
    ["next", "{season}", "--count", "0"],
    ["next", "{season}", "--count", "-3"],
    ["show", "{season}", "--battle", "999999999999999999"],
    ["show", "{season}", "--battle", "-1"],
    ["contribute", "{season}", "AA", "999999999999999999"],
    ["contribute", "{season}", "AA", "-5"],
]


@pytest.mark.parametrize("words", OUT_OF_RANGE, ids=lambda w: " ".join(map(str, w[:2] + w[-2:])))
def test_values_outside_the_documented_ranges(words: list[object]) -> None:
    assert_refused(invoke(*words), codes=(2,))


@pytest.mark.parametrize("words", SEASON_OUT_OF_RANGE, ids=" ".join)
def test_season_numbers_outside_their_ranges(words: list[str], season: Path) -> None:
    args = [str(season) if word == "{season}" else word for word in words]
    assert_refused(invoke("conquest", *args), codes=(2,))


@pytest.mark.parametrize("words", [
    ["conquest", "new", "{tmp}/s.db", "--max-battles", "0"],
    ["conquest", "new", "{tmp}/s.db", "--max-battles", "999999999999999999"],
    ["conquest", "new", "{tmp}/s.db", "--beacon-round", "0"],
    ["conquest", "new", "{tmp}/s.db", "--beacon-round", "999999999999999999"],
], ids=lambda w: " ".join(w[-2:]))
def test_season_settings_outside_their_ranges(words: list[str], tmp_path: Path) -> None:
    args = [word.replace("{tmp}", str(tmp_path)) for word in words]
    assert_refused(invoke(*args, "--map", TINY_MAP), codes=(2,))
