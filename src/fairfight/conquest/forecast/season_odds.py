"""The previews behind `conquest odds`: exact chances of a hypothetical battle, with the pools
as the next battle will see them. Given the public state only (never the seed)."""

from __future__ import annotations

from typing import Any

from fairfight.conquest.rules import engine, tables
from fairfight.core.errors import InputError, RuleError

__all__ = ["previews"]


def _border_between(world: dict[str, Any], text: str) -> list[Any]:
    """Parse `A-B` (codes may contain dashes) into a border of the map."""
    for cut in (i for i, char in enumerate(text) if char == "-"):
        a, b = sorted((text[:cut], text[cut + 1 :]))
        for border in world["borders"]:
            if border[0] == a and border[1] == b:
                return list(border)
    raise InputError("border", f"{text!r} is not a border of this map (write it as A-B)")


def previews(
    state: dict[str, Any], ledger: list[dict[str, Any]], attacker: str, defender: str,
    border: str | None = None,
) -> list[dict[str, Any]]:
    """Exact chances of a hypothetical battle on the public `state` with the `ledger`'s
    contributions due, one preview per border kind the two share (or the named border's)."""
    world = state["world"]
    board = engine.pending_board(state, ledger)
    for role, code in (("attacker", attacker), ("defender", defender)):
        if code not in board["factions"]:
            raise InputError(role, f"no faction has the code {code!r}")
        if not board["factions"][code]["standing"]:
            raise RuleError(role, f"{code} has been absorbed and cannot fight")
    shared = engine.shared_borders(world, board, attacker, defender)
    if attacker == defender or not shared:
        raise RuleError("defender", f"{defender} shares no border with {attacker}")
    if border is not None:
        chosen = _border_between(world, border)
        if chosen not in shared:
            raise RuleError("border", f"{border} does not join {attacker} and {defender}")
        kinds = [chosen[2]]
    else:
        kinds = sorted({b[2] for b in shared}, key=tables.BORDER_KINDS.index)
    previews = []
    for kind in kinds:
        sides = engine.regular_sides(
            world, board, board["next_battle"], attacker, defender, kind == tables.SEA
        )
        secured, clash = engine.fan_outcome(*sides)
        line = engine.odds_line(*sides, secured)
        previews.append(
            {
                "battle": board["next_battle"],
                "border_kind": kind,
                "sides": {"attacker": sides[0], "defender": sides[1]},
                "secured": secured,
                "fan_clash": clash,
                "battle_chance": {
                    "before": engine.fraction_text(line["before"]),
                    "after": engine.fraction_text(line["after"]),
                },
                "rounds": line["rounds"],
            }
        )
    return previews
