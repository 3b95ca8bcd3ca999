"""Sheets and a war set-up shared by the stored-war tests (store, web, browser, bench).

The armies are the source's demonstration battle with the terms a stored war fills in left
out: no NWS (no year is published), no numbers (derived), no previous battle for Gondor (the
war has none), and the great leader approved by the moderator instead of typed.
"""

from __future__ import annotations

from typing import Any

MORDOR = """# Host of Mordor
troops: 100000
support:
  race: orc
  special_units: [trolls]
morale:
  previous: fresh
technology:
  armor: light
  weapons: poorly-made
"""
GONDOR = """# Garrison of Gondor
troops: 43142
support:
  race: human
  special_units: [wizard]
  ballista: moderate
  cavalry: moderate
morale:
  specials: [great-leader]
defensives: small-fort
technology:
  armor: partial-plate
  weapons: well-made
"""
SETUP: dict[str, Any] = {
    "war": "War of the Ring",
    "moderator": "Saruman the Moderator",
    "nations": [{"name": "Mordor", "side": "Shadow"}, {"name": "Gondor", "side": "West"}],
    "years": [3019, 3020],
}
BATTLE: dict[str, Any] = {"kind": "battle", "year": 3019, "battle": "Pelennor Fields",
                          "battle_kind": "land", "attacker": "Mordor", "defender": "Gondor"}
# By hand, from the demonstration's factors (seed 002): Mordor support 0.90 x technology 1.00
# (its total 112.50 = 100 x S x 1.25 x T), morale 1.00 + 0.20 outnumbering + 0.10 fresh = 1.30:
# 100 x 0.90 x 1.30 = 117.00. Gondor support 1.40, technology 1.50, small fort 1.25, morale
# 1.00 - 0.20 outnumbered + 0.50 great leader = 1.30: 43.14 x 1.40 x 1.30 x 1.25 x 1.50 =
# 147.21525 -> 147.22; 147.21525 / 117 = 1.258... -> 126%, Solid Victory for Gondor.
MORDOR_TOTAL = "117.00"
GONDOR_TOTAL = "147.22"
PERCENT = 126
