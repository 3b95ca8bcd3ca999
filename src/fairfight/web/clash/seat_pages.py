"""The pages of a two-human game: the board as the seated side knows it, every order by hand,
the activation order before the turn runs, the hand-over screen, the turn's events as the
side saw them, and the replay of a finished game by URL (`/clash/replay/<game>?turn=N`).

Forms post and redirect; the page needs no JavaScript (the sandbox script only swaps pages
in place). Every figure is read from the side's knowledge view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from fairfight.clash import tables as t
from fairfight.clash.knowledge import knowledge_view, overlay
from fairfight.clash.luck import scenario_luck
from fairfight.clash.orders import MAX_PRIORITY, UnitOrders
from fairfight.clash.store import TABLE_SEAT
from fairfight.clash.world import World
from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits
from fairfight.web.clash.activation import activation_rows
from fairfight.web.clash.board import draw_board, event_tiles, unit_rows
from fairfight.web.clash.foresight import foresight_context
from fairfight.web.clash.games import SCENARIOS
from fairfight.web.clash.live import progress_id
from fairfight.web.clash.play import (
    OrderRequest,
    PlannedAttack,
    board_panel,
    bombard_panel,
    order_of,
    parse_point,
)
from fairfight.web.clash.sandbox import clash_service
from fairfight.web.clash.seats import NewTable, keep_seat, new_table, seat_game, seat_link
from fairfight.web.clash.service import Game
from fairfight.web.clash.table_orders import Selection, form_orders, selection
from fairfight.web.ops.pools import run_in_pool
from fairfight.web.strict_input import MaybeWholeNumber
from fairfight.web.templating import templates

__all__ = [
    "play_cancel",
    "play_commit",
    "play_hand_over",
    "play_order",
    "play_page",
    "play_priority",
    "play_resign",
    "replay_page",
    "seat_pages_router",
    "tables_new",
]

seat_pages_router = APIRouter()
_ACTION = {"move": "move to", "bombard": "bombard", "assault": "attack"}
"""The label of a clickable tile in each order mode."""


def _played_context(request: Request, world_for_log: World, game: Game, played: Any,
                    event: int | None, viewer: str | None) -> dict[str, Any]:
    index = event if event is not None and 0 <= event < len(played.events) else 0
    highlights, arrows = (event_tiles(world_for_log, played.events[index])
                          if played.events else ((), ()))
    return {"played": played, "event": index, "highlights": highlights, "arrows": arrows,
            "events": clash_service(request).words(game, played, viewer),
            "reconciliation": played.reconciliations.get(index)}


@seat_pages_router.post("/clash/tables", include_in_schema=False)
def tables_new(request: Request, scenario: Annotated[str, Form()] = "skirmish",
               mode: Annotated[str, Form()] = "online") -> Response:
    """A two-human game from the home page's form: a hot-seat table opens at once; an
    online game shows both seat links."""
    body = NewTable(scenario=scenario, mode="hotseat" if mode == "hotseat" else "online")
    game_id, tokens = new_table(request, body)
    if body.mode == "hotseat":
        response = RedirectResponse(f"/clash/play/{game_id}", status_code=303)
        keep_seat(response, game_id, tokens[TABLE_SEAT])
        return response
    return templates.TemplateResponse(request, "clash/seats.html", {
        "game_id": game_id, "name": SCENARIOS.get(scenario, scenario),
        "links": {side: str(request.base_url).rstrip("/") + seat_link(game_id, token)
                  for side, token in tokens.items()}})


@seat_pages_router.get("/clash/play/{game_id}", response_class=HTMLResponse,
                       include_in_schema=False)
def play_page(request: Request, game_id: str, select: str = "", mode: str = "",
              path: str = "", target: str = "", turn: MaybeWholeNumber = None,
              event: MaybeWholeNumber = None) -> Response:
    """The board as your side knows it, the selected unit's orders, and the turn's log."""
    game = seat_game(request, game_id)
    service = clash_service(request)
    side = game.player
    select = "" if game.finished else select   # no more orders: nothing to select
    context: dict[str, Any] = {"game": game, "side": side, "error": "", "select": select,
                               "stances": [s.value for s in t.Stance], "base": game_id,
                               "deadline": service.deadline(game), "played": None,
                               "events": [], "event": 0, "reconciliation": None,
                               "may_change": (), "progress": progress_id(game)}
    if not side:
        return templates.TemplateResponse(request, "clash/handover.html", context)
    view = knowledge_view(game.world, side)
    status = 200
    highlights: tuple[int, ...] = ()
    arrows: tuple[tuple[int, int, str], ...] = ()
    played = service.played(game, turn) if turn else None
    if played is not None:
        log_world = knowledge_view(played.after, side)
        context.update(_played_context(request, log_world, game, played, event, side))
        highlights, arrows = context["highlights"], context["arrows"]
    chosen = None
    attack: PlannedAttack | None = None
    if select in view.units and view.allied(view.units[select].player, side) \
            and played is None:
        chosen = selection(view, select, mode, path)
        highlights = chosen.highlights
        try:
            attack = _previewed(game, chosen, select, target)
        except (InputError, ValueError) as refusal:
            context["error"], status = str(refusal), 422
        if chosen.mode == "move" and chosen.path:
            tiles = [view.units[select].tile, *(view.board.index(*p) for p in chosen.path)]
            arrows = tuple((a, b, "move") for a, b in zip(tiles, tiles[1:], strict=False))
    pending = game.pending
    if attack is not None and chosen is not None and chosen.mode == "assault":
        context["may_change"] = _may_change(view, side, pending, select, target)
    link = _board_link(game_id, select, chosen)
    context.update(
        chosen=chosen, attack=attack, target=target, path=path,
        drawing=_play_drawing(game, view, side, played, select, chosen, attack, link,
                              (highlights, arrows)),
        plan_supporters=",".join(attack.plan.supporters) if attack else "",
        **_side_context(game, view, side))
    context["foresight"] = foresight_context(
        game, view, side, context["drawing"] if played is None else None, request.query_params)
    if chosen is not None:
        context.update(unit=view.units[select], tile_names={
            i: "({},{})".format(*view.board.xy(i)) for i in chosen.clickable})
    return templates.TemplateResponse(request, "clash/play.html", context, status_code=status)


def _play_drawing(game: Game, view: World, side: str, played: Any, select: str,
                  chosen: Selection | None, attack: PlannedAttack | None, link: Any,
                  marks: tuple[tuple[int, ...], tuple[tuple[int, int, str], ...]]) -> Any:
    """The board of the play page: the side's view now, or after the turn being read."""
    highlights, arrows = marks
    return draw_board(view if played is None else knowledge_view(played.after, side),
                      side, link=link if played is None else None, selected=select,
                      targets=chosen.clickable if chosen else set(),
                      overlay=overlay(game.world, side) if played is None else None,
                      retreat=(attack.plan.destination, attack.plan.retreat_tiles)
                      if attack else None,
                      target=attack.plan.order.target if attack else None,
                      highlights=highlights, arrows=arrows,
                      warnings=frozenset(step.tile for step in chosen.steps
                                         if step.reactors) if chosen else frozenset(),
                      action=_ACTION.get(chosen.mode, "attack") if chosen else "attack")


