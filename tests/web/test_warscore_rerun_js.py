"""The result page's re-run (static/warscore/rerun.js) against the engine: on a spanning corpus
of random valid battles, land and naval (pikes, mithril, scant armour, every works, armies that
break before the battle), the browser's figures equal `battle_json(score_battle(...))` field by
field. The script is an implementation of its own, in BigInt, so this compares two."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairfight.core.errors import InputError
from fairfight.warscore import BattleBody, battle_json, score_battle
from fairfight.warscore.tables import (
    HARBOUR_DEFENSIVES,
    LAND_DEFENSIVES,
    MoraleSpecial,
    Positioning,
    PreviousBattles,
    Race,
    ShipClass,
    SpecialUnit,
    SupportTier,
    Weapons,
)
from tests.warscore.test_properties import ABOVE_LIGHT, LIGHTER_ARMOR
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.test_warscore_wars_browser import server  # noqa: F401 - the live service

BATTLES = 300
FIELDS = ("troops", "support", "morale", "defensives", "technology", "total")


def _maybe(rng: random.Random, choices: list[Any]) -> Any:
    return rng.choice([None, *choices])


def _army(rng: random.Random, nation: str, defending: bool, naval: bool) -> dict[str, Any]:
    armor = rng.choice(LIGHTER_ARMOR)
    technology: dict[str, Any] = {"armor": str(armor), "weapons": str(rng.choice(list(Weapons))),
                                  "mithril": armor in ABOVE_LIGHT and rng.random() < 0.4,
                                  "scant": str(armor) != "none" and rng.random() < 0.3}
    support: dict[str, Any] = {"race": str(rng.choice(list(Race))), "special_units": [
        str(u) for u in rng.sample(list(SpecialUnit), rng.randint(0, 3))]}
    if naval:
        support["ships"] = _maybe(rng, [str(s) for s in ShipClass])
    else:
        support["ballista"] = _maybe(rng, [str(t) for t in SupportTier])
        support["cavalry"] = _maybe(rng, [str(t) for t in SupportTier])
    works = HARBOUR_DEFENSIVES if naval else LAND_DEFENSIVES
    return {
        "nation": nation, "technology": technology, "support": support,
        "troops": rng.choice([rng.randint(1, 2000), rng.randint(1, 500_000),
                              rng.randint(1, 1_000_000_000)]),
        "pikes": not naval and rng.random() < 0.4,
        "nws_score": rng.choice([None, rng.randint(-50, 200)]),
        "morale": {"previous": _maybe(rng, [str(p) for p in PreviousBattles]),
                   "positioning": _maybe(rng, [str(p) for p in Positioning]),
                   "specials": [str(s) for s in rng.sample(list(MoraleSpecial),
                                                           rng.randint(0, 2))]},
        "defensives": _maybe(rng, [str(w) for w in works]) if defending else None,
        "approved_by": "Moderator",
    }


def corpus() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(published input, the engine's figures) for BATTLES valid battles, from a fixed seed."""
    rng = random.Random(36)
    found = []
    while len(found) < BATTLES:
        naval = rng.random() < 0.3
        data = {"battle": "Corpus", "kind": "naval" if naval else "land",
                "attacker": _army(rng, "A", False, naval),
                "defender": _army(rng, "B", True, naval)}
        try:
            battle = BattleBody.model_validate(data)
            figures = battle_json(score_battle(battle, 1))
        except (InputError, ValueError):
            continue
        found.append((battle.model_dump(mode="json"), figures))
    return found


@pytest.fixture(scope="module")
def cases() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return corpus()


def test_the_corpus_spans_the_rules(cases: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    figures = [f for _, f in cases]
    assert any(f["attacker"]["total"] is None or f["defender"]["total"] is None for f in figures)
    assert {f["tier"] for f in figures} >= {"marginal", "solid", "operational", "strategic"}
    assert any(i["kind"] == "naval" and i["defender"]["defensives"] for i, _ in cases)
    assert any(i["attacker"]["pikes"] and i["defender"]["support"]["cavalry"] for i, _ in cases)


def test_the_browser_scores_every_battle_as_the_engine(
        server: str, cases: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:  # noqa: F811
    with launched_chromium() as browser:
        page = new_page(browser, 800)
        page.goto(f"{server}/warscore/wars")
        page.add_script_tag(url="/static/warscore/rerun.js")
        page.wait_for_function("() => window.fairfightRerun !== undefined")
        scored = page.evaluate(
            """async (inputs) => {
                 const tables = await (await fetch("/api/warscore/tables")).json();
                 return inputs.map((input) => {
                   const r = window.fairfightRerun.battle(input, tables);
                   const side = (a) => ({troops: a.troops, support: a.support, morale: a.morale,
                     defensives: a.defensives, technology: a.technology, total: a.total});
                   return {attacker: side(r.attacker), defender: side(r.defender),
                           percent: r.percent, tier: r.tier, winner: r.winner};
                 });
               }""", [i for i, _ in cases])
    differences = []
    for (battle, figures), mine in zip(cases, scored, strict=True):
        engine = {"attacker": {k: figures["attacker"][k] for k in FIELDS},
                  "defender": {k: figures["defender"][k] for k in FIELDS},
                  "percent": figures["percent"], "tier": figures["tier"],
                  "winner": figures["winner"]}
        if mine != engine:
            differences.append((battle, engine, mine))
    assert not differences, differences[:2]
