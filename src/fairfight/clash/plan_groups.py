"""Which orders of a plan can be counted apart: those that share no unit.

An exchange changes nothing further than a step from its own tiles and reads nothing further
than two, so orders whose tiles are all more than `GROUP_REACH` apart cannot touch each other
and their odds multiply. A city changing hands reaches further (it moves every retreat's
pull, CB-1320), so an order that may enter one joins every group.
"""

from __future__ import annotations

from fairfight.clash.orders import AbandonAction, AssaultAction, MoveAction, UnitOrders
from fairfight.clash.plan_limits import GROUP_REACH
from fairfight.clash.world import Unit, World, chebyshev

__all__ = ["independent_groups"]


def _footprint(world: World, unit: Unit, orders: UnitOrders) -> set[int]:
    """The tiles an order stands on, walks through, fires at or asks support from."""
    board = world.board
    tiles = {unit.tile}
    for action in orders.actions:
        if isinstance(action, MoveAction):
            tiles |= {board.index(*p) for p in action.path}
        elif isinstance(action, AbandonAction):
            tiles.add(board.index(*action.to))
        else:
            tiles.add(board.index(*action.target))
            if isinstance(action, AssaultAction) and action.supporters != "auto":
                tiles |= {world.units[i].tile for i in action.supporters if i in world.units}
    return tiles


def independent_groups(world: World, given: dict[str, UnitOrders]) -> list[set[str]]:
    """The ordered units in groups that share no unit: orders within `GROUP_REACH` of each
    other join, and an order that walks into or assaults a city joins every group, since
    a city changing hands reaches any retreat's choice of tile."""
    width = world.board.width
    prints = {uid: _footprint(world, world.units[uid], o) for uid, o in given.items()
              if o.actions}
    parent = {uid: uid for uid in prints}

    def root(uid: str) -> str:
        while parent[uid] != uid:
            uid = parent[uid]
        return uid

    ids = sorted(prints)
    cities = set(world.city_owner)
    capturing = {uid for uid in prints                 # a city entered may change hands
                 if (prints[uid] - {world.units[uid].tile}) & cities}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            # a city taken anywhere moves every retreat's pull [CB-1320]: no independence
            if a in capturing or b in capturing or any(
                    chebyshev(width, x, y) <= GROUP_REACH for x in prints[a] for y in prints[b]):
                parent[root(a)] = root(b)
    groups: dict[str, set[str]] = {}
    for uid in ids:
        groups.setdefault(root(uid), set()).add(uid)
    return list(groups.values())
