"""The board sandbox: pages and JSON under /clash/game and /api/clash/game(s).

Pick a scenario and a side; click one of your units, then an enemy next to it: the attack
panel appears beside the board with the retreat tile drawn on it. Order the attack, run the
Cascade (the AI orders the other side), and step through the turn's events, each clash with
its reconciliation line. The game is stored in the database; the browser holds its seat
token in the `fairfight_clash` cookie.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import BaseModel, StrictBool
from starlette.exceptions import HTTPException

from fairfight.clash import tables as t
from fairfight.clash.knowledge import overlay_data, player_view
from fairfight.clash.panel_model import Reconciliation
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.store import ClashStore
from fairfight.clash.world import world_from_scenario
from fairfight.core.errors import InputError
from fairfight.web.clash.board import (
    adjacent_enemy_tiles,
    draw_board,
    event_tiles,
    unit_rows,
)
from fairfight.web.clash.games import (
    COOKIE,
    SCENARIOS,
    PlayedTurn,
    builtin_scenario,
    scenario_from_text,
    sides_of,
)
from fairfight.web.clash.play import (
    BoardPanel,
    OrderRequest,
    PlannedAttack,
    board_panel,
    order_of,
    parse_point,
    viewed_world,
)
from fairfight.web.clash.sandbox_board import (
    attack_context,
    flags_of,
    layer_tiles,
    sandbox_link,
)
from fairfight.web.clash.service import ClashService, Game
from fairfight.web.lifecycle import on_shutdown
from fairfight.web.ops.pools import pooled
from fairfight.web.settings import WebSettings, sibling_database_url
from fairfight.web.strict_input import Id, MaybeWholeNumber
from fairfight.web.templating import templates

__all__ = [
    "GameState",
    "NewGame",
    "SCENARIO_MAX_BYTES",
    "TurnAnswer",
    "api_game",
    "api_new_game",
    "api_order",
    "api_overlay",
    "api_panel",
    "api_played_turn",
    "api_scenario",
    "api_scenarios",
    "api_turn",
    "clash_database_url",
    "clash_service",
    "client_address",
    "install_sandbox",
    "sandbox_clear",
    "sandbox_game",
    "sandbox_home",
    "sandbox_new",
    "sandbox_order",
    "sandbox_router",
    "sandbox_save",
    "sandbox_turn",
    "sandbox_upload",
]

sandbox_router = APIRouter()
SCENARIO_MAX_BYTES = 64 * 1024
"""A scenario upload is at most this size (the service refuses larger bodies anyway)."""


class NewGame(BaseModel):
    """A new sandbox game: a built-in scenario, your side, whether the AI plays the rest."""

    scenario: str = "belvoir-wood"
    side: str = "blue"
    ai: StrictBool = True
    autopilot: StrictBool = False


class GameState(BaseModel):
    """The game as the player sees it: the board view, the overlay, orders and turns."""

    name: str
    player: str
    ai_players: list[str]
    view: dict[str, Any]
    overlay: list[dict[str, Any]]
    pending: dict[str, Any]
    turns_played: int
    result: dict[str, Any] | None = None
    """When the game is over: winner, reason, words, last turn and the summary per side."""


class TurnAnswer(BaseModel):
    """A played turn: its events and the reconciliation line of each clash."""

    turn: int
    events: list[dict[str, Any]]
    reconciliations: dict[int, Reconciliation]


def clash_database_url(conquest_url: str, chosen: str | None = None) -> str:
    """The clash games' own database beside the service's: a SQLite file `X.db` gets
    `X-clash.db` (never the season file itself), memory stays memory, a server database
    holds the clash tables too. A chosen URL (`FAIRFIGHT_CLASH_DATABASE_URL`) wins."""
    return chosen or sibling_database_url(conquest_url, "clash")


def install_sandbox(app: FastAPI) -> None:
    """Open the clash games' database and attach the game service to the app, with the
    clash settings of the service's one settings class."""
    settings: WebSettings = app.state.settings
    url = clash_database_url(settings.database_url, settings.clash_database_url)
    service = ClashService(ClashStore(url), settings.clash_games_per_client,
                           settings.clash_turn_clock_seconds)
    app.state.clash = service
    if not hasattr(app.state, "exit_hooks"):
        app.state.exit_hooks = []
    app.state.exit_hooks.append(service.stopping.set)   # `fairfight serve` calls these
    on_shutdown(app, service.store.close)


