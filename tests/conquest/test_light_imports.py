"""The rules load light: the conquest package, every module of its `rules` and `record`
wings (found by walking them, not by a list), the old flat names that lead there, and the
map drawing pull in no command-line, web, database, cluster or compiler library."""

from __future__ import annotations

import pytest

from fairfight.conquest import _moved
from tests.test_light_imports import heavy_packages_loaded, package_modules

LIGHT_WINGS = ("rules", "record")
"""The wings that hold the rules and what a season archive ships."""


def light_modules() -> list[str]:
    """The package, each light wing walked whole, the light map modules."""
    walked = [
        name for wing in LIGHT_WINGS for name in package_modules(f"fairfight.conquest.{wing}")
    ]
    return ["fairfight.conquest", *walked, "fairfight.conquest.maps.svg",
            "fairfight.conquest.maps.synthetic"]


def old_names_of_light_modules() -> list[str]:
    """The flat names of before whose modules now live in a light wing."""
    return sorted(
        f"fairfight.conquest.{old}"
        for old, new in _moved.MOVED.items()
        if new.split(".")[0] in LIGHT_WINGS
    )


def test_the_light_modules_load_no_heavy_library() -> None:
    """One fresh interpreter imports them all (reading every public name), so nothing another
    test imported can hide a heavy import."""
    modules = light_modules()
    assert "fairfight.conquest.rules.engine" in modules
    assert "fairfight.conquest.record.verifier" in modules
    assert heavy_packages_loaded(*modules) == []


def test_the_old_names_of_light_modules_stay_light() -> None:
    """Importing through the old name (the `_moved` finder) adds nothing heavy either."""
    old = old_names_of_light_modules()
    assert "fairfight.conquest.engine" in old and "fairfight.conquest.verifier" in old
    assert heavy_packages_loaded(*old) == []


@pytest.mark.parametrize(
    ("module", "heavy"),
    [
        ("fairfight.conquest.cli", ["rich", "typer"]),
        ("fairfight.conquest.store.rows", ["sqlalchemy"]),
    ],
)
def test_the_check_itself_sees_a_heavy_import(module: str, heavy: list[str]) -> None:
    """The same probe on the command line and the store does find their libraries, so an
    empty list above means something."""
    assert set(heavy) <= set(heavy_packages_loaded(module))
