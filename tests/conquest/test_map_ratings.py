"""Ratings and specials: the committed map matches the rule re-run on the indicator table."""

from __future__ import annotations

import importlib.util
import sys
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fairfight.conquest.rules.scenario import load_map

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.fixture(scope="module")
def rule() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conquest_ratings", TOOLS / "conquest_ratings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    return load_map()


def test_committed_ratings_are_the_rule_applied_to_the_table(
    rule: ModuleType, shipped: dict[str, Any]
) -> None:
    computed = rule.ratings_from_table()
    assert {r["code"]: r["ratings"] for r in shipped["regions"]} == computed


def test_committed_specials_are_the_rule_applied_to_the_table(
    rule: ModuleType, shipped: dict[str, Any]
) -> None:
    computed = rule.specials_from_table()
    for region in shipped["regions"]:
        assert region["special"] == computed[region["code"]]


def test_decile_rule_by_hand(rule: ModuleType) -> None:
    # 20 distinct values: the k-th smallest (k = 0..19) has k values below it,
    # so its rating is 1 + 10k // 20 = 1 + k // 2.
    values = {f"R{k:02d}": Fraction(k * 7) for k in range(20)}
    ratings = rule.decile_ratings(values)
    assert [ratings[f"R{k:02d}"] for k in range(20)] == [1 + k // 2 for k in range(20)]


def test_decile_rule_gives_ties_the_same_rating(rule: ModuleType) -> None:
    values = {"A": Fraction(1), "B": Fraction(5), "C": Fraction(5), "D": Fraction(9)}
    # below: A 0, B 1, C 1, D 3 -> 1 + 10*below // 4
    assert rule.decile_ratings(values) == {"A": 1, "B": 3, "C": 3, "D": 8}


def test_ratings_span_the_scale(shipped: dict[str, Any]) -> None:
    for category in "PSMRU":
        seen = {region["ratings"][category] for region in shipped["regions"]}
        assert min(seen) == 1 and max(seen) == 10, category


@pytest.mark.parametrize(
    ("code", "category", "rating"),
    [
        ("US-DC", "P", 10),  # highest output per person on the map
        ("CA-NU", "S", 10),  # largest area
        ("CA-NU", "M", 1),  # sparsest
        ("US-AK", "R", 10),  # Denali
        ("US-DE", "U", 10),  # first state (1787)
        ("CA-NU", "U", 1),  # created 1999
    ],
)
def test_extremes_land_where_the_indicators_say(
    shipped: dict[str, Any], code: str, category: str, rating: int
) -> None:
    by_code = {r["code"]: r for r in shipped["regions"]}
    assert by_code[code]["ratings"][category] == rating
