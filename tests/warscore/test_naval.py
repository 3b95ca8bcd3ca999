"""Naval battles: this project's own variant of the five factors."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from fairfight.core.errors import InputError
from fairfight.warscore import BattleInput, battle_post, score_battle


def naval(**defender_extra: Any) -> dict[str, Any]:
    return {
        "battle": "Pelargir",
        "year": 3019,
        "kind": "naval",
        "attacker": {
            "nation": "Umbar",
            "troops": 12000,
            "support": {"race": "human", "ships": "great-ships", "special_units": ["wizard"]},
            "technology": {"armor": "light", "weapons": "normal"},
        },
        "defender": {
            "nation": "Gondor",
            "troops": 10000,
            "support": {"race": "human", "ships": "galleys"},
            "technology": {"armor": "chain-mail", "weapons": "well-made"},
            **defender_extra,
        },
    }


def scored(data: dict[str, Any]) -> Any:
    parsed = BattleInput.model_validate(data)
    return score_battle(parsed, parsed.year)


def test_naval_factors() -> None:
    result = scored(naval(defensives="harbour-fort"))
    assert result.attacker.troops == Decimal("12.00")
    assert result.attacker.support.value == Decimal("1.00") + Decimal("0.20") + Decimal("0.20")
    assert result.defender.support.value == Decimal("1.00") + Decimal("0.05")
    assert result.defender.defensives is not None
    assert result.defender.defensives.value == Decimal("1.25")
    # 12 x 1.40 x 1 x 1.10 = 18.48 against 10 x 1.05 x 1 x 1.25 x 1.40 = 18.375
    assert result.attacker.total() == Decimal("18.48")
    assert result.defender.total() == Decimal("18.375")
    assert result.winner == "attacker"
    assert result.tier == "marginal"


def test_harbour_chain() -> None:
    result = scored(naval(defensives="harbour-chain"))
    assert result.defender.defensives is not None
    assert result.defender.defensives.value == Decimal("1.10")


def test_naval_output_says_the_rules_are_our_own() -> None:
    text = battle_post(scored(naval()))
    assert "naval rules are fairfight's own" in text


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"defensives": "small-fort"}, "defender.defensives"),
        ({"support": {"race": "human", "cavalry": "full"}}, "defender.support.cavalry"),
        ({"support": {"race": "human", "ballista": "full"}}, "defender.support.ballista"),
        ({"pikes": True}, "defender.pikes"),
    ],
)
def test_land_items_refused_at_sea(change: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as caught:
        scored(naval(**change))
    assert caught.value.field == field


def test_ships_and_harbours_refused_on_land() -> None:
    data = naval(defensives="harbour-chain")
    data["kind"] = "land"
    data["attacker"]["support"].pop("ships")
    data["defender"]["support"].pop("ships")
    with pytest.raises(InputError) as caught:
        scored(data)
    assert caught.value.field == "defender.defensives"
    data["defender"].pop("defensives")
    data["attacker"]["support"]["ships"] = "galleys"
    with pytest.raises(InputError) as caught:
        scored(data)
    assert caught.value.field == "attacker.support.ships"
