"""A turn's events in words, as one reader may tell them.

Each event kind has one sentence. Units go by the scenario's names, tiles by their names and
coordinates, and every number says what it measures ("strength 43 of 100, disorder 48").
The names are the reader's: a side always knows its own units (destroyed or not), knows an
enemy by name once it has been in contact [CB-2310] at the start or end of a turn, or has
fought it, and calls any other "an unseen unit", so the words never tell more than the
knowledge view. The structured event stays what the JSON carries; the words are read from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.knowledge import observation_levels
from fairfight.clash.world import Board, World

__all__ = ["SENTENCES", "UNSEEN", "NameBook", "Wording", "describe", "name_book", "names_seen",
           "order_words"]

UNSEEN = "an unseen unit"
"""How a reader calls a unit it has never seen."""


@dataclass(frozen=True, slots=True)
class NameBook:
    """The names a reader knows: units by id, players by id, and the board's places."""

    units: dict[str, str]
    players: dict[str, str]
    board: Board

    def unit(self, unit_id: Any) -> str:
        """A unit by the name the reader knows, or "an unseen unit"."""
        return self.units.get(str(unit_id), UNSEEN)

    def group(self, unit_ids: Iterable[Any]) -> str:
        """Several units joined as a sentence joins them (unseen ones counted together)."""
        names = [self.units[str(u)] for u in unit_ids if str(u) in self.units]
        hidden = sum(1 for u in unit_ids if str(u) not in self.units)
        if hidden:
            names.append(UNSEEN if hidden == 1 else f"{hidden} unseen units")
        if len(names) <= 1:
            return "".join(names) or "no unit"
        return ", ".join(names[:-1]) + " and " + names[-1]

    def player(self, player_id: Any) -> str:
        """A player by name."""
        return self.players.get(str(player_id), str(player_id))

    def place(self, point: Any) -> str:
        """A tile by its name and coordinates, or by its coordinates alone."""
        x, y = int(point[0]), int(point[1])
        name = self.board.names.get(self.board.index(x, y))
        return f"{name} ({x},{y})" if name else f"({x},{y})"


def _fought_by_reader(events: Iterable[dict[str, Any]], own: set[str]) -> set[str]:
    """Every unit of a clash that one of the reader's units took part in: it was within
    reach, so in contact at the time [CB-2310, CB-2320]."""
    known: set[str] = set()
    for event in events:
        if event.get("event") != "clash":
            continue
        plan = event["plan"]
        ids = {plan["lead"], plan["defender"], *plan.get("supporters", ()),
               *plan.get("stack", ())}
        if ids & own:
            known.update(str(i) for i in ids)
    return known


def names_seen(world: World, viewer: str | None) -> dict[str, str]:
    """The units `viewer` knows by name in one world: its own side's, and the enemies in
    contact [CB-2310] (every unit with no viewer)."""
    seen = set(observation_levels(world, viewer)) if viewer is not None else set()
    return {unit.id: unit.name for unit in world.units.values()
            if viewer is None or world.allied(unit.player, viewer) or unit.id in seen}


def name_book(worlds: Iterable[World], viewer: str | None,
              events: Iterable[dict[str, Any]] = (),
              known: dict[str, str] | None = None) -> NameBook:
    """The names `viewer` knows after living through `worlds` (the true worlds at the start
    and end of every turn up to the one read, or only the last ones with `known`, the names
    gathered from the earlier ones by `names_seen`) and seeing `events`; with no viewer,
    every name (a finished game's replay, the sandbox without fog)."""
    units: dict[str, str] = dict(known or {})
    players: dict[str, str] = {}
    board: Board | None = None
    own: set[str] = set()
    for world in worlds:
        board = world.board
        players.update({p.id: p.name or p.id for p in world.scenario.players})
        units.update(names_seen(world, viewer))
        own.update(u.id for u in world.units.values()
                   if viewer is None or world.allied(u.player, viewer))
        if viewer is not None:
            for unit_id in _fought_by_reader(events, own):
                if unit_id in world.units:
                    units[unit_id] = world.units[unit_id].name
    if board is None:
        raise ValueError("a name book needs at least one world")
    return NameBook(units, players, board)


def _state(strength: Any, disorder: Any) -> str:
    return f"strength {strength} of {t.MAX_STRENGTH}, disorder {disorder}"


def order_words(book: NameBook, unit_id: str, orders: dict[str, Any]) -> str:
    """One unit's orders: its Stance, its withdraw reflex and its actions, in order."""
    parts = [f"stance {orders['stance']}"] if orders.get("stance") else []
    if "withdraw_reflex" in orders:
        parts.append("withdraw reflex " + ("on" if orders["withdraw_reflex"] else "off"))
    for action in orders.get("actions", ()):
        do = action["do"]
        if do == "move":
            parts.append("move to " + book.place(action["path"][-1]))
        elif do == "abandon":
            parts.append("abandon for " + book.place(action["to"]))
        else:
            parts.append(f"{do} {book.place(action['target'])}")
    return f"{book.unit(unit_id)}: {', '.join(parts) or 'stand'}"


def _participant(book: NameBook, unit_id: Any, after: dict[str, Any]) -> str:
    return (f"{book.unit(unit_id)} lost {after['loss']} "
            f"({_state(after['strength'], after['disorder'])})")


_FATE = {
    "holds": "held",
    "destroyed": "was destroyed",
    "retreats": "broke and retreated",
    "holds_shaken": "broke but held, shaken",
    "routed": "broke with nowhere to go",
}