def clash_service(request: Request) -> ClashService:
    """The app's clash game service."""
    service: ClashService = request.app.state.clash
    return service


def client_address(request: Request) -> str:
    """The address the per-client cap counts (as the server saw it)."""
    return request.client.host if request.client else "unknown"


def _sandbox_game(request: Request) -> Game | None:
    """The browser's game against the AI; a two-player seat is never opened here (these
    routes may show the truth, its pages never do)."""
    game = clash_service(request).open_seat(request.cookies.get(COOKIE))
    return game if game is not None and not game.fog_enforced else None


def _game(request: Request) -> Game:
    game = _sandbox_game(request)
    if game is None:
        raise HTTPException(404, "no sandbox game in this session; start one at /clash")
    return game


def _begin(request: Request, response: Response, name: str, scenario: dict[str, Any],
           side: str, ai: bool, autopilot: bool = False) -> Game:
    """Store a game against the AI (or every side at this one seat) and seat the browser."""
    world = world_from_scenario(parse_scenario(scenario))
    _, ai_players = sides_of(world, side, ai)   # without the AI the other sides stand
    service = clash_service(request)
    game_id, tokens = service.start(
        name=name, scenario=scenario, mode="solo", humans=(side,), ai_players=ai_players,
        client=client_address(request), autopilot=autopilot)
    response.set_cookie(COOKIE, tokens[side], httponly=True, samesite="lax",
                        max_age=30 * 86400)
    return service.open(game_id, side)


def _state(game: Game) -> GameState:
    return GameState(
        name=game.name, player=game.player, ai_players=list(game.ai_players),
        view=player_view(game.world, game.player),
        overlay=overlay_data(game.world, game.player),
        pending={uid: o.model_dump(mode="json", exclude_none=True)
                 for uid, o in game.pending.items()},
        turns_played=len(game.turns),
        result=game.end.to_json() if game.end is not None else None)


def _turn_answer(request: Request, game: Game, number: int) -> TurnAnswer:
    played = clash_service(request).played(game, number)
    return TurnAnswer(turn=played.number, events=played.events,
                      reconciliations=played.reconciliations)


# --- pages ---------------------------------------------------------------------------------


@sandbox_router.get("/clash", response_class=HTMLResponse, include_in_schema=False)
def sandbox_home(request: Request) -> HTMLResponse:
    """Start a game: a built-in or uploaded scenario, your side, the AI on the other."""
    game = _sandbox_game(request)
    return templates.TemplateResponse(request, "clash/home.html", {
        "scenarios": SCENARIOS, "game": game, "upload_max": SCENARIO_MAX_BYTES})


@sandbox_router.post("/clash/games", include_in_schema=False)
def sandbox_new(request: Request, scenario: Annotated[str, Form()] = "belvoir-wood",
                side: Annotated[str, Form()] = "blue", ai: Annotated[str, Form()] = "",
                autopilot: Annotated[str, Form()] = "") -> Response:
    """A new game on a built-in scenario (the form posts here)."""
    response = RedirectResponse("/clash/game", status_code=303)
    _begin(request, response, scenario, builtin_scenario(scenario), side, bool(ai),
           bool(autopilot))
    return response


