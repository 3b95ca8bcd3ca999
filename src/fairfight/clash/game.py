"""The world as plain data, for the command line and for a web page.

Every function takes a `World` (and a player where knowledge matters) and returns JSON
values or text: the board a player sees, the attacks open to them with exact figures, one
attack's full preview and panel, the hostile-tile overlay, a turn's events, the AI's orders.
No figure is computed here; each comes from the engine.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.ai import ai_orders
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.engagement import (
    AttackOrder,
    plan_clash,
    retreat_candidates,
    retreat_destination,
)
from fairfight.clash.knowledge import (
    attack_candidates,
    fog_preview,
    knowledge_view,
    observation_levels,
    overlay,
)
from fairfight.clash.orders import parse_orders
from fairfight.clash.preview import preview
from fairfight.clash.readout import render_panel
from fairfight.clash.scenario import TERRAIN_LETTERS, parse_scenario
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError

__all__ = [
    "ai_turn_orders",
    "attack_preview",
    "board_text",
    "candidate_attacks",
    "load_world",
    "overlay_data",
    "play_turn",
    "player_view",
]

CLASS_LETTER = {t.Role.FOOT: "R", t.Role.ARMOR: "A", t.Role.GUN: "G", t.Role.RECON: "S",
                t.Role.NAVAL: "N", t.Role.AIR: "F"}
STANCE_MARK = {t.Stance.MARCH: ">", t.Stance.ADVANCE: "^", t.Stance.HOLD: "=",
               t.Stance.ENTRENCH: "#"}
LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def load_world(data: Any) -> World:
    """A world from scenario data (validated; refusals name the field)."""
    return world_from_scenario(parse_scenario(data))


def _check_player(world: World, player: str) -> None:
    if player not in world.sides:
        raise InputError("player", f"unknown player {player!r}; players: "
                         + ", ".join(world.sides))


def player_view(world: World, player: str) -> dict[str, Any]:
    """What `player` sees: every own unit, enemies by observation level with unobserved
    fields named, and the units with no retreat candidate marked [CB-1410]."""
    _check_player(world, player)
    view = knowledge_view(world, player)
    levels = observation_levels(world, player)
    units = []
    for unit in view.units.values():
        data = unit.to_json(view.board)
        data["grade"] = unit.grade.value
        data["level"] = 3 if view.allied(unit.player, player) else int(levels[unit.id])
        data["unobserved"] = list(view.unobserved.get(unit.id, ()))
        data["cut_off"] = not retreat_candidates(view, view.units_at(unit.tile), unit.tile, -1)
        units.append(data)
    return {"player": player, "turn": view.turn, "width": view.board.width,
            "height": view.board.height,
            "cities": [{"tile": list(view.board.xy(tile)), "owner": owner,
                        "works": view.city_works[tile]}
                       for tile, owner in sorted(view.city_owner.items())],
            "units": units}


def candidate_attacks(world: World, player: str) -> list[dict[str, Any]]:
    """Every assault the player's units can make now, with automatic support, and the
    exact preview figures of each over what the player knows (batch preview)."""
    _check_player(world, player)
    view = knowledge_view(world, player)
    plans = attack_candidates(view, player)
    if not plans:
        return []
    batch = preview_batch(columns_from_specs([plan.spec for plan in plans]))
    return [{"lead": plan.order.lead, "target": list(view.board.xy(plan.order.target)),
             "supporters": list(plan.supporters),
             "provisional": plan.defender in view.unobserved, **batch.item_json(index)}
            for index, plan in enumerate(plans)]


def attack_preview(world: World, player: str, lead: str, target: tuple[int, int],
                   supporters: list[str] | None = None) -> dict[str, Any]:
    """One attack as the player would see it: the plan, the fog preview and the panel."""
    _check_player(world, player)
    view = knowledge_view(world, player)
    unit = view.units.get(lead)
    if unit is None or unit.player != player:
        raise InputError("lead", f"{lead!r} is not a unit of {player}")
    if not (0 <= target[0] < view.board.width and 0 <= target[1] < view.board.height):
        raise InputError("target", f"{list(target)} is off the map")
    tile = view.board.index(*target)
    plan = plan_clash(view, AttackOrder(
        t.Kind.ASSAULT, lead, tile, tuple(supporters) if supporters is not None else None))
    if plan is None:
        raise InputError("target", f"no enemy {player} can see on {list(target)}")
    fog = fog_preview(view, plan)
    defender = view.units[plan.defender]
    if defender.withdraw_reflex and not defender.disengaged:
        _, away = retreat_destination(view, [defender], tile, unit.tile)
        if away is not None:
            loss = min(defender.strength, t.DISENGAGE_LOSS_NUMERATOR // defender.cls.tough)
            panel = (f"  They will withdraw to {view.board.label(away)} without an exchange, "
                     f"losing {loss} strength; the tile is yours to take.\n")
            return {"plan": plan.to_json(view), "preview": fog.to_json(), "panel": panel,
                    "withdraws": True}
    capture = unit.mp >= 2 or unit.cls.movement >= 2
    nominal = preview(plan.spec, capture_possible=capture,
                      defender_in_city=plan.defender_in_city)
    panel = render_panel(nominal, fog if fog.unobserved else None)
    if plan.destination is not None:
        where = view.board.label(plan.destination)
        tail = " (provisional)" if view.unobserved else ""
        panel += f"  If they break they fall back to {where}{tail}. They are not cut off.\n"
    elif plan.defender_in_city or view.works_at(tile):
        panel += "  They cannot fall back from a city or works.\n"
    else:
        panel += "  They have nowhere to fall back to: cut off.\n"
    return {"plan": plan.to_json(view), "preview": fog.to_json(), "panel": panel,
            "withdraws": False}


def overlay_data(world: World, player: str) -> list[dict[str, Any]]:
    """The hostile-tile overlay as plain data [CB-2430]."""
    _check_player(world, player)
    return [tile.to_json() for tile in overlay(world, player)]


def play_turn(world: World, orders: Any) -> tuple[World, list[dict[str, Any]]]:
    """Run a turn of orders given as plain data; returns the new world and the events."""
    result = run_turn(world, parse_orders(world, orders))
    return result.world, result.events


def ai_turn_orders(world: World, player: str) -> dict[str, Any]:
    """The AI's orders for a player, each with its reason, as plain data."""
    _check_player(world, player)
    return ai_orders(world, player).model_dump(mode="json", exclude_none=True)


