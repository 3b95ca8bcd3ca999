"""The board as text for a terminal: terrain letters, cities, units with their Stance marks,
the unit list and, for a player, the hostile-tile overlay."""

from __future__ import annotations

from fairfight.clash import tables as t
from fairfight.clash.engagement import retreat_candidates
from fairfight.clash.knowledge import knowledge_view, overlay
from fairfight.clash.scenario import TERRAIN_LETTERS
from fairfight.clash.verdict import verdict_breaks
from fairfight.clash.world import World

__all__ = ["CLASS_LETTER", "STANCE_MARK", "board_text"]

CLASS_LETTER = {t.Role.FOOT: "R", t.Role.ARMOR: "A", t.Role.GUN: "G", t.Role.RECON: "S",
                t.Role.NAVAL: "N", t.Role.AIR: "F"}
"""The letter a unit's role is drawn with (here and on the web board)."""
STANCE_MARK = {t.Stance.MARCH: ">", t.Stance.ADVANCE: "^", t.Stance.HOLD: "=",
               t.Stance.ENTRENCH: "#"}
"""The mark a unit's Stance is drawn with (here and on the web board)."""
_LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def _cell(world: World, tile: int, marks: dict[int, str]) -> str:
    city = "*" if tile in world.city_owner else " "
    text = _LETTER[world.board.terrain[tile]] + city
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
            marks[tile] = "!" if verdict_breaks(item.break_permille) else "?"
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
