"""A turn's events in words: one sentence per kind, the reader's names, numbers with meaning."""

from __future__ import annotations

from typing import Any

import pytest

from fairfight.clash.schemas import EVENT_KINDS
from fairfight.clash.setpieces import SIEGE_ORDERS, siege_scenario
from fairfight.clash.words import SENTENCES, UNSEEN, describe, name_book
from fairfight.clash.world import World
from tests.clash.world_helpers import play, world_of

SIEGE_IDS = ("gun-1", "gun-2", "gun-3", "garrison", "tank-1", "tank-2", "rifles-a", "rifles-b")

CLASH: dict[str, Any] = {
    "event": "clash", "initiator": "tank-1", "ordinal": 0, "r": 617,
    "plan": {"kind": "assault", "lead": "tank-1", "target": [2, 2], "supporters": ["rifles-a"],
             "defender": "garrison", "stack": ["garrison"]},
    "outcome": {"fate": "holds_shaken", "attacker_falters": False, "after": {
        "lead": {"loss": 18, "strength": 74, "disorder": 15},
        "supporters": [{"loss": 7, "strength": 93, "disorder": 10}],
        "defender": {"loss": 35, "strength": 43, "disorder": 42}}},
}

SAMPLES: dict[str, tuple[dict[str, Any], str]] = {
    "turn": ({"turn": 3, "digest": "ab"}, "Start of turn 3."),
    "orders": ({"orders": {"gun-1": {"stance": "hold", "actions": [
        {"do": "bombard", "target": [2, 2]}]}}},
        "Orders: 1st Field Bty: stance hold, bombard Castel (2,2)."),
    "move": ({"unit": "rifles-b", "frm": [3, 1], "to": [2, 1]},
             "B Company moved from (3,1) to (2,1)."),
    "abandon": ({"unit": "garrison", "frm": [2, 2], "to": [2, 3]},
                "Castel Rifles abandoned Castel (2,2) for (2,3)."),
    "clash": ({k: v for k, v in CLASH.items() if k != "event"},
              "1st Armoured assaulted Castel Rifles at Castel (2,2) (draw 617), supported by "
              "A Company: Castel Rifles lost 35 (strength 43 of 100, disorder 42); "
              "1st Armoured lost 18 (strength 74 of 100, disorder 15); A Company lost 7 "
              "(strength 93 of 100, disorder 10). Castel Rifles broke but held, shaken."),
    "carry_over": ({"units": ["rifles-a"], "losses": [4], "discarded": 0},
                   "The loss carried over to the rest of the stack: A Company lost 4."),
    "retreat": ({"units": ["rifles-a", "rifles-b"], "frm": [2, 2], "to": [2, 3]},
                "A Company and B Company retreated from Castel (2,2) to (2,3)."),
    "rout": ({"player": "red", "tile": [2, 2], "units": ["garrison"], "strength": [12]},
             "Castel Rifles found no way back from Castel (2,2): routed (strength 12 of 100)."),
    "hold_shaken": ({"units": ["garrison"], "tile": [2, 2]},
                    "Castel Rifles broke but could not leave Castel (2,2): held there, shaken 2."),
    "disengage": ({"unit": "rifles-b", "attacker": "garrison", "loss": 5, "frm": [3, 1],
                   "to": [4, 1], "strength": 95, "disorder": 15},
                  "B Company stepped back from Castel Rifles's assault, (3,1) to (4,1), losing 5 "
                  "(strength 95 of 100, disorder 15)."),
    "caught": ({"unit": "rifles-b", "tile": [3, 1]},
               "B Company was caught at (3,1): its withdraw reflex found no way back, so it "
               "fought at a disadvantage."),
    "advance": ({"unit": "tank-1", "frm": [1, 3], "to": [2, 2]},
                "1st Armoured advanced from (1,3) into Castel (2,2)."),
    "capture": ({"unit": "tank-1", "player": "blue", "tile": [2, 2]},
                "1st Armoured took Castel (2,2) for Blue."),
    "destroyed": ({"unit": "garrison", "player": "red", "cause": "strength", "tile": [2, 2]},
                  "Castel Rifles was destroyed at Castel (2,2) (its strength reached 0)."),
    "skipped": ({"unit": "tank-2", "action": "assault", "reason": "halted by a reaction"},
                "2nd Armoured did not assault: halted by a reaction."),
    "recovery": ({"unit": "rifles-a", "situation": "field", "strength": 43, "disorder": 48,
                  "shaken": 0},
                 "A Company recovered in the field: strength 43 of 100, disorder 48, shaken 0."),
    "end": ({"turn": 3, "digest": "cd"}, "End of turn 3."),
}
"""One event of every kind, the fields as the engine writes them, and its sentence written
out by hand (names from the Siege of Castel)."""


