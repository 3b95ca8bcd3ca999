"""Generated scenarios for playtests and benchmarks, deterministic from a seed key.

Terrain comes from hashed values per tile (mostly open, with woods, hills, marsh, a few
mountains and lakes); each side gets a home city with works and a depot near its own edge
and a second, open city in the middle; units are deployed in the side's first columns. The
force is either the cast mix or bought from a point budget by `buy_force`.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.scenario import CAST_CLASSES, TERRAIN_LETTERS
from fairfight.clash.spec import ClashSpec, Combatant
from fairfight.core.draws import below, hash64

__all__ = [
    "BASE_MIX",
    "LETTER",
    "TERRAIN_SHARES",
    "buy_force",
    "class_values",
    "generate_scenario",
]

TERRAIN_SHARES: tuple[tuple[int, str], ...] = (
    (52, "."), (14, "f"), (14, "h"), (8, "m"), (5, "M"), (7, "~"),
)
"""Per cent of tiles of each terrain letter."""
BASE_MIX = ("rifle-company", "rifle-company", "armoured-battalion", "field-battery",
            "rifle-company", "scout-troop")
"""The repeating unit mix when no budget is given."""
LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def _terrain(key: str, x: int, y: int) -> str:
    roll = below(100, hash64(key, "terrain", x, y))
    for share, letter in TERRAIN_SHARES:
        if roll < share:
            return letter
        roll -= share
    return "."


def _combatant(class_id: str, stance: t.Stance) -> Combatant:
    cls = CAST_CLASSES[class_id]
    return Combatant(atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
                     strength=100, grade=t.Grade.TRAINED, supply_tier=t.SupplyTier.ADEQUATE,
                     stance=stance)


def class_values(terrains: list[t.Terrain]) -> dict[str, int]:
    """Each class's value per 1000 build points: the break chance it achieves leading an
    assault (Advance) against each cast class holding, plus the chance it holds against
    each cast class attacking it, weighted by the map's terrain, from one exact batch."""
    ids = sorted(CAST_CLASSES)
    specs: list[ClashSpec] = []
    keys: list[tuple[str, bool, int]] = []
    for terrain in sorted(set(terrains) - {t.Terrain.WATER}):
        weight = terrains.count(terrain)
        for mine in ids:
            for theirs in ids:
                for attacking in (True, False):
                    lead, defender = (mine, theirs) if attacking else (theirs, mine)
                    specs.append(ClashSpec(kind=t.Kind.ASSAULT, terrain=terrain,
                                           lead=_combatant(lead, t.Stance.ADVANCE),
                                           defender=_combatant(defender, t.Stance.HOLD)))
                    keys.append((mine, attacking, weight))
    batch = preview_batch(columns_from_specs(specs))
    totals = dict.fromkeys(ids, 0)
    for index, (mine, attacking, weight) in enumerate(keys):
        chance = int(batch.break_permille[index])
        totals[mine] += weight * (chance if attacking else t.DRAWS - chance)
    return {cid: totals[cid] * 1000 // CAST_CLASSES[cid].price() for cid in ids}


def buy_force(budget: int, terrains: list[t.Terrain], count_cap: int) -> list[str]:
    """Spend a budget in proportion to value per point (largest remainder), cheapest first
    with what is left; at most `count_cap` units."""
    values = class_values(terrains)
    total = sum(values.values()) or 1
    ids = sorted(values)
    shares = {cid: budget * values[cid] // total for cid in ids}
    bought: list[str] = []
    for cid in sorted(ids, key=lambda c: (-values[c], c)):
        price = CAST_CLASSES[cid].price()
        bought += [cid] * (shares[cid] // price)
    spent = sum(CAST_CLASSES[cid].price() for cid in bought)
    for cid in sorted(ids, key=lambda c: (-values[c], c)):
        while spent + CAST_CLASSES[cid].price() <= budget:
            bought.append(cid)
            spent += CAST_CLASSES[cid].price()
    return bought[:count_cap]


def generate_scenario(key: str, *, width: int = 24, height: int = 24, per_side: int = 30,
                      budget: int | None = None,
                      rows_given: list[str] | None = None) -> dict[str, Any]:
    """A two-player scenario as plain data (pass it to `parse_scenario`); `rows_given`
    replaces the hashed terrain with a hand-drawn board of the same size."""
    rows = ([row.split() for row in rows_given] if rows_given is not None else
            [[_terrain(key, x, y) for x in range(width)] for y in range(height)])
    mid = height // 2
    home = {"blue": (1, mid), "red": (width - 2, mid)}
    front = {"blue": (width // 2 - 1, mid // 2), "red": (width // 2, height - 1 - mid // 2)}
    tiles: list[dict[str, Any]] = []
    for player, (x, y) in home.items():
        rows[y][x] = LETTER[t.Terrain.URBAN]
        tiles.append({"at": [x, y], "city": {"owner": player, "works": 2}, "depot": player,
                      "name": f"{player}-home"})
    for player, (x, y) in front.items():
        rows[y][x] = LETTER[t.Terrain.URBAN]
        tiles.append({"at": [x, y], "city": {"works": 1}, "name": f"{player}-front"})
    terrains = [TERRAIN_LETTERS[c] for row in rows for c in row]
    units: list[dict[str, Any]] = []
    for side, columns in (("blue", range(width)), ("red", range(width - 1, -1, -1))):
        mix = (buy_force(budget, terrains, per_side) if budget is not None
               else [BASE_MIX[i % len(BASE_MIX)] for i in range(per_side)])
        slots = [(x, y) for x in columns for y in range(height)
                 if rows[y][x] != LETTER[t.Terrain.WATER]]
        for number, class_id in enumerate(mix):
            x, y = slots[number]
            units.append({"id": f"{side}-{number + 1}", "player": side, "class": class_id,
                          "at": [x, y], "stance": "hold"})
    return {"name": f"generated {key}", "seed_key": key,
            "board": {"rows": [" ".join(row) for row in rows], "tiles": tiles},
            "players": [{"id": "blue"}, {"id": "red"}], "units": units}
