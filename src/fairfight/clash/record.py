"""The game record: the scenario, then each turn's orders and canonical events.

A record is JSON Lines: a header with the scenario, the rules version and which players the
AI plays, then one line per turn. Replaying re-runs every turn from the scenario with the
recorded orders and compares the events one by one by their canonical bytes; the first
difference is named by turn, event number and field (a changed draw is caught at its
clash). Every state is rebuilt the same way, so the record is the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.orders import TurnOrders, parse_orders
from fairfight.clash.scenario import Scenario, parse_scenario
from fairfight.clash.schemas import RECORD_FORMAT, RecordTurn
from fairfight.clash.turn import TurnResult, run_turn
from fairfight.clash.world import World, world_from_scenario
from fairfight.core import records
from fairfight.core.errors import InputError, VerificationError
from fairfight.core.records import canonical_json, quoted
from fairfight.core.validation import parse_model
from fairfight.inputs import load_jsonl

__all__ = [
    "GameRecord",
    "RECORD_FORMAT",
    "first_difference",
    "load_record",
    "merge_orders",
    "replay_record",
]

def merge_orders(parts: list[TurnOrders]) -> TurnOrders:
    """Orders of several players for one turn, as one set."""
    merged: dict[str, Any] = {}
    for part in parts:
        merged.update(part.orders)
    return TurnOrders(orders=merged)


@dataclass(slots=True)
class GameRecord:
    """A scenario and the turns played from it."""

    scenario: Scenario
    ai_players: tuple[str, ...] = ()
    turns: list[dict[str, Any]] = field(default_factory=list)

    def start(self) -> World:
        """The world before the first recorded turn."""
        return world_from_scenario(self.scenario)

    def world(self) -> World:
        """The world after the last recorded turn (rebuilt by replaying)."""
        world = self.start()
        for entry in self.turns:
            world = run_turn(world, parse_orders(world, entry["orders"])).world
        return world

    def play(self, world: World, orders: TurnOrders) -> TurnResult:
        """Play a turn from `world` (the record's current world) and record it."""
        result = run_turn(world, orders)
        self.turns.append({"turn": world.turn,
                           "orders": orders.model_dump(mode="json", exclude_none=True),
                           "events": result.events})
        return result

    def header(self) -> dict[str, Any]:
        """The first line of the record."""
        return {"format": RECORD_FORMAT, "combat_logic_version": t.COMBAT_LOGIC_VERSION,
                "ai_players": list(self.ai_players),
                "scenario": self.scenario.model_dump(mode="json", by_alias=True,
                                                     exclude_none=True)}

    def lines(self) -> list[bytes]:
        """Every line of the record as canonical JSON."""
        return [canonical_json(self.header()), *(canonical_json(turn) for turn in self.turns)]

    def save(self, path: Path) -> None:
        """Write the record (canonical JSON, one line each)."""
        path.write_bytes(b"".join(line + b"\n" for line in self.lines()))


def load_record(path: Path) -> GameRecord:
    """Read a record; a malformed one is an input error naming the line and the field.

    The lines are read one at a time and each is checked (its types included) before the next
    is read, so a file that goes wrong early is refused early, holding nothing."""
    header: tuple[Scenario, tuple[str, ...]] | None = None
    turns: list[dict[str, Any]] = []
    for number, row in load_jsonl(path):   # the shared sturdy reader
        if header is None:
            header = _read_header(f"{path}:{number}", row)
            continue
        if not isinstance(row, dict) or not {"turn", "orders", "events"} <= set(row):
            raise InputError(f"{path}:{number}", "a turn line needs turn, orders and events")
        try:
            parse_model(RecordTurn, row)
        except InputError as error:
            raise InputError(f"{path}:{number}: {error.field}", error.rule) from None
        turns.append(row)
    if header is None:
        raise InputError(str(path), "an empty file is not a game record")
    return GameRecord(header[0], header[1], turns)


def _read_header(where: str, header: Any) -> tuple[Scenario, tuple[str, ...]]:
    """The scenario and the AI's players of a record's first line, every field checked."""
    if not isinstance(header, dict) or header.get("format") != RECORD_FORMAT:
        raise InputError(where, f"not a clash game record ({RECORD_FORMAT})")
    version = header.get("combat_logic_version")
    if type(version) is not int or version != t.COMBAT_LOGIC_VERSION:
        raise InputError(where, "recorded with another combat logic version "
                         f"({quoted(repr(version), 40)}), this is {t.COMBAT_LOGIC_VERSION}")
    ai_players = header.get("ai_players", [])
    if not isinstance(ai_players, list) or not all(isinstance(p, str) for p in ai_players):
        raise InputError(f"{where}: ai_players", "must be a list of player ids")
    try:
        scenario = parse_scenario(header.get("scenario"))
    except InputError as error:
        raise InputError(f"{where}: scenario.{error.field}", error.rule) from None
    players = [player.id for player in scenario.players]
    for index, player in enumerate(ai_players):
        if player not in players:
            raise InputError(f"{where}: ai_players[{index}]",
                             f"{quoted(repr(player), 40)} is not a player of the scenario "
                             f"(its players: {', '.join(players)})")
        if player in ai_players[:index]:
            raise InputError(f"{where}: ai_players[{index}]",
                             f"{quoted(repr(player), 40)} is named twice")
    return scenario, tuple(ai_players)


def first_difference(recorded: Any, replayed: Any, where: str = "") -> str | None:
    """The path of the first field where two events differ, with both values, as a line."""
    found = records.first_difference(
        records.as_read_back(recorded), records.as_read_back(replayed), where
    )
    if found is None:
        return None
    path, old, new = found
    return f"{path}: recorded {_shown(old)}, replayed {_shown(new)}"


def _shown(value: Any) -> str:
    """A value as a difference quotes it: JSON, at most `records.QUOTED_LENGTH` characters."""
    return "nothing" if value is records.ABSENT else records.quoted(json.dumps(value))


def _describe(event: dict[str, Any]) -> str:
    if event.get("event") == "clash":
        return f"clash by {event.get('initiator')}, ordinal {event.get('ordinal')}"
    return str(event.get("event"))


def replay_record(record: GameRecord,
                  progress: Callable[[int], None] | None = None) -> int:
    """Re-run every turn and compare its events byte for byte; returns the turns checked.

    Raises VerificationError naming the first differing event and field."""
    world = record.start()
    for number, entry in enumerate(record.turns, start=1):
        orders = parse_orders(world, entry["orders"])
        result = run_turn(world, orders)
        recorded = entry["events"]
        for index, (old, new) in enumerate(zip(recorded, result.events, strict=False)):
            if canonical_json(old) != canonical_json(new):
                detail = first_difference(old, new) or "differs"
                raise VerificationError(
                    f"turn {entry['turn']} event {index} ({_describe(old)})", detail)
        if len(recorded) != len(result.events):
            raise VerificationError(f"turn {entry['turn']}",
                                    f"{len(recorded)} events recorded, "
                                    f"{len(result.events)} replayed")
        world = result.world
        if progress:
            progress(number)
    return len(record.turns)