def _siege() -> World:
    return world_of(siege_scenario("words"))


def test_every_event_kind_has_its_sentence() -> None:
    assert set(SENTENCES) == set(EVENT_KINDS) == set(SAMPLES)
    book = name_book([_siege()], None)
    for kind, (fields, sentence) in SAMPLES.items():
        assert describe({"event": kind, **fields}, book) == sentence, kind
    skipped = {"event": "skipped", "unit": "gun-1", "action": "bombard",
               "reason": "no enemy on [2, 2]"}
    assert describe(skipped, book) == "1st Field Bty did not bombard: no enemy on Castel (2,2)."


def _siege_turns(count: int) -> tuple[list[World], list[list[dict[str, Any]]]]:
    worlds, events = [_siege()], []
    for _ in range(count):
        world = worlds[-1]
        result = play(world, {u: o for u, o in SIEGE_ORDERS.items() if u in world.units})
        worlds.append(result.world)
        events.append(result.events)
    return worlds, events


@pytest.mark.parametrize("viewer", [None, "blue", "red"])
def test_a_played_siege_reads_in_names_never_ids(viewer: str | None) -> None:
    worlds, turns = _siege_turns(3)
    destroyed = {e["unit"] for events in turns for e in events if e["event"] == "destroyed"}
    assert "garrison" in destroyed or any(
        e["event"] == "clash" and e["plan"]["defender"] == "garrison" for e in turns[0])
    kinds = set()
    for number, events in enumerate(turns, start=1):
        book = name_book(worlds[:number + 1], viewer, events)
        for event in events:
            kinds.add(event["event"])
            text = describe(event, book)
            assert not any(uid in text for uid in SIEGE_IDS), text
            assert UNSEEN not in text   # a 5 x 5 board: everyone is in contact
    assert {"clash", "recovery", "orders"} <= kinds
    red = name_book(worlds, "red", turns[-1])
    assert red.unit("garrison") == "Castel Rifles"   # red's own unit, destroyed or not


CROSSING: dict[str, Any] = {
    "seed_key": "crossing",
    "board": {"rows": [". . . . . . .", ". . . . . . .", ". . . . . . ."],
              "tiles": [{"at": [0, 1], "name": "Millbrook"}]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "b-rifles", "name": "Blue Rifles", "player": "blue", "class": "rifle-company",
         "at": [0, 1]},
        {"id": "r-front", "name": "Red Front", "player": "red", "class": "rifle-company",
         "at": [2, 0]},
        {"id": "r-reserve", "name": "Red Reserve", "player": "red", "class": "rifle-company",
         "at": [6, 1]},
    ],
}
"""Blue at Millbrook; red's front two tiles off (contact), its reserve six off (unseen)."""


def test_an_enemy_is_named_only_once_seen_and_keeps_its_name() -> None:
    world = world_of(CROSSING)
    moved = {"event": "move", "unit": "r-reserve", "frm": [6, 1], "to": [5, 1]}
    blue = name_book([world], "blue")
    assert describe(moved, blue) == "An unseen unit moved from (6,1) to (5,1)."
    assert blue.unit("r-front") == "Red Front" and blue.unit("b-rifles") == "Blue Rifles"
    assert blue.place([0, 1]) == "Millbrook (0,1)"
    nearer = play(world, {"r-reserve": {"actions": [{"do": "move", "path": [
        [5, 1], [4, 1]]}]}}).world
    closer = play(nearer, {"r-reserve": {"actions": [{"do": "move", "path": [
        [3, 1], [2, 1]]}]}}).world
    later = play(closer, {"r-reserve": {"actions": [{"do": "move", "path": [
        [3, 1], [4, 1]]}]}})
    assert "r-reserve" not in name_book([later.world], "blue").units   # out of contact now
    assert "r-reserve" not in name_book([world, nearer], "blue").units
    remembered = name_book([world, nearer, closer, later.world], "blue")
    assert describe(moved, remembered) == "Red Reserve moved from (6,1) to (5,1)."
    assert name_book([world], "red").unit("r-reserve") == "Red Reserve"   # its own, far off
