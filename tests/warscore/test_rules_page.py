"""The rules page shows every constant of tables.py (walked, not listed by hand)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal
from enum import Enum
from typing import Any

from fairfight.warscore import tables
from fairfight.warscore.rules_page import rules_page


def shown_values(value: Any) -> Iterator[str]:
    """Every piece of text a constant should put on the page."""
    if isinstance(value, Enum):
        yield str(value.value)
    elif isinstance(value, bool):
        raise AssertionError("no boolean constants expected")
    elif isinstance(value, int | Decimal | str):
        yield str(value)
    elif isinstance(value, tables.Row):
        yield value.label
        yield str(value.value)
    elif isinstance(value, tables.TierRow):
        yield value.title
        yield str(value.floor)
        yield value.consequence
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from shown_values(key)
            yield from shown_values(item)
    elif isinstance(value, tuple | frozenset | set):
        for item in value:
            yield from shown_values(item)
    else:
        raise AssertionError(f"unexpected constant type {type(value)}")


def constants() -> dict[str, Any]:
    return {
        name: value
        for name, value in vars(tables).items()
        if name.isupper() and not name.startswith("_")
    }


def test_the_walk_covers_the_tables() -> None:
    names = set(constants())
    assert {"RACES", "ARMOR", "TIERS", "FRONTS", "WEALTH_SUPPORT_CAP", "SHIPS"} <= names
    assert len(names) >= 40


def test_every_constant_appears_on_the_page(run: Any) -> None:
    result = run("rules")
    assert result.exit_code == 0
    page = result.stdout
    assert page == rules_page()
    missing = [
        f"{name}: {text}"
        for name, value in constants().items()
        for text in shown_values(value)
        if text not in page
    ]
    assert missing == []


def test_every_choice_key_is_a_table_row() -> None:
    page = rules_page()
    for enum in (tables.Race, tables.Armor, tables.Weapons, tables.Defensives, tables.Tier):
        for member in enum:
            assert f"`{member.value}`" in page, member