def _previewed(game: Game, chosen: Selection, select: str,
               target: str) -> PlannedAttack | None:
    """The exact panel of the selected unit's assault or bombardment of `target`, the same
    `evaluate` for both (None in move mode or before a target is clicked)."""
    if chosen.mode not in ("assault", "bombard") or not target:
        return None
    if chosen.mode == "assault":
        return board_panel(game, select, parse_point(target), fog=True)
    return bombard_panel(game, select, parse_point(target))


def _side_context(game: Game, view: World, side: str) -> dict[str, Any]:
    """The side's units, its pending orders in activation order, and who has committed."""
    pending = game.pending
    return {
        "units": unit_rows(view, side),
        "names": {uid: unit.name for uid, unit in view.units.items()},
        "pending": {uid: o.model_dump(mode="json", exclude_none=True)
                    for uid, o in pending.items()},
        "priorities": range(MAX_PRIORITY + 1),
        "activation": activation_rows(view, side, pending),
        "committed": {s: game.committed(s) for s in game.row.humans},
    }


def _board_link(game_id: str, select: str,
                chosen: Selection | None) -> Callable[[str, Any], str]:
    """The address each clickable unit or tile of the board leads to: a unit selects it; a
    tile extends the move's path or aims the selected unit's order at it."""

    def link(kind: str, value: Any) -> str:
        if kind == "unit":
            return f"/clash/play/{game_id}?" + urlencode({"select": value})
        point = f"{value[0]},{value[1]}"
        if chosen is not None and chosen.mode == "move":
            return f"/clash/play/{game_id}?" + urlencode(
                {"select": select, "mode": "move", "path": ";".join(
                    [*(f"{x},{y}" for x, y in chosen.path), point])})
        return f"/clash/play/{game_id}?" + urlencode(
            {"select": select, "mode": chosen.mode if chosen else "", "target": point})

    return link


def _may_change(view: World, side: str, pending: dict[str, UnitOrders], select: str,
                target: str) -> tuple[str, ...]:
    """Whether earlier activations of this turn would change the previewed assault: the
    activation row of the order as it would stand (keeping the unit's place in the turn)."""
    trial_order = order_of(OrderRequest(lead=select, target=parse_point(target)))
    if select in pending:
        trial_order = trial_order.model_copy(update={"priority": pending[select].priority})
    trial = {**pending, select: trial_order}
    return next(a for a in activation_rows(view, side, trial) if a.unit == select).may_change


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


def _turn_of(form: dict[str, str]) -> int:
    text = form.get("turn", "")
    if not is_plain_digits(text):
        raise InputError("turn", "the form names the turn it answers", text)
    return int(text)


