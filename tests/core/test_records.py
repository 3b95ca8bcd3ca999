"""Canonical JSON: one spelling per value, floats refused."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairfight.core import records

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def test_canonical_form_sorts_keys_and_drops_spaces() -> None:
    value = {"b": [1, 2], "a": {"z": None, "y": "é"}}
    assert records.canonical_json(value) == '{"a":{"y":"é","z":null},"b":[1,2]}'.encode()


def test_digest_is_sha256_of_canonical_bytes() -> None:
    value = {"x": 1}
    assert records.digest(value) == hashlib.sha256(b'{"x":1}').hexdigest()


@pytest.mark.parametrize("bad", [1.5, {"a": [0.0]}, {1: "x"}, {"a": object()}, float("nan")])
def test_non_canonical_values_are_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        records.canonical_json(bad)


@given(json_values)
def test_key_order_does_not_change_the_bytes(value: object) -> None:
    if isinstance(value, dict):
        reordered = dict(reversed(list(value.items())))
        assert records.canonical_json(reordered) == records.canonical_json(value)


def test_jsonl_lines_are_canonical_one_a_line(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    records.write_jsonl(log, [{"n": 1}, {"tag": "x", "n": 2}])
    assert log.read_bytes() == b'{"n":1}\n{"n":2,"tag":"x"}\n'


def test_equal_values_have_no_difference() -> None:
    value = {"a": [1, {"b": None, "c": "x"}], "d": True}
    assert records.first_difference(value, {"d": True, "a": [1, {"c": "x", "b": None}]}) is None
    assert records.first_difference([], []) is None
    assert records.first_difference(7, 7) is None


@pytest.mark.parametrize(
    ("recorded", "replayed", "expected"),
    [
        (1, 2, ("value", 1, 2)),
        ({"a": {"b": 1}}, {"a": {"b": 2}}, ("a.b", 1, 2)),
        ({"a": [0, {"b": "x"}]}, {"a": [0, {"b": "y"}]}, ("a[1].b", "x", "y")),
        ([[1, 2]], [[1, 3]], ("[0][1]", 2, 3)),
        ({"a": 1}, {"a": 1, "b": 2}, ("b", records.ABSENT, 2)),
        ({"a": 1, "z": 0}, {"z": 0}, ("a", 1, records.ABSENT)),
        ({"e": [1, 2]}, {"e": [1, 2, 3]}, ("e length", 2, 3)),
        ({"e": [1, 2]}, {"e": [9]}, ("e[0]", 1, 9)),
        ({"n": 1}, {"n": True}, ("n", 1, True)),
        ({"n": 0}, {"n": None}, ("n", 0, None)),
        ({"n": "1"}, {"n": 1}, ("n", "1", 1)),
        ({"n": [1]}, {"n": {"0": 1}}, ("n", [1], {"0": 1})),
    ],
)
def test_the_first_difference_is_named_by_its_path(
    recorded: object, replayed: object, expected: tuple[str, object, object]
) -> None:
    assert records.first_difference(recorded, replayed) == expected


def test_keys_are_walked_in_sorted_order_whatever_the_insertion_order() -> None:
    recorded = {"b": 1, "a": 1}
    replayed = {"b": 2, "a": 2}
    assert records.first_difference(recorded, replayed) == ("a", 1, 2)


def test_a_prefix_is_put_before_the_path() -> None:
    assert records.first_difference({"card": 3}, {"card": 4}, "choice") == ("choice.card", 3, 4)


def test_absent_is_one_named_value() -> None:
    assert repr(records.ABSENT) == "ABSENT"
    assert records.ABSENT is not None


@given(json_values, json_values)
def test_a_difference_is_found_exactly_when_the_bytes_differ(a: object, b: object) -> None:
    found = records.first_difference(a, b)
    assert (found is None) == (records.canonical_json(a) == records.canonical_json(b))


def test_a_value_as_read_back_has_lists_for_tuples() -> None:
    assert records.as_read_back({"a": (1, (2, "x")), "b": None}) == {"a": [1, [2, "x"]], "b": None}
    assert records.first_difference(records.as_read_back((1, 2)), [1, 2]) is None
