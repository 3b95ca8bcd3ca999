"""Clash games as the web plays them: a seat opens its game, writes and commits orders, and
the turn runs once every human side has committed (or the turn clock has run out).

Nothing lives only in one process: a `Game` is loaded from the store for each request and
its world rebuilt by replaying the record, through a per-process cache of worlds keyed by
(game, turns played), capped by bytes — an entry can never go stale, since a played turn
never changes.
A game refuses to continue under another combat logic version than the one it was recorded
with.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from starlette.exceptions import HTTPException

from fairfight.clash import tables as t
from fairfight.clash.ai import ai_orders
from fairfight.clash.ending import GameEnd, game_end
from fairfight.clash.knowledge import knowledge_view
from fairfight.clash.orders import TurnOrders, UnitOrders, check_orders
from fairfight.clash.panel import reconcile_event
from fairfight.clash.record import merge_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.sightings import events_seen_by, masked_event
from fairfight.clash.store import TABLE_SEAT, ClashStore, Draft, GameRow, TurnTaken
from fairfight.clash.turn import run_turn
from fairfight.clash.words import NameBook, describe, name_book, names_seen
from fairfight.clash.world import World, world_from_scenario
from fairfight.core.errors import InputError, VerificationError
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.clash.caps import MAX_TURNS, check_orders_work
from fairfight.web.clash.games import PlayedTurn

__all__ = ["ClashService", "Game", "MODES", "NAMES_BYTES", "WORLDS_BYTES", "world_bytes"]

NAMES_BYTES = 2 * 1024 * 1024
"""Bytes of known names kept per process (a side's names at one turn weigh a few KB)."""
WORLDS_BYTES = 32 * 1024 * 1024
"""Bytes of worlds kept per process for replays, by `world_bytes` (at the caps, 200 units on
48 x 48 tiles, a game's first world weighs some 1.2 MB and each later one some 200 KB)."""
MODES = ("solo", "hotseat", "online")
"""Against the AI (one human), two humans at one screen, two humans by seat links."""


@dataclass(slots=True)
class Game:
    """One stored game as one seat sees it, loaded for a request."""

    row: GameRow
    seat: str
    """The seat's side, or TABLE_SEAT for a hot-seat table."""
    turns: list[dict[str, Any]]
    world: World
    drafts: dict[str, Draft] = field(default_factory=dict)
    resigned: tuple[str, ...] = ()
    """The sides that resigned."""
    end: GameEnd | None = None
    """How the game ended (`victory.game_end` of the world and the resignations), or None."""

    @property
    def id(self) -> str:
        """The game's public id."""
        return self.row.id

    @property
    def name(self) -> str:
        """The scenario's name."""
        return self.row.name

    @property
    def player(self) -> str:
        """The side at this screen: the seat's, or the hot-seat side now seated ('' between
        hand-overs)."""
        if self.seat == TABLE_SEAT:
            return self.row.at_screen or ""
        return self.seat

    @property
    def ai_players(self) -> tuple[str, ...]:
        """Sides the AI orders."""
        return self.row.ai_players

    @property
    def fog_enforced(self) -> bool:
        """Two humans: every answer is built from the seated side's knowledge view."""
        return self.row.mode != "solo"

    @property
    def pending(self) -> dict[str, UnitOrders]:
        """The seated side's orders for the coming turn."""
        draft = self.drafts.get(self.player)
        if draft is None:
            return {}
        return {uid: UnitOrders.model_validate(o) for uid, o in draft.orders.items()}

    def committed(self, side: str) -> bool:
        """Whether a side has committed its orders for the coming turn."""
        draft = self.drafts.get(side)
        return draft is not None and draft.committed

    def next_side(self) -> str | None:
        """The first human side still to commit (the next to sit at a hot-seat screen)."""
        return next((side for side in self.row.humans if not self.committed(side)), None)

    @property
    def turn_numbers(self) -> list[int]:
        """The numbers of the played turns."""
        return [int(entry["turn"]) for entry in self.turns]

    @property
    def finished(self) -> bool:
        """The engine says the game has ended (or the web's cap on turns is reached)."""
        return self.end is not None or len(self.turns) >= MAX_TURNS


def world_bytes(world: World) -> int:
    """A world's weight in the cache (`deep_size`). Every world of a game shares the game's
    board, scenario and unit classes: the world that has played no turn carries them, the
    later ones only what is their own. A world's supply memo, filled after it is stored when
    pages ask (a few distance maps), is not counted."""
    if world.turn == world.scenario.turn:
        return deep_size(world)
    return deep_size(world, shared=(world.board, world.scenario, world.classes, world.sides,
                                    world.rules))


class ClashService:
    """The store, the world cache and the clock of one running app."""

    def __init__(self, store: ClashStore, games_per_client: int = 20,
                 turn_clock_seconds: int | None = None,
                 worlds_bytes: int = WORLDS_BYTES) -> None:
        self.store = store
        self.games_per_client = games_per_client
        self.turn_clock_seconds = turn_clock_seconds
        self.stream_poll_seconds = 1.0
        """How often a seat's live stream reads the game's progress."""
        self.stopping = threading.Event()
        """Set when the server is asked to stop: live streams end at once."""
        self.worlds: ByteCappedCache[tuple[str, int], World] = ByteCappedCache(
            worlds_bytes, world_bytes)
        """True worlds by (game, turns played)."""
        self.names: ByteCappedCache[tuple[str, str | None, int], dict[str, str]] = \
            ByteCappedCache(NAMES_BYTES, deep_size)
        """The units a side knew by name at the start of a turn, by (game, side, turns
        played): what a turn's log in words reads (`words`)."""

    # --- new games --------------------------------------------------------------------------
    def start(self, *, name: str, scenario: dict[str, Any], mode: str,
              humans: tuple[str, ...], ai_players: tuple[str, ...], client: str,
              autopilot: bool = False, clock_seconds: int | None = None,
              ) -> tuple[str, dict[str, str]]:
        """Store a new game after the per-client cap; returns its id and seat tokens."""
        if mode not in MODES:
            raise InputError("mode", f"unknown mode {mode!r}; use {', '.join(MODES)}")
        started = self.store.games_started_by(client, self.store.clock() - 86400)
        if started >= self.games_per_client:
            raise HTTPException(429, f"client: this address started {started} games in the "
                                f"last day; the limit is {self.games_per_client}")
        seats = (TABLE_SEAT,) if mode == "hotseat" else humans
        return self.store.create(
            name=name, mode=mode, scenario=scenario, version=t.COMBAT_LOGIC_VERSION,
            humans=humans, ai_players=ai_players, autopilot=autopilot, client=client,
            clock_seconds=clock_seconds if mode != "solo" else None, seats=seats)

    def open_seat(self, token: str | None) -> Game | None:
        """The game a seat token opens, or None."""
        seat = self.store.seat(token) if token else None
        if seat is None:
            return None
        try:
            return self.open(*seat)
        except LookupError:
            return None

    # --- worlds ------------------------------------------------------------------------------
    def world_after(self, row: GameRow, turns: list[dict[str, Any]], played: int) -> World:
        """The true world after the first `played` turns, replayed from the nearest cached
        world. Callers must not change it (copy first)."""
        start = played
        world = self.worlds.get((row.id, start))
        while world is None and start > 0:
            start -= 1
            world = self.worlds.get((row.id, start))
        if world is None:
            world = world_from_scenario(parse_scenario(row.scenario))
            self._keep(row.id, 0, world)
        for number in range(start, played):
            orders = TurnOrders.model_validate(turns[number]["orders"])
            world = run_turn(world, orders).world
            self._keep(row.id, number + 1, world)
        return world

    def _keep(self, game_id: str, played: int, world: World) -> None:
        self.worlds.put((game_id, played), world)

    # --- loading -----------------------------------------------------------------------------
    def open(self, game_id: str, seat: str, *, play_due: bool = True) -> Game:
        """A game as a seat sees it; a turn whose clock has run out is played first."""
        row = self.store.game(game_id)
        if row is None:
            raise LookupError(game_id)
        if row.combat_logic_version != t.COMBAT_LOGIC_VERSION:
            raise VerificationError(
                "game.combat_logic_version",
                f"this game was recorded under combat logic version "
                f"{row.combat_logic_version} and this server runs version "
                f"{t.COMBAT_LOGIC_VERSION}; it cannot continue here")
        turns = self.store.turns(game_id)
        world = self.world_after(row, turns, len(turns))
        resigned = self.store.resignations(game_id)
        game = Game(row, seat, turns, world, self.store.drafts(game_id, world.turn),
                    resigned, game_end(world, resigned))
        if play_due and self._clock_ran_out(game) and not game.finished:
            self._play(game, clock_ran_out=True)
            return self.open(game_id, seat, play_due=False)
        return game

    def _clock_ran_out(self, game: Game) -> bool:
        clock = game.row.clock_seconds
        return clock is not None and self.store.clock() >= game.row.turn_started + clock

    def deadline(self, game: Game) -> float | None:
        """When the turn clock runs out (seconds since the epoch), if the game has one."""
        clock = game.row.clock_seconds
        return None if clock is None else game.row.turn_started + clock

    # --- orders ------------------------------------------------------------------------------
    def _writable(self, game: Game, turn: int | None) -> str:
        side = game.player
        if not side:
            raise VerificationError("side", "hand the screen over to a side first")
        if game.finished:
            raise VerificationError("game", "the game is over; it can only be replayed")
        if turn is not None and turn != game.world.turn:
            raise VerificationError("turn", f"these orders answer turn {turn}, the game is at "
                                    f"turn {game.world.turn}; reload")
        if game.committed(side):
            raise VerificationError("commit", f"{side} has already committed its orders for "
                                    f"turn {game.world.turn}")
        return side

    def order(self, game: Game, unit_id: str, orders: UnitOrders,
              turn: int | None = None) -> None:
        """Set one unit's orders for the coming turn, checked as the engine checks them."""
        side = self._writable(game, turn)
        # judged on the side's knowledge view: an id that is not the side's own — another
        # side's (seen or not), destroyed, never used — takes this one path to one answer
        view = knowledge_view(game.world, side)
        unit = view.units.get(unit_id)
        if unit is None or unit.player != side:
            raise InputError("unit", f"{side} has no unit of that id")
        check_orders(view, TurnOrders(player=side, orders={unit_id: orders}))
        pending = {uid: o.model_dump(mode="json", exclude_none=True)
                   for uid, o in game.pending.items()}
        pending[unit_id] = orders.model_dump(mode="json", exclude_none=True)
        check_orders_work(pending)
        self._save(game, Draft(side, game.world.turn, pending, False))

    def resign(self, game: Game, turn: int) -> GameEnd:
        """The seated side resigns; the game ends when one side alone is left in it."""
        side = game.player
        if not side:
            raise VerificationError("side", "hand the screen over to a side first")
        if game.finished:
            raise VerificationError("game", "the game is over; it can only be replayed")
        if turn != game.world.turn:
            raise VerificationError("turn", f"this resignation answers turn {turn}, the game "
                                    f"is at turn {game.world.turn}; reload")
        end = game_end(game.world, (*game.resigned, side))
        if end is None:
            raise VerificationError("side", f"{side} may not resign alone: its allies or "
                                    "more than one other side play on")
        self.store.resign(game.id, side, game.world.turn)
        if game.seat == TABLE_SEAT:
            self.store.set_screen(game.id, None)
        game.resigned, game.end = self.store.resignations(game.id), end
        return end

    def cancel(self, game: Game, unit_id: str | None, turn: int | None = None) -> None:
        """Withdraw one unit's orders (or, with None, every order) for the coming turn."""
        side = self._writable(game, turn)
        pending = {uid: o.model_dump(mode="json", exclude_none=True)
                   for uid, o in game.pending.items() if unit_id is not None and uid != unit_id}
        self._save(game, Draft(side, game.world.turn, pending, False))

    def _save(self, game: Game, draft: Draft) -> None:
        self.store.save_draft(game.id, draft)
        game.drafts[draft.side] = draft

    def commit(self, game: Game, turn: int) -> PlayedTurn | None:
        """Commit the seated side's orders; the turn runs when every human side has."""
        side = self._writable(game, turn)
        draft = game.drafts.get(side) or Draft(side, game.world.turn, {}, False)
        self._save(game, Draft(side, draft.turn, draft.orders, True))
        if game.seat == TABLE_SEAT:
            self.store.set_screen(game.id, None)
        if all(game.committed(s) for s in game.row.humans):
            return self._play(game, clock_ran_out=False)
        return None

    def hand_over(self, game: Game, side: str) -> None:
        """Seat a side at a hot-seat table's screen."""
        if game.seat != TABLE_SEAT:
            raise VerificationError("side", "only a hot-seat table hands its screen over")
        if side != game.next_side():
            raise InputError("side", f"it is {game.next_side() or 'nobody'}'s turn to order")
        self.store.set_screen(game.id, side)

    def _play(self, game: Game, *, clock_ran_out: bool) -> PlayedTurn | None:
        """The Cascade of the coming turn from the committed orders and the AI's."""
        world = game.world
        parts = [ai_orders(world, player) for player in game.row.ai_players]
        for side in game.row.humans:
            draft = game.drafts.get(side)
            given = draft.orders if draft and (draft.committed or not clock_ran_out) else {}
            orders = TurnOrders.model_validate({"orders": given})
            if game.row.autopilot:
                suggested = ai_orders(world, side).orders
                parts.append(TurnOrders(orders={uid: o for uid, o in suggested.items()
                                                if uid not in orders.orders}))
            parts.append(orders)
        merged = merge_orders(parts)
        plain = merged.model_dump(mode="json", exclude_none=True)
        result = run_turn(world, merged)
        try:
            self.store.record_turn(game.id, world.turn, plain, result.events, len(game.turns))
        except TurnTaken:
            return None
        self._keep(game.id, len(game.turns) + 1, result.world)
        entry = {"turn": world.turn, "orders": plain, "events": result.events}
        game.turns.append(entry)
        return self.played(game, world.turn)

    # --- played turns ------------------------------------------------------------------------
    def _names_before(self, game: Game, index: int, viewer: str | None) -> dict[str, str]:
        """The names `viewer` knew at the start of every turn before the `index`-th played
        one (`words.names_seen`, gathered turn by turn and kept, so a long game's log walks
        its worlds once)."""
        start = index
        names = self.names.get((game.id, viewer, start))
        while names is None and start > 0:
            start -= 1
            names = self.names.get((game.id, viewer, start))
        names = dict(names or {})
        for number in range(start, index):
            names.update(names_seen(self.world_after(game.row, game.turns, number), viewer))
            self.names.put((game.id, viewer, number + 1), dict(names))
        return names

    def _book(self, game: Game, played: PlayedTurn, viewer: str | None) -> NameBook:
        index = game.turn_numbers.index(played.number)
        return name_book([played.before, played.after], viewer, played.events,
                         known=self._names_before(game, index, viewer))

    def words(self, game: Game, played: PlayedTurn, viewer: str | None) -> list[str]:
        """A played turn's events in words, in the names `viewer` knows (every name with no
        viewer): those it knew at the start of any earlier turn, and this turn's."""
        book = self._book(game, played, viewer)
        return [describe(event, book) for event in played.events]

    def seen_events(self, game: Game, played: PlayedTurn,
                    viewer: str | None) -> list[dict[str, Any]]:
        """A played turn's structured events for `viewer`, a unit it never saw named only as
        `sightings.UNSEEN_ID` (the same rule as the words: the id would tell which it was)."""
        if viewer is None:
            return played.events
        known = self._book(game, played, viewer).units
        return [masked_event(event, known) for event in played.events]

    def played(self, game: Game, number: int, *, truth: bool = False) -> PlayedTurn:
        """A played turn: the worlds around it and its events — as the seated side saw them
        when fog is enforced (and `truth` is not asked for a finished game)."""
        index = next((i for i, n in enumerate(game.turn_numbers) if n == number), None)
        if index is None:
            raise InputError("turn", f"turn {number} has not been played")
        before = self.world_after(game.row, game.turns, index)
        after = self.world_after(game.row, game.turns, index + 1)
        events = game.turns[index]["events"]
        orders = game.turns[index]["orders"]
        if game.fog_enforced and not truth:
            if not game.player:
                raise VerificationError("side", "hand the screen over to a side first")
            events = events_seen_by(before, after, events, game.player)
            orders = {"orders": {uid: o for uid, o in orders.get("orders", {}).items()
                                 if uid in before.units
                                 and before.allied(before.units[uid].player, game.player)}}
        lines = {i: reconcile_event(e) for i, e in enumerate(events) if e.get("event") == "clash"}
        return PlayedTurn(number, before, after, orders, events, lines)
