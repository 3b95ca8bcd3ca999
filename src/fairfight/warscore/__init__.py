"""The warscore ruleset: the forum war algorithm (National War Score and battle phase).

Score a battle file with `score_battle(load_battle(path), year)`, a war with
`score_war(load_war(path))`, and render either with `battle_post` / `war_post` (text or BBCode)
or `battle_json` / `war_json`.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.warscore.export import army_json, battle_json, nws_json, war_json
    from fairfight.warscore.files import (
        DEMONSTRATION,
        demonstration_battle,
        demonstration_post,
        load_battle,
        load_war,
        load_yaml_strict,
    )
    from fairfight.warscore.forum import PostFormat, battle_post, war_post
    from fairfight.warscore.model import (
        ArmyInput,
        BattleBody,
        BattleInput,
        NationInput,
        NwsInput,
        WarInput,
        YearInput,
        check_battle,
        derived_numbers,
    )
    from fairfight.warscore.rules_page import rules_page
    from fairfight.warscore.score import (
        ArmyScore,
        BattleResult,
        Factor,
        Side,
        army_score,
        decide,
        nws_standing,
        score_battle,
        troops_score,
    )
    from fairfight.warscore.war import (
        NwsScore,
        UnscoredBattle,
        WarReport,
        YearReport,
        fronts_score,
        score_nws,
        score_war,
        select_year,
    )

__all__ = [
    "ArmyInput",
    "ArmyScore",
    "BattleBody",
    "BattleInput",
    "BattleResult",
    "DEMONSTRATION",
    "Factor",
    "NationInput",
    "NwsInput",
    "NwsScore",
    "PostFormat",
    "Side",
    "UnscoredBattle",
    "WarInput",
    "WarReport",
    "YearInput",
    "YearReport",
    "army_json",
    "army_score",
    "battle_json",
    "battle_post",
    "check_battle",
    "decide",
    "demonstration_battle",
    "demonstration_post",
    "derived_numbers",
    "fronts_score",
    "load_battle",
    "load_war",
    "load_yaml_strict",
    "nws_json",
    "nws_standing",
    "rules_page",
    "score_battle",
    "score_nws",
    "score_war",
    "select_year",
    "troops_score",
    "war_json",
    "war_post",
]

__getattr__ = lazy_exports(__name__, __all__, (
    "export",
    "files",
    "forum",
    "model",
    "rules_page",
    "score",
    "war",
))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
