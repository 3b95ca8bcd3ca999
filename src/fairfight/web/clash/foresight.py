"""Foresight for a seated side: the threat view and the odds of the written plan.

JSON under the seat API (`/api/clash/play/<game>/threats`, `…/plan-odds`) and a section of
the play page. Both are opened by the seat like every other seat route (404 without a seat,
409 for a hot-seat screen nobody sits at) and both are built from the side's knowledge view
only (`clash.threat`, `clash.plan_odds`): the answer never holds a unit the side has not
seen. The pages only format the engine's figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from fairfight.clash.knowledge import knowledge_view
from fairfight.clash.orders import TurnOrders
from fairfight.clash.plan_odds import (
    GROUP_REACH,
    JOINT_LIMIT,
    MAX_PLAN_OUTCOMES,
    PlanOdds,
    plan_odds_in_view,
)
from fairfight.clash.threat import HEAT_BANDS, Threat, threats_in_view
from fairfight.clash.world import World
from fairfight.web.clash.board import Drawing
from fairfight.web.clash.seats import seat_game
from fairfight.web.clash.service import Game

__all__ = [
    "HEAT_EDGES",
    "HEAT_MARKS",
    "Foresight",
    "PlanOddsAnswer",
    "ThreatsAnswer",
    "api_plan_odds",
    "api_threats",
    "foresight_context",
    "foresight_router",
    "heat_legend",
]

foresight_router = APIRouter()

HEAT_MARKS = {"high": "⚔H", "medium": "⚔M", "low": "⚔L"}
"""The label drawn with each heat band (with its own edge pattern), so colour is never alone."""
HEAT_EDGES = {"high": "solid edge", "medium": "dashed edge", "low": "dotted edge"}


def heat_legend() -> list[tuple[str, str, int, int]]:
    """(label, edge, lowest, highest break chance) of each drawn band, from the engine's
    bands."""
    legend, low = [], 0
    for bound, name in HEAT_BANDS:
        if name in HEAT_MARKS:
            legend.append((HEAT_MARKS[name], HEAT_EDGES[name], low, bound))
        low = bound + 1
    return legend[::-1]


class ThreatsAnswer(BaseModel):
    """The threat to each of the side's units next turn, from its knowledge view."""

    game: str
    side: str
    turn: int
    threats: list[dict[str, Any]]


class PlanOddsAnswer(BaseModel):
    """The exact odds of the side's written orders for this turn, from its knowledge view."""

    game: str
    side: str
    turn: int
    odds: dict[str, Any]


def _seated(request: Request, game_id: str) -> tuple[Game, str, World]:
    game = seat_game(request, game_id)
    side = game.player
    if not side:
        raise HTTPException(409, "side: no side is seated at this screen; hand over first")
    return game, side, knowledge_view(game.world, side)


def _plan(game: Game, side: str, view: World) -> PlanOdds:
    return plan_odds_in_view(view, side, TurnOrders(orders=dict(game.pending)))


@foresight_router.get("/api/clash/play/{game_id}/threats", tags=["clash play"])
def api_threats(request: Request, game_id: str) -> ThreatsAnswer:
    """For each of your units, the worst assault a visible enemy can reach it with next turn
    (which enemy, from where, its verdict and break chance)."""
    game, side, view = _seated(request, game_id)
    return ThreatsAnswer(game=game.id, side=side, turn=view.turn,
                         threats=[x.to_json() for x in threats_in_view(view, side)])


@foresight_router.get("/api/clash/play/{game_id}/plan-odds", tags=["clash play"])
def api_plan_odds(request: Request, game_id: str) -> PlanOddsAnswer:
    """The exact odds of your written orders: each objective taken, each unit surviving,
    the joint distribution when small; or a one-line refusal past the limit."""
    game, side, view = _seated(request, game_id)
    return PlanOddsAnswer(game=game.id, side=side, turn=view.turn,
                          odds=_plan(game, side, view).to_json())


@dataclass(frozen=True, slots=True)
class Foresight:
    """What the play page's foresight section shows."""

    threats_on: bool
    threats: tuple[Threat, ...]
    odds_on: bool
    odds: dict[str, Any] | None
    limit: int = MAX_PLAN_OUTCOMES
    joint_limit: int = JOINT_LIMIT
    reach: int = GROUP_REACH
    legend: tuple[tuple[str, str, int, int], ...] = ()


def _mark_threats(drawing: Drawing, view: World, threats: tuple[Threat, ...]) -> None:
    """Put each threatened tile's worst threat on the drawn tile (the heat layer)."""
    worst: dict[int, Threat] = {}
    for threat in threats:
        if threat.enemy is None:
            continue
        tile = view.board.index(*threat.tile)
        if tile not in worst or threat.break_permille > worst[tile].break_permille:
            worst[tile] = threat
    for tile, threat in worst.items():
        drawing.tiles[tile].threat = (threat.heat, HEAT_MARKS.get(threat.heat, "⚔"),
                                      threat.break_permille, threat.provisional)


def foresight_context(game: Game, view: World, side: str, drawing: Drawing | None,
                      query: Any) -> Foresight:
    """The section's content for `?threats=on` and `?odds=on`; the threats also go on the
    drawn board as its heat layer."""
    threats_on = query.get("threats") == "on"
    odds_on = query.get("odds") == "on" and bool(game.pending)
    threats = tuple(threats_in_view(view, side)) if threats_on else ()
    if drawing is not None and threats:
        _mark_threats(drawing, view, threats)
    odds = _plan(game, side, view).to_json() if odds_on else None
    return Foresight(threats_on, threats, odds_on, odds, legend=tuple(heat_legend()))
