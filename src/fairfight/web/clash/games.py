"""Sandbox games, kept in memory per browser session: the world, each played turn, orders.

A game is keyed by a random session id held in a cookie. Games live in the serving process
only (a restart forgets them; the oldest are dropped beyond `MAX_GAMES`): the sandbox is for
trying the rules, and a game can always be saved as a scenario and loaded again.
"""

from __future__ import annotations

import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from fairfight.clash.ai import ai_orders
from fairfight.clash.exchange import Outcome, resolve_exchange
from fairfight.clash.generate import generate_scenario
from fairfight.clash.orders import TurnOrders, UnitOrders, check_orders
from fairfight.clash.panel import reconcile
from fairfight.clash.panel_model import Reconciliation
from fairfight.clash.preview import preview
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import load_scenario, parse_scenario
from fairfight.clash.setpieces import siege_scenario
from fairfight.clash.spec import parse_spec
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError

__all__ = [
    "COOKIE",
    "MAX_GAMES",
    "SCENARIOS",
    "Game",
    "GameStore",
    "PlayedTurn",
    "builtin_scenario",
    "new_session_id",
    "reconcile_event",
    "scenario_from_text",
    "start_game",
    "world_of",
]

COOKIE = "fairfight_clash"
"""The cookie naming the browser's sandbox game."""
MAX_GAMES = 500
"""Games kept at once; the least recently used is dropped beyond this."""
SCENARIOS: dict[str, str] = {
    "belvoir-wood": "Belvoir Wood — the §23 worked example as a board (3 x 4)",
    "siege": "Siege of Castel — a works-3 city, a gun line and armour (5 x 5)",
    "skirmish": "Skirmish — a generated 12 x 12 board, 8 units a side",
    "field": "Open field — a generated 24 x 24 board, 30 units a side",
}


@cache
def _belvoir_text() -> str:
    return (files("fairfight.web.clash") / "scenarios" / "belvoir-wood.yaml").read_text(
        encoding="utf-8")


def builtin_scenario(name: str) -> dict[str, Any]:
    """A built-in scenario as plain data (copies, since callers may change them)."""
    if name == "belvoir-wood":
        data: dict[str, Any] = yaml.safe_load(_belvoir_text())
        return data
    if name == "siege":
        return siege_scenario("siege")
    if name == "skirmish":
        return generate_scenario("skirmish", width=12, height=12, per_side=8)
    if name == "field":
        return generate_scenario("field", width=24, height=24, per_side=30)
    raise InputError("scenario", f"unknown scenario {name!r}; use {', '.join(SCENARIOS)}")


def scenario_from_text(text: str) -> World:
    """An uploaded scenario (YAML or JSON), read by the command line's reader."""
    with tempfile.TemporaryDirectory(prefix="fairfight-scenario-") as folder:
        path = Path(folder) / "scenario.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            return world_from_scenario(load_scenario(path))
        except InputError as error:
            if error.field == str(path):
                raise InputError("file", error.rule) from None
            raise


def new_session_id() -> str:
    """A fresh unguessable session id."""
    return secrets.token_urlsafe(18)


@dataclass(slots=True)
class PlayedTurn:
    """One turn as played: the world before and after, the orders, the events, and the
    reconciliation line of each clash event (by event index)."""

    number: int
    before: World
    after: World
    orders: dict[str, Any]
    events: list[dict[str, Any]]
    reconciliations: dict[int, Reconciliation]


@dataclass(slots=True)
class Game:
    """A sandbox game: the true world, the human's side, the AI's sides, orders and turns."""

    name: str
    world: World
    player: str
    ai_players: tuple[str, ...]
    pending: dict[str, UnitOrders] = field(default_factory=dict)
    turns: list[PlayedTurn] = field(default_factory=list)
    autopilot: bool = False
    """The AI also orders the human's units that were given no orders."""

    def order(self, unit_id: str, orders: UnitOrders) -> None:
        """Set one unit's orders for the coming turn, checked as the engine checks them."""
        check_orders(self.world, TurnOrders(player=self.player, orders={unit_id: orders}))
        self.pending[unit_id] = orders

    def play(self) -> PlayedTurn:
        """The Cascade of one turn: the human's orders and the AI's, then reconciliation."""
        parts = [ai_orders(self.world, player) for player in self.ai_players]
        if self.autopilot:
            suggested = ai_orders(self.world, self.player).orders
            parts.append(TurnOrders(orders={uid: orders for uid, orders in suggested.items()
                                            if uid not in self.pending}))
        parts.append(TurnOrders(player=self.player, orders=dict(self.pending)))
        orders = merge_orders(parts)
        before = self.world
        result = run_turn(before, orders)
        lines = {index: reconcile_event(event) for index, event in enumerate(result.events)
                 if event.get("event") == "clash"}
        played = PlayedTurn(before.turn, before, result.world,
                            orders.model_dump(mode="json", exclude_none=True), result.events,
                            lines)
        self.turns.append(played)
        self.world = result.world
        self.pending = {}
        return played


def reconcile_event(event: dict[str, Any]) -> Reconciliation:
    """A clash event's reconciliation: its spec previewed and resolved again at its r.

    Both are pure functions of the event's specification, so this is the prediction the
    player was shown and the result the Cascade applied [CB-2280, CB-2460].
    """
    plan = event["plan"]
    spec = parse_spec(plan["spec"])
    in_city = bool(plan["defender_in_city"])
    view = preview(spec, defender_in_city=in_city)
    outcome: Outcome = resolve_exchange(spec, int(event["r"]), defender_in_city=in_city)
    return reconcile(view, outcome)


class GameStore:
    """Games by session id, least recently used dropped beyond a limit; thread-safe."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def get(self, session: str | None) -> Game | None:
        """The session's game, if any."""
        if not session:
            return None
        with self._lock:
            game = self._games.get(session)
            if game is not None:
                self._games.move_to_end(session)
            return game

    def put(self, session: str, game: Game) -> None:
        """Store (or replace) the session's game."""
        with self._lock:
            self._games[session] = game
            self._games.move_to_end(session)
            while len(self._games) > self._limit:
                self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)


def start_game(name: str, world: World, player: str, ai: bool,
               autopilot: bool = False) -> Game:
    """A new game on a world; with `ai`, every other player is played by the AI."""
    if player not in world.sides:
        raise InputError("side", f"unknown player {player!r}; players: "
                         + ", ".join(world.sides))
    others = tuple(p for p in world.sides if not world.allied(p, player)) if ai else ()
    return Game(name=name, world=world, player=player, ai_players=others, autopilot=autopilot)


def world_of(name: str) -> World:
    """A built-in scenario's world."""
    return world_from_scenario(parse_scenario(builtin_scenario(name)))