@seat_pages_router.post("/clash/play/{game_id}/orders", include_in_schema=False)
async def play_order(request: Request, game_id: str) -> Response:
    """One unit's order from the page's forms; a priority set earlier this turn stays."""
    form = await _form(request)
    game = seat_game(request, game_id)
    unit = form.get("unit", "")
    orders = form_orders(form)
    earlier = game.pending.get(unit)
    if earlier is not None and earlier.priority is not None:   # new orders keep the place
        orders = orders.model_copy(update={"priority": earlier.priority})
    clash_service(request).order(game, unit, orders, _turn_of(form))
    return RedirectResponse(f"/clash/play/{game_id}", status_code=303)


@seat_pages_router.post("/clash/play/{game_id}/priority", include_in_schema=False)
async def play_priority(request: Request, game_id: str) -> Response:
    """Set the activation priority of one unit's pending orders (guns before the assault
    they prepare: CB-2040, CB-2050); 0 keeps the Stance order."""
    form = await _form(request)
    game = seat_game(request, game_id)
    unit = form.get("unit", "")
    pending = game.pending.get(unit)
    if pending is None:
        raise InputError("unit", "that unit has no orders this turn to give a priority")
    text = form.get("priority", "")
    if not is_plain_digits(text) or int(text) > MAX_PRIORITY:
        raise InputError("priority", f"a whole number from 0 to {MAX_PRIORITY}", text)
    chosen = pending.model_copy(update={"priority": int(text) or None})
    clash_service(request).order(game, unit, chosen, _turn_of(form))
    return RedirectResponse(f"/clash/play/{game_id}", status_code=303)


@seat_pages_router.post("/clash/play/{game_id}/cancel", include_in_schema=False)
async def play_cancel(request: Request, game_id: str) -> Response:
    """Withdraw one unit's orders (or all, without a unit)."""
    form = await _form(request)
    game = seat_game(request, game_id)
    clash_service(request).cancel(game, form.get("unit") or None, _turn_of(form))
    return RedirectResponse(f"/clash/play/{game_id}", status_code=303)


@seat_pages_router.post("/clash/play/{game_id}/commit", include_in_schema=False)
async def play_commit(request: Request, game_id: str) -> Response:
    """Commit the side's orders; after the turn, show its events as the side saw them."""
    form = await _form(request)
    game = seat_game(request, game_id)
    played = await run_in_pool("turns", clash_service(request).commit, game, _turn_of(form))
    if played is not None and game.seat != TABLE_SEAT:
        return RedirectResponse(f"/clash/play/{game_id}?turn={played.number}",
                                status_code=303)
    return RedirectResponse(f"/clash/play/{game_id}", status_code=303)


@seat_pages_router.post("/clash/play/{game_id}/resign", include_in_schema=False)
async def play_resign(request: Request, game_id: str) -> Response:
    """The seated side gives up, once the form's box confirms it (no script needed)."""
    form = await _form(request)
    game = seat_game(request, game_id)
    if form.get("confirm") != "on":
        raise InputError("confirm", "tick the box to confirm the resignation",
                         form.get("confirm", ""))
    clash_service(request).resign(game, _turn_of(form))
    return RedirectResponse(f"/clash/play/{game_id}", status_code=303)


@seat_pages_router.post("/clash/play/{game_id}/handover", include_in_schema=False)
def play_hand_over(request: Request, game_id: str, side: Annotated[str, Form()]) -> Response:
    """The next side sits down at a hot-seat table: it reads its view of the last turn."""
    game = seat_game(request, game_id)
    clash_service(request).hand_over(game, side)
    last = game.turn_numbers[-1] if game.turns else None
    suffix = f"?turn={last}" if last is not None else ""
    return RedirectResponse(f"/clash/play/{game_id}{suffix}", status_code=303)


@seat_pages_router.get("/clash/replay/{game_id}", response_class=HTMLResponse,
                       include_in_schema=False)
def replay_page(request: Request, game_id: str, turn: MaybeWholeNumber = None,
                event: MaybeWholeNumber = None) -> Response:
    """A finished game, turn by turn, with the whole truth (nothing is secret any more)."""
    service = clash_service(request)
    try:
        game = service.open(game_id, TABLE_SEAT)
    except LookupError:
        raise HTTPException(404, "no such game") from None
    if not game.finished:
        raise HTTPException(403, "game: it is still being played; replays open when it ends")
    number = turn if turn is not None else (game.turn_numbers[-1] if game.turns else None)
    context: dict[str, Any] = {"game": game, "turn": number, "played": None, "events": [],
                               "event": 0, "reconciliation": None,
                               "luck": [side.to_json() for side in
                                        scenario_luck(game.row.scenario, game.turns)]}
    if number is not None:
        played = service.played(game, number, truth=True)
        context.update(_played_context(request, played.after, game, played, event, None))
        context["drawing"] = draw_board(played.after, game.row.humans[0],
                                        highlights=context["highlights"],
                                        arrows=context["arrows"])
    else:
        context["drawing"] = draw_board(game.world, game.row.humans[0])
    return templates.TemplateResponse(request, "clash/replay.html", context)
