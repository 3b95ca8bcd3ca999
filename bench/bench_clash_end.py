"""The end of a clash game and the order check on the side's view, on the 24 x 24 field (30
units a side), through the web's `ClashService` on an in-memory store.

Figures: `game_end` per world (every seat request decides it once); an order refused for an
unseen enemy id and for an id no board holds — one path, so the two rates must be within
noise of each other (the existence rule's timing class; at the start of the field no enemy
is in sight, and a destroyed unit is as absent from the view as one never there); the
baseline in the same run is an accepted order for one of the side's own units, which walks
the same path and stores a draft besides.
"""

from __future__ import annotations

from functools import partial

from bench.timing import best_seconds, report
from fairfight.clash.ending import game_end
from fairfight.clash.knowledge import knowledge_view
from fairfight.clash.orders import UnitOrders
from fairfight.clash.store import ClashStore
from fairfight.core.errors import InputError
from fairfight.web.clash.games import world_of
from fairfight.web.clash.service import ClashService, Game

ROUNDS = 200


def _accepted(service: ClashService, game: Game, unit: str) -> None:
    for _ in range(ROUNDS):
        service.order(game, unit, UnitOrders(stance="hold"), game.world.turn)


def _refusals(service: ClashService, game: Game, unit: str) -> None:
    for _ in range(ROUNDS):
        try:
            service.order(game, unit, UnitOrders(stance="hold"), game.world.turn)
        except InputError:
            continue
        raise AssertionError(f"{unit} was accepted")


def main() -> None:
    world = world_of("field")
    seconds = best_seconds(lambda: [game_end(world) for _ in range(ROUNDS)])
    report("game_end on the field", ROUNDS / seconds, "worlds/s")
    service = ClashService(ClashStore("sqlite://"))
    game_id, _ = service.start(name="field", scenario=world.to_scenario(), mode="online",
                               humans=tuple(world.sides), ai_players=(), client="bench")
    side = next(iter(world.sides))
    view = knowledge_view(world, side)
    own = next(u.id for u in world.units.values() if u.player == side)
    unseen = next(uid for uid, u in world.units.items()
                  if u.player != side and uid not in view.units)
    game = service.open(game_id, side)
    accepted = best_seconds(partial(_accepted, service, game, own))
    baseline = ROUNDS / accepted
    report("order accepted (own unit, baseline)", baseline, "orders/s")
    # interleaved, best of 9 each: a shared machine's noise falls on both cases alike
    cases = {"refused: unseen enemy": unseen, "refused: never on a board": "never-1"}
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(9):
        for label, unit in cases.items():
            best[label] = min(best[label], best_seconds(
                partial(_refusals, service, game, unit), repeats=1))
    for label, seconds in best.items():
        report(label, ROUNDS / seconds, "orders/s", baseline)