def _cell(world: World, tile: int, marks: dict[int, str]) -> str:
    city = "*" if tile in world.city_owner else " "
    text = LETTER[world.board.terrain[tile]] + city
    units = world.units_at(tile)
    if units:
        top = units[0]
        count = str(len(units)) if len(units) > 1 else ""
        text += f"{top.player[0]}{CLASS_LETTER[top.cls.role]}{count}{STANCE_MARK[top.stance]}"
    text += marks.get(tile, "")
    return f"{text:<8}"


def board_text(world: World, player: str | None = None, with_overlay: bool = False) -> str:
    """A text map: terrain letter, * for a city, then owner initial, class letter, stack
    count and Stance mark of the units; the unit list and, optionally, the overlay."""
    shown = knowledge_view(world, player) if player else world
    marks: dict[int, str] = {}
    lines: list[str] = []
    if with_overlay and player:
        for item in overlay(world, player):
            tile = shown.board.index(*item.tile)
            marks[tile] = "!" if item.break_permille * 2 >= t.DRAWS else "?"
            lines.append(f"  ({item.tile[0]},{item.tile[1]}) best attack breaks them "
                         f"{item.break_permille}‰: {item.lead}"
                         + (f" with {', '.join(item.supporters)}" if item.supporters else "")
                         + (" (provisional)" if item.provisional else ""))
    width = shown.board.width
    header = "    " + "".join(f"{x:<8}" for x in range(width))
    grid = [f"{y:>3} " + "".join(_cell(shown, y * width + x, marks) for x in range(width))
            for y in range(shown.board.height)]
    units = [f"  {u.id:<14}{u.player:<8}{u.cls.name:<20}({u.tile % width},{u.tile // width})"
             f"  {u.strength:>3}/{u.disorder:<3} {u.stance.value:<9}{u.grade.value}"
             + ("  [estimated]" if u.id in shown.unobserved else "")
             + ("  CUT OFF" if not retreat_candidates(shown, shown.units_at(u.tile), u.tile, -1)
                else "")
             for u in shown.units.values()]
    title = f"{shown.name} — turn {shown.turn}" + (f", as seen by {player}" if player else "")
    legend = ("  terrain . open h hills f forest m marsh M mountain u urban ~ water; * city; "
              "stance > march ^ advance = hold # entrench")
    body = [title, header, *grid, legend, "", "units (strength/disorder):", *units]
    if with_overlay and player:
        body += ["", "overlay (! break likely, ? break unlikely):", *lines]
    return "\n".join(body) + "\n"
