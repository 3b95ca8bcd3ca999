"""The suite's own schedule: the files it starts first exist, and `make test` keeps its order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import LONGEST_FIRST, pytest_collection_modifyitems

ROOT = Path(__file__).resolve().parent.parent


def test_every_file_started_first_exists() -> None:
    missing = [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]
    assert not missing, f"LONGEST_FIRST names files that are gone: {missing}"
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)


def test_make_test_hands_out_files_in_collection_order() -> None:
    """Without --no-loadscope-reorder, xdist orders files by their number of tests and the
    long one-test files run last, whatever the collection order says."""
    recipe = (ROOT / "Makefile").read_text()
    assert "--dist loadfile --no-loadscope-reorder" in recipe


class _Item:
    """As much of a collected test as the ordering reads."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid

    def get_closest_marker(self, name: str) -> None:
        return None


def test_the_longest_files_move_to_the_front_in_their_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FAIRFIGHT_SLOW", raising=False)
    first, second = LONGEST_FIRST[0], LONGEST_FIRST[1]
    items = [_Item("tests/a_test.py::one"), _Item(f"{second}::x"), _Item("tests/b_test.py::two"),
             _Item(f"{first}::y"), _Item(f"{first}::z"), _Item("tests/a_test.py::three")]
    pytest_collection_modifyitems(None, items)  # type: ignore[arg-type]
    assert [item.nodeid for item in items] == [
        f"{first}::y", f"{first}::z", f"{second}::x",
        "tests/a_test.py::one", "tests/b_test.py::two", "tests/a_test.py::three"]