@sandbox_router.post("/clash/games/upload", include_in_schema=False)
async def sandbox_upload(request: Request, file: Annotated[UploadFile, File()],
                         side: Annotated[str, Form()] = "blue",
                         ai: Annotated[str, Form()] = "") -> Response:
    """A new game on an uploaded scenario file, read by the command line's reader."""
    raw = await file.read(SCENARIO_MAX_BYTES + 1)
    if len(raw) > SCENARIO_MAX_BYTES:
        raise InputError("file", f"a scenario file is at most {SCENARIO_MAX_BYTES:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("file", "is not UTF-8 text") from None
    data = scenario_from_text(text)
    response = RedirectResponse("/clash/game", status_code=303)
    _begin(request, response, str(data.get("name", "scenario")), data, side, bool(ai))
    return response


@sandbox_router.get("/clash/game", response_class=HTMLResponse, include_in_schema=False)
def sandbox_game(request: Request, select: str = "", target: str = "", without: str = "",
                 fog: str = "off", stance: str = "", turn: MaybeWholeNumber = None,
                 event: MaybeWholeNumber = None) -> Response:
    """The board, the attack panel of the selected attack, the orders and the turn log."""
    game = _sandbox_game(request)
    if game is None:
        return RedirectResponse("/clash", status_code=303)
    layer = request.query_params.get("overlay", "on") != "off"
    fogged = fog == "on"
    flags = flags_of(fogged, layer)
    context: dict[str, Any] = {"game": game, "flags": flags, "select": select,
                               "target": target, "stances": [s.value for s in t.Stance],
                               "error": "", "attack": None, "event": None, "played": None}
    status = 200
    played = clash_service(request).played(game, turn) if turn else None
    world = viewed_world(game, fogged, played.after if played else None)
    highlights: tuple[int, ...] = ()
    arrows: tuple[tuple[int, int, str], ...] = ()
    if played is not None:
        index = event if event is not None and 0 <= event < len(played.events) else 0
        highlights, arrows = event_tiles(world, played.events[index])
        context.update(played=played, event=index, events=clash_service(request).words(
            game, played, game.player if fogged or game.fog_enforced else None),
            reconciliation=played.reconciliations.get(index))
    attack: PlannedAttack | None = None
    targets: set[int] = set()
    if select and played is None and select in world.units:
        targets = adjacent_enemy_tiles(world, select)
        if target:
            try:
                chosen = _supporters_without(game, select, target, without, fogged, stance)
                attack = board_panel(game, select, parse_point(target), chosen, fog=fogged,
                                     stance=t.Stance(stance) if stance else None)
            except (InputError, ValueError) as refusal:
                context["error"] = str(refusal)
                status = 422
    retreat = None
    target_tile = None
    if attack is not None:
        retreat = (attack.plan.destination, attack.plan.retreat_tiles)
        target_tile = attack.plan.order.target
        context.update(attack_context(attack, select, target, flags))
    overlay_tiles = layer_tiles(game, fogged) if layer and played is None else None
    link = sandbox_link(select, flags)
    context["drawing"] = draw_board(
        world, game.player, link=link if played is None else None, selected=select,
        targets=targets, overlay=overlay_tiles, retreat=retreat, target=target_tile,
        highlights=highlights, arrows=arrows)
    context["units"] = unit_rows(world, game.player)
    context["pending"] = {uid: o.model_dump(mode="json", exclude_none=True)
                          for uid, o in game.pending.items()}
    return templates.TemplateResponse(request, "clash/game.html", context, status_code=status)


def _supporter_ids(text: str) -> tuple[str, ...] | None:
    """`a,b` -> those ids; `none` -> no supporter; empty -> the automatic choice."""
    if not text:
        return None
    if text == "none":
        return ()
    return tuple(uid for uid in text.split(",") if uid)


def _supporters_without(game: Game, lead: str, target: str, without: str, fog: bool,
                        stance: str) -> tuple[str, ...] | None:
    """The explicit supporter list of the one-click "without X" preview (None: automatic)."""
    if not without:
        return None
    automatic = board_panel(game, lead, parse_point(target), None, fog=fog,
                            stance=t.Stance(stance) if stance else None)
    return tuple(uid for uid in automatic.plan.supporters if uid != without)


@sandbox_router.post("/clash/game/orders", include_in_schema=False)
def sandbox_order(request: Request, lead: Annotated[str, Form()],
                  target: Annotated[str, Form()], supporters: Annotated[str, Form()] = "auto",
                  stance: Annotated[str, Form()] = "", advance: Annotated[str, Form()] = "",
                  ) -> Response:
    """Order the previewed attack (the form under the panel posts here)."""
    game = _game(request)
    chosen: Any = "auto" if supporters in ("", "auto") else [
        uid for uid in supporters.split(",") if uid][:2]
    order = OrderRequest(lead=lead, target=parse_point(target), supporters=chosen,
                         stance=t.Stance(stance) if stance else None, advance=bool(advance))
    clash_service(request).order(game, lead, order_of(order))
    return RedirectResponse("/clash/game", status_code=303)


@sandbox_router.post("/clash/game/orders/clear", include_in_schema=False)
def sandbox_clear(request: Request) -> Response:
    """Withdraw every order given this turn."""
    clash_service(request).cancel(_game(request), None)
    return RedirectResponse("/clash/game", status_code=303)


@sandbox_router.post("/clash/game/turn", include_in_schema=False)
@pooled("turns")
def sandbox_turn(request: Request) -> Response:
    """Run the Cascade and show the turn's first clash (or first event)."""
    played = _play(request, _game(request))
    first = min(played.reconciliations, default=0)
    return RedirectResponse(f"/clash/game?turn={played.number}&event={first}",
                            status_code=303)


def _play(request: Request, game: Game) -> PlayedTurn:
    """Run the Cascade of a game against the AI: its one human side commits."""
    played = clash_service(request).commit(game, game.world.turn)
    if played is None:
        raise HTTPException(409, "turn: this turn was played by another request; reload")
    return played


@sandbox_router.get("/clash/game/scenario.json", include_in_schema=False)
def sandbox_save(request: Request) -> Response:
    """The game between turns as a scenario file (it loads back as a new game)."""
    data = _game(request).world.to_scenario()
    return PlainTextResponse(json.dumps(data, indent=1), media_type="application/json",
                             headers={"content-disposition":
                                      'attachment; filename="clash-game.json"'})


# --- JSON twins ----------------------------------------------------------------------------


@sandbox_router.get("/api/clash/scenarios", tags=["clash sandbox"])
def api_scenarios() -> dict[str, str]:
    """The built-in scenarios."""
    return SCENARIOS


@sandbox_router.get("/api/clash/scenarios/{name}", tags=["clash sandbox"])
def api_scenario(name: str) -> dict[str, Any]:
    """A built-in scenario as scenario data."""
    return builtin_scenario(name)


@sandbox_router.post("/api/clash/games", tags=["clash sandbox"])
def api_new_game(request: Request, response: Response, body: NewGame) -> GameState:
    """Start a game in this session (a cookie names it)."""
    game = _begin(request, response, body.scenario, builtin_scenario(body.scenario),
                  body.side, body.ai, body.autopilot)
    return _state(game)


@sandbox_router.get("/api/clash/game", tags=["clash sandbox"])
def api_game(request: Request) -> GameState:
    """The session's game as the player sees it."""
    return _state(_game(request))


@sandbox_router.get("/api/clash/game/panel", tags=["clash sandbox"])
async def api_panel(request: Request, lead: str, target: str, supporters: str = "",
              fog: bool = False, stance: t.Stance | None = None) -> BoardPanel:
    """The attack panel of one of your units assaulting an adjacent tile (`target` = x,y;
    `supporters` = ids, comma-separated, `none`, or empty for the automatic choice; `fog`: preview
    over what you know, with ranges and pivots, instead of the truth). Answered on the event
    loop: the work is a millisecond of integer arithmetic, cheaper than a thread hop."""
    game = _game(request)
    chosen = _supporter_ids(supporters)
    attack = board_panel(game, lead, parse_point(target), chosen, fog=fog, stance=stance)
    return BoardPanel(panel=attack.panel, plan=attack.plan.to_json(attack.view))


@sandbox_router.get("/api/clash/game/overlay", tags=["clash sandbox"])
def api_overlay(request: Request) -> list[dict[str, Any]]:
    """The hostile-tile overlay of the session's game [CB-2430]."""
    game = _game(request)
    return overlay_data(game.world, game.player)


@sandbox_router.post("/api/clash/game/orders", tags=["clash sandbox"])
def api_order(request: Request, body: OrderRequest) -> dict[str, Any]:
    """Give one of your units an assault order for the coming turn; returns all orders."""
    game = _game(request)
    clash_service(request).order(game, body.lead, order_of(body))
    return {uid: o.model_dump(mode="json", exclude_none=True) for uid, o in game.pending.items()}


@sandbox_router.post("/api/clash/game/turn", tags=["clash sandbox"])
@pooled("turns")
def api_turn(request: Request) -> TurnAnswer:
    """Run the Cascade of one turn (the AI orders its sides) and reconcile every clash."""
    game = _game(request)
    played = _play(request, game)
    return _turn_answer(request, game, played.number)


@sandbox_router.get("/api/clash/game/turns/{number}", tags=["clash sandbox"])
def api_played_turn(request: Request, number: Id) -> TurnAnswer:
    """A played turn's events and reconciliation lines."""
    return _turn_answer(request, _game(request), number)
