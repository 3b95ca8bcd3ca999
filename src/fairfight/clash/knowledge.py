"""What a player knows: observation levels, knowledge views, fog previews and the overlay.

An enemy unit within two tiles of one of the player's units is in contact (L1); adjacent,
it is observed (L2); with a Recon unit of the player's side adjacent, or having fought one
of the player's units in the last Cascade, it is identified (L3) [CB-2310, CB-2320].
Unseen enemies (L0) are absent from the view. Fields not observed carry an estimate and are
named, so a preview over the view is provisional exactly where it should be [CB-2330].
The view is a `World`, and specifications are built from it by the same function as from
the truth [CB-330].
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.engagement import (
    AttackOrder,
    ClashPlan,
    eligible_supporters,
    plan_assaults,
    plan_clash,
    retreat_candidates,
    support_contribution,
)
from fairfight.clash.fog import FogField, FogPreview, preview_under_fog
from fairfight.clash.spec import stance_may_initiate
from fairfight.clash.world import Unit, World, chebyshev
from fairfight.core.errors import InputError

__all__ = [
    "CONTACT_RANGE",
    "ESTIMATE",
    "LEVEL_FIELDS",
    "Level",
    "OverlayTile",
    "attack_candidates",
    "check_player",
    "fog_preview",
    "knowledge_view",
    "observation_levels",
    "overlay",
    "overlay_data",
    "player_view",
    "strongest_supporters",
]

CONTACT_RANGE = 2
"""An enemy within this many tiles of one of the player's units is in contact (L1)."""


class Level(IntEnum):
    """Observation levels of an enemy unit [CB-2310]."""

    UNSEEN = 0
    """Not in the view at all."""
    CONTACT = 1
    """Tile, role and stack count."""
    OBSERVED = 2
    """Plus class, strength, disorder, Stance and dig-in."""
    IDENTIFIED = 3
    """Plus grade, supply and shaken."""


LEVEL_FIELDS: dict[Level, tuple[FogField, ...]] = {
    Level.CONTACT: (FogField.STRENGTH, FogField.DISORDER, FogField.STANCE, FogField.DIG_IN,
                    FogField.GRADE, FogField.SUPPLY_TIER),
    Level.OBSERVED: (FogField.GRADE, FogField.SUPPLY_TIER),
    Level.IDENTIFIED: (),
}
"""The defender fields a player lacks at each level (works are map facts, always known)."""
ESTIMATE: dict[str, Any] = {
    "strength": t.MAX_STRENGTH, "disorder": 0, "stance": t.Stance.HOLD, "dig_in": 0,
    "xp": t.GRADE_XP_THRESHOLD[t.Grade.TRAINED], "supply": t.SupplyTier.ADEQUATE,
    "shaken": 0,
}
"""What a view assumes for a field it has not observed."""


def observation_levels(world: World, player: str) -> dict[str, Level]:
    """The level at which the player sees each enemy unit (unseen ones omitted)."""
    width = world.board.width
    own = [u for u in world.units.values() if world.allied(u.player, player)]
    levels: dict[str, Level] = {}
    for enemy in world.units.values():
        if world.allied(enemy.player, player):
            continue
        nearest = min((chebyshev(width, u.tile, enemy.tile) for u in own), default=99)
        if nearest > CONTACT_RANGE:
            continue
        level = Level.OBSERVED if nearest <= 1 else Level.CONTACT
        if any(u.cls.role is t.Role.RECON and chebyshev(width, u.tile, enemy.tile) <= 1
               for u in own) or any(enemy.id in u.fought_with for u in own):
            level = Level.IDENTIFIED
        levels[enemy.id] = level
    return levels


def _estimated(unit: Unit, level: Level) -> Unit:
    copy = replace(unit, fought_with=set(unit.fought_with))
    missing = {f.value for f in LEVEL_FIELDS[level]}
    if "strength" in missing:
        copy.strength = ESTIMATE["strength"]
    if "disorder" in missing:
        copy.disorder = ESTIMATE["disorder"]
    if "stance" in missing:
        copy.stance = ESTIMATE["stance"]
    if "dig_in" in missing:
        copy.dig_in = ESTIMATE["dig_in"]
    if "grade" in missing:
        copy.xp, copy.shaken = ESTIMATE["xp"], ESTIMATE["shaken"]
    if "supply_tier" in missing:
        copy.supply = ESTIMATE["supply"]
    if level < Level.IDENTIFIED:
        copy.withdraw_reflex = False   # a standing order is seen only when identified
    return copy


def knowledge_view(world: World, player: str) -> World:
    """The player's view: own side true, enemies as observed, unseen enemies absent."""
    levels = observation_levels(world, player)
    view = world.copy()
    for unit in list(view.units.values()):
        if world.allied(unit.player, player):
            continue
        if unit.id not in levels:
            view.remove(unit)
            continue
        estimate = _estimated(unit, levels[unit.id])
        view.units[unit.id] = estimate
        here = view.occupants[unit.tile]
        here[here.index(unit)] = estimate
        fields = LEVEL_FIELDS[levels[unit.id]]
        if fields:
            view.unobserved[unit.id] = tuple(f.value for f in fields)
    view.viewer = player
    view.version += 1
    return view


