"""The warscore package re-exports the functions its docs promise."""

from __future__ import annotations

import importlib


def test_package_reexports_every_submodule_api_it_documents() -> None:
    package = importlib.import_module("fairfight.warscore")
    for name in ("score_battle", "score_war", "battle_post", "war_post", "battle_json",
                 "war_json", "rules_page", "demonstration_post", "load_battle", "load_war"):
        assert name in package.__all__
