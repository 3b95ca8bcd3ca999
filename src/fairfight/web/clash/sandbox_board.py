"""What the sandbox page draws on its board beside the engine's figures: the links of its
units and tiles, the overlay as the fog switch shows it, and the previewed attack's links."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from fairfight.clash.knowledge import OverlayTile, overlay
from fairfight.web.clash.play import PlannedAttack
from fairfight.web.clash.service import Game

__all__ = ["attack_context", "flags_of", "layer_tiles", "sandbox_link"]


def flags_of(fog: bool, layer: bool) -> dict[str, str]:
    """The fog and overlay switches as the query parameters every sandbox link carries."""
    return {"fog": "on" if fog else "off", "overlay": "on" if layer else "off"}


def sandbox_link(select: str, flags: dict[str, str]) -> Callable[[str, Any], str]:
    """The address a clickable unit (select it) or tile (attack it) of the sandbox board
    leads to, keeping the fog and overlay flags."""

    def link(kind: str, value: Any) -> str:
        if kind == "unit":
            return "/clash/game?" + urlencode({"select": value, **flags})
        return "/clash/game?" + urlencode({"select": select, "target": f"{value[0]},{value[1]}",
                                           **flags})

    return link


def attack_context(attack: PlannedAttack, select: str, target: str,
                    flags: dict[str, str]) -> dict[str, Any]:
    """The previewed attack with a link dropping each supporter from it."""
    return {
        "attack": attack,
        "without_links": {
            uid: "/clash/game?" + urlencode({"select": select, "target": target,
                                             "without": uid, **flags})
            for uid in attack.plan.supporters},
        "plan_supporters": ",".join(attack.plan.supporters),
    }


def layer_tiles(game: Game, fogged: bool) -> list[OverlayTile]:
    """The overlay of the side's board; "provisional" is a mark of fog alone, so it is
    cleared when the sandbox shows the board unfogged."""
    layer_tiles = overlay(game.world, game.player)
    if not fogged:
        layer_tiles = [replace(tile, provisional=False) for tile in layer_tiles]
    return layer_tiles