def _clash(event: dict[str, Any], book: NameBook) -> str:
    plan, outcome = event["plan"], event["outcome"]
    kind, after = plan["kind"], outcome["after"]
    lead, defender = book.unit(plan["lead"]), book.unit(plan["defender"])
    where, draw = book.place(plan["target"]), f"draw {event['r']}"
    if kind == "reaction":
        opening = f"{lead} fired on {defender} moving into {where} ({draw})"
    elif kind == "bombardment":
        opening = f"{lead} bombarded {defender} at {where} ({draw})"
    else:
        opening = f"{lead} assaulted {defender} at {where} ({draw})"
        if plan.get("supporters"):
            opening += ", supported by " + book.group(plan["supporters"])
    losses = [_participant(book, plan["defender"], after["defender"]),
              _participant(book, plan["lead"], after["lead"])]
    losses += [_participant(book, unit, result) for unit, result
               in zip(plan.get("supporters", ()), after["supporters"], strict=False)]
    fate = f"{defender} {_FATE.get(outcome['fate'], outcome['fate'])}"
    if outcome["attacker_falters"]:
        fate += f"; {lead} faltered"
    return f"{opening}: {'; '.join(losses)}. {fate}."


def _carry_over(event: dict[str, Any], book: NameBook) -> str:
    shares = [f"{book.unit(u)} lost {loss}" for u, loss in
              zip(event["units"], event["losses"], strict=False)]
    text = "The loss carried over to the rest of the stack: " + ", ".join(shares)
    if event.get("discarded"):
        text += f" ({event['discarded']} strength of loss had no one left to take it)"
    return text + "."


def _orders(event: dict[str, Any], book: NameBook) -> str:
    given = event["orders"]
    if not given:
        return "No orders were given."
    return "Orders: " + "; ".join(order_words(book, u, o) for u, o in given.items()) + "."


def _places_in(text: str, book: NameBook) -> str:
    """A reason the engine wrote with tiles as [x, y], with the tiles as places."""
    return re.sub(r"\[(\d+), (\d+)\]", lambda m: book.place((m[1], m[2])), text)


_CAUSE = {"strength": "its strength reached 0", "rout": "routed",
          "disengagement": "its strength ran out as it stepped back"}
_SITUATION = {"field": "in the field", "field_depot": "on a depot in the field",
              "city": "in a city", "city_depot": "in a city with a depot"}

Wording = Callable[[dict[str, Any], NameBook], str]
SENTENCES: dict[str, Wording] = {
    "turn": lambda e, b: f"Start of turn {e['turn']}.",
    "orders": _orders,
    "move": lambda e, b: f"{b.unit(e['unit'])} moved from {b.place(e['frm'])} to "
                         f"{b.place(e['to'])}.",
    "abandon": lambda e, b: f"{b.unit(e['unit'])} abandoned {b.place(e['frm'])} for "
                            f"{b.place(e['to'])}.",
    "clash": _clash,
    "carry_over": _carry_over,
    "retreat": lambda e, b: f"{b.group(e['units'])} retreated from {b.place(e['frm'])} to "
                            f"{b.place(e['to'])}.",
    "rout": lambda e, b: f"{b.group(e['units'])} found no way back from "
                         f"{b.place(e['tile'])}: routed (strength "
                         f"{', '.join(str(s) for s in e['strength'])} of {t.MAX_STRENGTH}).",
    "hold_shaken": lambda e, b: f"{b.group(e['units'])} broke but could not leave "
                                f"{b.place(e['tile'])}: held there, shaken "
                                f"{t.SHAKEN_ON_HOLD}.",
    "disengage": lambda e, b: f"{b.unit(e['unit'])} stepped back from {b.unit(e['attacker'])}'s "
                              f"assault, {b.place(e['frm'])} to {b.place(e['to'])}, losing "
                              f"{e['loss']} ({_state(e['strength'], e['disorder'])}).",
    "caught": lambda e, b: f"{b.unit(e['unit'])} was caught at {b.place(e['tile'])}: its "
                           "withdraw reflex found no way back, so it fought at a disadvantage.",
    "advance": lambda e, b: f"{b.unit(e['unit'])} advanced from {b.place(e['frm'])} into "
                            f"{b.place(e['to'])}.",
    "capture": lambda e, b: f"{b.unit(e['unit'])} took {b.place(e['tile'])} for "
                            f"{b.player(e['player'])}.",
    "destroyed": lambda e, b: f"{b.unit(e['unit'])} was destroyed at {b.place(e['tile'])} "
                              f"({_CAUSE.get(e['cause'], e['cause'])}).",
    "skipped": lambda e, b: f"{b.unit(e['unit'])} did not {e['action']}: "
                            f"{_places_in(e['reason'], b)}.",
    "recovery": lambda e, b: f"{b.unit(e['unit'])} recovered "
                             f"{_SITUATION.get(e['situation'], e['situation'])}: "
                             f"{_state(e['strength'], e['disorder'])}, shaken {e['shaken']}.",
    "end": lambda e, b: f"End of turn {e['turn']}.",
}
"""One sentence per event kind (`schemas.EVENT_KINDS`)."""


def describe(event: dict[str, Any], book: NameBook) -> str:
    """The event as one sentence in the reader's names."""
    kind = str(event.get("event", ""))
    wording = SENTENCES.get(kind)
    if wording is None:
        return f"{kind.replace('_', ' ').capitalize()}."
    text = wording(event, book)
    return text[:1].upper() + text[1:]
