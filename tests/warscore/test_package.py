"""The warscore package declares its public names: sorted, complete, all present."""

from __future__ import annotations

import importlib

import pytest

MODULES = [
    "fairfight.warscore",
    *(
        f"fairfight.warscore.{name}"
        for name in (
            "cli", "export", "files", "forum", "model", "rules_page", "score", "tables", "terms",
            "war",
        )
    ),
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_sorted_and_complete(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported)
    assert len(set(exported)) == len(exported)
    for public in exported:
        assert hasattr(module, public), public
    defined_here = {
        attribute
        for attribute, value in vars(module).items()
        if not attribute.startswith("_")
        and callable(value)
        and getattr(value, "__module__", None) == name
    }
    assert defined_here <= set(exported)


def test_package_reexports_every_submodule_api_it_documents() -> None:
    package = importlib.import_module("fairfight.warscore")
    for name in ("score_battle", "score_war", "battle_post", "war_post", "battle_json",
                 "war_json", "rules_page", "demonstration_post", "load_battle", "load_war"):
        assert name in package.__all__
