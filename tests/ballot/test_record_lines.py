"""The record's own lines checked as written: the reveal's reason is replayed like its scores,
and a header or reveal value taken only by conversion (`true` for a number) is refused."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest

from fairfight.ballot import make_bots, named_config, record_game
from fairfight.ballot.record import coerced_field, verify_record
from fairfight.core.errors import VerificationError

PLAYERS = ["pollster", "machine", "pollster", "machine"]


@cache
def recorded() -> tuple[dict[str, Any], ...]:
    _, lines = record_game(named_config("as-written-plus"), "1000", make_bots(PLAYERS))
    return tuple(lines)


def test_a_changed_reason_is_a_difference() -> None:
    lines = copy.deepcopy(list(recorded()))
    real = lines[-1]["reason"]
    lines[-1]["reason"] = "ratification" if real != "ratification" else "year-cap"
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {len(lines)}"
    assert caught.value.detail.startswith("reason: recorded") and repr(real) in caught.value.detail


@pytest.mark.parametrize(("line", "field", "value"), [
    (0, ("config", "players_min"), True), (0, ("config", "start_year"), 2028.0),
    (-1, ("scores", 0), "5"), (-1, ("winners", 0), False),
])
def test_a_converted_value_is_refused(line: int, field: tuple[Any, ...], value: Any) -> None:
    lines = copy.deepcopy(list(recorded()))
    target = lines[line]
    for step in field[:-1]:
        target = target[step]
    target[field[-1]] = value
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert "is not of the field's type" in caught.value.detail


def test_coerced_field_names_the_path() -> None:
    assert coerced_field({"a": [1, True]}, {"a": [1, 1]}) == "a[1]: True is not of the field's type"
    assert coerced_field({"a": 1}, {"a": 1, "b": 2}) is None   # defaults are not compared
    assert coerced_field({"a": "x"}, {"a": "x"}) is None


@pytest.mark.parametrize("kind", [[1, 2, 3], {"a": 1}, 7, None])
def test_a_decision_type_of_any_shape_is_a_named_difference(kind: Any) -> None:
    lines = copy.deepcopy(list(recorded()))
    number = next(n for n, line in enumerate(lines) if line.get("event") == "decision")
    lines[number]["choice"]["type"] = kind
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {number + 1}"
    assert "choice.type: not a decision" in caught.value.detail