def fog_preview(view: World, plan: ClashPlan) -> FogPreview:
    """The preview of a plan from what the viewer knows: ranges and pivots over the
    defender's unobserved fields [CB-2330..CB-2350]."""
    unknown = [FogField(name) for name in view.unobserved.get(plan.defender, ())]
    return preview_under_fog(plan.spec, unknown, defender_in_city=plan.defender_in_city)


def attack_candidates(view: World, player: str, *, combinations: bool = False,
                      support_choices: int | None = None) -> list[ClashPlan]:
    """Every assault the player's units could make from where they stand, in the Stance
    they would attack in (a marching unit as if in Advance): with automatic support, or
    with every choice of up to two eligible supporters when `combinations` is set (among the
    `support_choices` strongest only, when given: the bounded search of a dense front)."""
    plans: list[ClashPlan] = []
    for unit in view.units.values():
        if unit.player != player or unit.cls.atk == 0 or unit.strength < 1:
            continue
        stance = unit.stance
        if not stance_may_initiate(stance):
            unit.stance = t.Stance.ADVANCE
        for target in view.board.neighbours[unit.tile]:
            if not view.hostile_at(player, target):
                continue
            if combinations:
                ids = [u.id for u in strongest_supporters(view, unit, target,
                                                          support_choices)]
                plans += plan_assaults(view, unit.id, target, [
                    (), *((i,) for i in ids), *itertools.combinations(ids, 2)])
                continue
            plan = plan_clash(view, AttackOrder(t.Kind.ASSAULT, unit.id, target, None))
            if plan is not None:
                plans.append(plan)
        unit.stance = stance
    return plans


def strongest_supporters(view: World, lead: Unit, target: int,
                         limit: int | None = None) -> list[Unit]:
    """The eligible supporters of an assault in sequence order; with a `limit`, only that many
    of the strongest (by contribution, then sequence, as the automatic choice ranks [CB-390])."""
    eligible = eligible_supporters(view, lead, target)
    if limit is None or len(eligible) <= limit:
        return eligible
    terrain = view.board.terrain[target]
    ranked = sorted(eligible, key=lambda u: (-support_contribution(view, u, terrain), u.seq))
    return sorted(ranked[:limit], key=lambda u: u.seq)


@dataclass(frozen=True, slots=True)
class OverlayTile:
    """An enemy tile and the break chance of the best attack the player has on it."""

    tile: tuple[int, int]
    break_permille: int
    lead: str
    supporters: tuple[str, ...]
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"tile": list(self.tile), "break_permille": self.break_permille,
                "lead": self.lead, "supporters": list(self.supporters),
                "provisional": self.provisional}


def overlay(world: World, player: str) -> list[OverlayTile]:
    """The hostile-tile overlay [CB-2430]: each visible enemy tile next to the player's
    units, with the break chance of its best attack, from the batch preview."""
    view = knowledge_view(world, player)
    plans = attack_candidates(view, player)
    if not plans:
        return []
    batch = preview_batch(columns_from_specs([plan.spec for plan in plans]))
    best: dict[int, tuple[int, ClashPlan]] = {}
    for index, plan in enumerate(plans):
        chance = int(batch.break_permille[index])
        current = best.get(plan.order.target)
        if current is None or chance > current[0]:
            best[plan.order.target] = (chance, plan)
    return [OverlayTile(view.board.xy(tile), chance, plan.order.lead, plan.supporters,
                        any(u.id in view.unobserved for u in view.units_at(tile)))
            for tile, (chance, plan) in sorted(best.items())]


def check_player(world: World, player: str) -> None:
    """A player of the world, or an input error naming the players."""
    if player not in world.sides:
        raise InputError("player", f"unknown player {player!r}; players: "
                         + ", ".join(world.sides))


def player_view(world: World, player: str | None) -> dict[str, Any]:
    """What `player` sees, as plain data: every own unit, enemies by observation level with
    unobserved fields named, and the units with no retreat candidate marked [CB-1410].

    With no player it is the truth in the same shape (every unit at level 3, nothing
    unobserved), so a reader of one never needs a second parser for the other."""
    if player is None:
        view, levels = world, {}
    else:
        check_player(world, player)
        view, levels = knowledge_view(world, player), observation_levels(world, player)
    units = []
    for unit in view.units.values():
        data = unit.to_json(view.board)
        data["grade"] = unit.grade.value
        known = player is None or view.allied(unit.player, player)
        data["level"] = 3 if known else int(levels[unit.id])
        data["unobserved"] = list(view.unobserved.get(unit.id, ()))
        data["cut_off"] = not retreat_candidates(view, view.units_at(unit.tile), unit.tile, -1)
        units.append(data)
    return {"player": player, "turn": view.turn, "width": view.board.width,
            "height": view.board.height,
            "cities": [{"tile": list(view.board.xy(tile)), "owner": owner,
                        "works": view.city_works[tile]}
                       for tile, owner in sorted(view.city_owner.items())],
            "units": units}


def overlay_data(world: World, player: str) -> list[dict[str, Any]]:
    """The hostile-tile overlay as plain data [CB-2430]."""
    check_player(world, player)
    return [tile.to_json() for tile in overlay(world, player)]
