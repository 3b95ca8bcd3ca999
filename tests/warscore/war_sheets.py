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

YEAR: dict[str, Any] = {"kind": "year", "year": 3019}
# Points from the source's NWS tables: Mordor over-5-million 10, lightly-industrialized 15,
# middle 15, unsupported-dictatorship -15, zealous 25, fully-supplied 15, in-position-stockpiled
# 20, two fronts 0 = 85. Gondor over-1-million 5, proto-industrial 5, middle 15,
# supported-monarchy 10, supported-war 10, well-supplied 10, in-position-or-stockpiled 10,
# three fronts -5 = 60.
MORDOR_NWS = """population: over-5-million
industry: lightly-industrialized
technology: middle
government: unsupported-dictatorship
eagerness: zealous
weariness: fully-supplied
readiness: in-position-stockpiled
fronts: 2
"""
GONDOR_NWS = """population: over-1-million
industry: proto-industrial
technology: middle
government: supported-monarchy
eagerness: supported-war
weariness: well-supplied
readiness: in-position-or-stockpiled
fronts: 3
"""
# With 85 against 60 (25 apart, neither double nor half): Mordor "Greater NWS" +0.05, Gondor
# "Less NWS" -0.05. Mordor 100 x 0.90 x 1.35 = 121.50; Gondor 43.14 x 1.40 x 1.25 x 1.25 x 1.50
# = 141.553125 -> 141.55; 141.553125 / 121.5 = 1.165... -> 117%, Marginal Victory for Gondor.
MORDOR_TOTAL_AFTER_NWS = "121.50"
GONDOR_TOTAL_AFTER_NWS = "141.55"
PERCENT_AFTER_NWS = 117
# Gondor in ruin: under-1-million 0, pre-industrial 0, lowest 5, unsupported-dictatorship -15,
# civil-war -50, starving -25, unable-to-reach-front -20, three fronts -5 = -110: capitulates.
GONDOR_RUIN = """population: under-1-million
industry: pre-industrial
technology: lowest
government: unsupported-dictatorship
eagerness: civil-war
weariness: starving
readiness: unable-to-reach-front
fronts: 3
"""
