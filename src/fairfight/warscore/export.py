"""Machine-readable results: plain dicts ready for JSON (factors and totals as 2-decimal strings).

A battle is `{"battle", "year", "kind", "attacker", "defender", "percent", "tier", "winner",
"outcome"}`. When an army breaks before the battle (morale below zero) its `total` is null, and
so are `percent` and `tier`; `winner` names the army that holds the field.
"""

from __future__ import annotations

from typing import Any

from fairfight.warscore.score import ArmyScore, BattleResult, shown
from fairfight.warscore.war import NWS_CATEGORIES, NwsScore, UnscoredBattle, WarReport


def army_json(army: ArmyScore) -> dict[str, Any]:
    """An army's factors; `defensives` is null for the attacker, `total` null if it breaks."""
    total = army.total()
    return {
        "nation": army.nation,
        "troops": shown(army.troops),
        "support": shown(army.support.value),
        "morale": shown(army.morale.value),
        "defensives": None if army.defensives is None else shown(army.defensives.value),
        "technology": shown(army.technology.value),
        "total": None if total is None else shown(total),
    }


def battle_json(result: BattleResult) -> dict[str, Any]:
    """One battle in the documented JSON shape."""
    return {
        "battle": result.battle,
        "year": result.year,
        "kind": str(result.kind),
        "attacker": army_json(result.attacker),
        "defender": army_json(result.defender),
        "percent": result.percent,
        "tier": None if result.tier is None else str(result.tier),
        "winner": str(result.winner),
        "outcome": result.outcome(),
    }


def nws_json(score: NwsScore) -> dict[str, Any]:
    """One nation's NWS: the total, each category's points, and the two flags."""
    points = [row.value for _, row in score.parts] + [score.fronts_points()]
    keys = [name.lower().replace(" ", "_") for name in NWS_CATEGORIES]
    return {
        "nation": score.nation,
        "year": score.year,
        "total": score.total(),
        **dict(zip(keys, points, strict=True)),
        "fronts_count": score.fronts,
        "sues_for_peace": score.sues_for_peace(),
        "capitulates": score.capitulates(),
    }


def war_json(report: WarReport) -> dict[str, Any]:
    """A war, year by year; every battle entry says whether it was scored."""
    years = []
    for year in report.years:
        battles: list[dict[str, Any]] = []
        for battle in year.battles:
            if isinstance(battle, UnscoredBattle):
                battles.append(
                    {"battle": battle.battle, "year": battle.year, "scored": False,
                     "reason": battle.reason}
                )
            else:
                battles.append({"scored": True, **battle_json(battle)})
        years.append(
            {
                "year": year.year,
                "nws": [nws_json(score) for score in year.nws],
                "battles": battles,
                "capitulated": list(year.capitulated),
            }
        )
    return {
        "war": report.war,
        "years": years,
        "capitulations": [{"nation": n, "year": y} for n, y in report.capitulations],
        "ended_in": report.ended_in(),
    }


__all__ = ["army_json", "battle_json", "nws_json", "war_json"]
