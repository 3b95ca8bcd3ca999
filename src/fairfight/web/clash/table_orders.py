"""Orders from the play page's forms, and what the page draws for the selected unit.

A form names one unit and one kind of order — a Stance (with or without the withdraw
reflex), a move along a path, an assault, a bombardment, an abandon — and becomes the
engine's `UnitOrders`. The selection helpers say which tiles the board offers for each kind,
from the side's knowledge view (`fairfight.clash.paths`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.orders import (
    AbandonAction,
    AssaultAction,
    BombardAction,
    MoveAction,
    UnitOrders,
)
from fairfight.clash.paths import (
    PathStep,
    abandon_tiles,
    bombard_targets,
    move_path,
    next_steps,
    shots_left,
)
from fairfight.clash.world import World, chebyshev
from fairfight.core.errors import InputError
from fairfight.web.clash.board import adjacent_enemy_tiles
from fairfight.web.clash.play import parse_point

__all__ = ["ORDER_KINDS", "Selection", "form_orders", "parse_path", "selection"]

ORDER_KINDS = ("stance", "move", "assault", "bombard", "abandon")
"""The kinds of order a form gives."""


def parse_path(text: str) -> list[tuple[int, int]]:
    """`x,y;x,y;…` as points (empty text: no step)."""
    return [parse_point(part, "path") for part in text.split(";") if part.strip()]


def form_orders(form: dict[str, str]) -> UnitOrders:
    """The engine's orders for one unit from the play page's form fields."""
    kind = form.get("kind", "stance")
    stance = t.Stance(form["stance"]) if form.get("stance") else None
    reflex = form.get("withdraw") == "on" if "withdraw_shown" in form else None
    actions: list[Any] = []
    if kind == "move":
        path = parse_path(form.get("path", ""))
        if not path:
            raise InputError("path", "a move needs at least one step")
        actions.append(MoveAction(do="move", path=path))
    elif kind == "assault":
        supporters = form.get("supporters", "auto") or "auto"
        chosen: Any = "auto" if supporters == "auto" else [
            uid for uid in supporters.split(",") if uid][:2]
        actions.append(AssaultAction(do="assault", target=parse_point(form.get("target", "")),
                                     supporters=chosen, advance=form.get("advance") == "on"))
    elif kind == "bombard":
        actions.append(BombardAction(do="bombard", target=parse_point(form.get("target", ""))))
    elif kind == "abandon":
        actions.append(AbandonAction(do="abandon", to=parse_point(form.get("to", ""), "to")))
    elif kind != "stance":
        raise InputError("kind", f"unknown order {kind!r}; use {', '.join(ORDER_KINDS)}")
    return UnitOrders(stance=stance, withdraw_reflex=reflex, actions=actions,
                      reason=f"{kind} ordered on the board")


@dataclass(slots=True)
class Selection:
    """What the board offers the selected unit in the chosen mode."""

    mode: str
    clickable: set[int] = field(default_factory=set)
    highlights: tuple[int, ...] = ()
    steps: list[PathStep] = field(default_factory=list)
    path: list[tuple[int, int]] = field(default_factory=list)
    shots: int = 0
    reach: int = 0
    abandon: list[tuple[int, int]] = field(default_factory=list)
    can_bombard: bool = False


def selection(view: World, unit_id: str, mode: str, path_text: str) -> Selection:
    """The clickable tiles, the drawn range or path, and the figures for the side panel."""
    unit = view.units[unit_id]
    board = view.board
    chosen = Selection(mode=mode, can_bombard=unit.cls.bombard_range > 0,
                       reach=unit.cls.bombard_range, shots=shots_left(view, unit_id),
                       abandon=[board.xy(tile) for tile in abandon_tiles(view, unit_id)])
    if mode == "move":
        chosen.path = parse_path(path_text)
        tiles = [board.index(*p) for p in chosen.path]
        chosen.steps = move_path(view, unit_id, tiles)
        chosen.clickable = set(next_steps(view, unit_id, tiles))
        chosen.highlights = tuple(tiles)
    elif mode == "bombard" and chosen.can_bombard:
        chosen.clickable = set(bombard_targets(view, unit_id))
        chosen.highlights = tuple(tile for tile in range(board.width * board.height)
                                  if 1 <= chebyshev(board.width, unit.tile, tile)
                                  <= unit.cls.bombard_range)
    else:
        chosen.mode = "assault"
        chosen.clickable = adjacent_enemy_tiles(view, unit_id)
    return chosen
