"""Conquest maps: the shipped map data (JSON, see SOURCES.md) and the code that makes and draws it.

`build` makes a map from boundaries (GeoJSON) and a table of factions (CSV), with `geo`'s border
rules; `shapes` writes the drawn outlines, `svg` draws a season's map from them (standard
library only), `synthetic` generates maps of any size for tests and benchmarks. Loading and
checking a map is a rule: `fairfight.conquest.rules.scenario`.
"""

__all__: list[str] = []
