"""A turn's JSON never names a unit its reader did not see: `masked_event` puts "unseen" in
every unit field an event has, and leaves known ids and everything else as written."""

from __future__ import annotations

from fairfight.clash.sightings import UNSEEN_ID, masked_event


def test_unknown_ids_in_every_unit_field_become_unseen() -> None:
    event = {"event": "clash", "attacker": "red-3", "unit": "blue-1", "units": ["blue-1", "red-4"],
             "plan": {"lead": "red-3", "defender": "blue-1", "supporters": ["red-5", "blue-2"],
                      "stack": ["blue-1"], "target": [2, 2]}, "tile": [2, 2], "loss": 7}
    masked = masked_event(event, {"blue-1", "blue-2"})
    assert masked == {"event": "clash", "attacker": UNSEEN_ID, "unit": "blue-1",
                      "units": ["blue-1", UNSEEN_ID],
                      "plan": {"lead": UNSEEN_ID, "defender": "blue-1",
                               "supporters": [UNSEEN_ID, "blue-2"], "stack": ["blue-1"],
                               "target": [2, 2]}, "tile": [2, 2], "loss": 7}
    assert event["attacker"] == "red-3" and event["plan"]["lead"] == "red-3"  # not changed


def test_a_reader_who_knows_every_unit_gets_the_event_as_written() -> None:
    event = {"event": "move", "unit": "red-3", "frm": [1, 1], "to": [1, 2]}
    assert masked_event(event, {"red-3": "Red Rifles"}) == event
