"""A turn's events as one player saw them, for two-player games under fog.

A player sees an event when it concerns one of the player's units (it moved, fought, was
fought, recovered) or when every tile it names was in contact range of one of the player's
units before or after the turn [CB-2310]. An enemy's recovery, and the orders of any other
side, are never seen: they would tell exact strengths and intentions the knowledge view
hides. The turn and end events carry only the public state digests.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash.knowledge import CONTACT_RANGE
from fairfight.clash.world import World, chebyshev

__all__ = ["UNSEEN_ID", "event_units", "events_seen_by", "masked_event"]

UNSEEN_ID = "unseen"
"""What a turn's JSON puts where an event names a unit its reader never saw: the event on a
watched tile is seen, but the id of a unit that was out of view before and after would tell
which enemy it was."""
_PRIVATE = ("recovery",)
"""Events only the owning side sees."""


def event_units(event: dict[str, Any]) -> set[str]:
    """Every unit id an event names."""
    ids: set[str] = set()
    for key in ("unit", "initiator", "attacker"):
        if isinstance(event.get(key), str):
            ids.add(event[key])
    for key in ("units",):
        ids.update(str(uid) for uid in event.get(key, ()))
    plan = event.get("plan")
    if isinstance(plan, dict):
        for key in ("lead", "defender"):
            if isinstance(plan.get(key), str):
                ids.add(plan[key])
        for key in ("supporters", "stack"):
            ids.update(str(uid) for uid in plan.get(key, ()))
    return ids


def _event_points(event: dict[str, Any]) -> list[tuple[int, int]]:
    points = [event[key] for key in ("tile", "frm", "to") if isinstance(event.get(key), list)]
    plan = event.get("plan")
    if isinstance(plan, dict) and isinstance(plan.get("target"), list):
        points.append(plan["target"])
    return [(int(p[0]), int(p[1])) for p in points]


def _watched_tiles(world: World, player: str) -> set[int]:
    width = world.board.width
    own = [u.tile for u in world.units.values() if world.allied(u.player, player)]
    return {tile for tile in range(width * world.board.height)
            if any(chebyshev(width, tile, mine) <= CONTACT_RANGE for mine in own)}


def events_seen_by(before: World, after: World, events: list[dict[str, Any]],
                   player: str) -> list[dict[str, Any]]:
    """The events of the turn `before` → `after` that `player` saw, in order."""
    own = {u.id for u in before.units.values() if before.allied(u.player, player)}
    own.update(u.id for u in after.units.values() if after.allied(u.player, player))
    watched = _watched_tiles(before, player) | _watched_tiles(after, player)
    seen: list[dict[str, Any]] = []
    for event in events:
        kind = event.get("event")
        if kind in ("turn", "end"):
            seen.append(event)
            continue
        if kind == "orders":
            seen.append({"event": "orders", "orders": {
                uid: orders for uid, orders in event.get("orders", {}).items() if uid in own}})
            continue
        units = event_units(event)
        if units & own:
            seen.append(event)
            continue
        if kind in _PRIVATE:
            continue
        points = _event_points(event)
        if points and all(before.board.index(*p) in watched for p in points):
            seen.append(event)
    return seen


def masked_event(event: dict[str, Any], known: set[str] | dict[str, str]) -> dict[str, Any]:
    """`event` with every unit id its reader does not know (not in `known`) as `UNSEEN_ID`.

    The fields are those `event_units` reads; orders keep only the reader's own units already
    (`events_seen_by`), and everything else of the event is kept as the engine wrote it.
    """
    def mask(uid: Any) -> Any:
        return uid if not isinstance(uid, str) or uid in known else UNSEEN_ID

    masked = dict(event)
    for key in ("unit", "initiator", "attacker"):
        if key in masked:
            masked[key] = mask(masked[key])
    if isinstance(masked.get("units"), list):
        masked["units"] = [mask(uid) for uid in masked["units"]]
    plan = masked.get("plan")
    if isinstance(plan, dict):
        plan = dict(plan)
        for key in ("lead", "defender"):
            if key in plan:
                plan[key] = mask(plan[key])
        for key in ("supporters", "stack"):
            if isinstance(plan.get(key), list):
                plan[key] = [mask(uid) for uid in plan[key]]
        masked["plan"] = plan
    return masked
