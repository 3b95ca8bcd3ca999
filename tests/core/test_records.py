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


def test_jsonl_round_trip(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    records.write_jsonl(log, [{"n": 1}])
    records.append_jsonl(log, {"n": 2, "tag": "x"})
    assert list(records.read_jsonl(log)) == [{"n": 1}, {"n": 2, "tag": "x"}]
    assert log.read_bytes() == b'{"n":1}\n{"n":2,"tag":"x"}\n'


def test_jsonl_names_a_broken_line(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_bytes(b'{"n":1}\n{broken\n')
    with pytest.raises(ValueError, match="line 2"):
        list(records.read_jsonl(log))
