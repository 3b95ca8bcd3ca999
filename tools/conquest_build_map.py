"""Assemble the shipped conquest map from the checked tables beside this script.

Inputs (all in tools/): conquest_factions.csv (regions and populations), conquest_land_borders.csv,
conquest_sea_links.csv (written by conquest_sea_links.py from coastline data), and the
ratings and specials that conquest_ratings.py derives from conquest_indicators.csv.
Output: src/fairfight/conquest/maps/north-america.json and the JSON Schema map.schema.json
next to it. Run with the project's Python:

    .venv/bin/python tools/conquest_build_map.py
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
MAPS = ROOT / "src" / "fairfight" / "conquest" / "maps"
MAP_NAME = "north-america"


def read_csv(name: str) -> list[dict[str, str]]:
    """Rows of a table in tools/, as dicts."""
    with (TOOLS / name).open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def ratings_module() -> ModuleType:
    """The ratings rule lives in conquest_ratings.py; load it without making tools/ a package."""
    spec = importlib.util.spec_from_file_location("conquest_ratings", TOOLS / "conquest_ratings.py")
    if spec is None or spec.loader is None:
        raise SystemExit("cannot load tools/conquest_ratings.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def build_regions() -> list[dict[str, Any]]:
    """Regions with population, ratings and special, sorted by code."""
    rule = ratings_module()
    ratings = rule.ratings_from_table()
    specials = rule.specials_from_table()
    regions = []
    for row in read_csv("conquest_factions.csv"):
        code = row["code"]
        regions.append(
            {
                "code": code,
                "name": row["name"],
                "population": int(row["population"]),
                "population_year": int(row["population_year"]),
                "population_basis": row["population_basis"],
                "ratings": ratings[code],
                "special": specials[code],
            }
        )
    return sorted(regions, key=lambda region: region["code"].encode())


def build_borders() -> list[dict[str, Any]]:
    """Land borders from the checked list, then sea links for every pair not already joined."""
    borders: dict[tuple[str, str], dict[str, Any]] = {}
    for row in read_csv("conquest_land_borders.csv"):
        pair = (row["a"], row["b"])
        borders[pair] = {"a": pair[0], "b": pair[1], "kind": "land", "remote": False,
                         "distance_km": 0}
    for row in read_csv("conquest_sea_links.csv"):
        pair = (row["a"], row["b"])
        if pair in borders:
            continue
        borders[pair] = {"a": pair[0], "b": pair[1], "kind": "sea",
                         "remote": row["remote"] == "true",
                         "distance_km": int(row["distance_km"])}
    return [borders[pair] for pair in sorted(borders, key=lambda p: (p[0].encode(), p[1].encode()))]


def write_map(data: dict[str, Any]) -> None:
    """One region or border per line, so a change shows as a one-line diff."""
    lines = ["{", f'"name": {json.dumps(data["name"])},', '"regions": [']
    regions = [json.dumps(region, ensure_ascii=False) for region in data["regions"]]
    lines.append(",\n".join(regions))
    lines.append("],")
    lines.append('"borders": [')
    lines.append(",\n".join(json.dumps(border) for border in data["borders"]))
    lines.append("]")
    lines.append("}")
    (MAPS / f"{MAP_NAME}.json").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from fairfight.conquest.rules.scenario import map_schema, map_stats, validate_map

    data = {"name": MAP_NAME, "regions": build_regions(), "borders": build_borders()}
    validate_map(data)
    write_map(data)
    schema = json.dumps(map_schema(), indent=2, ensure_ascii=False, sort_keys=True)
    (MAPS / "map.schema.json").write_text(schema + "\n", encoding="utf-8")
    print(json.dumps(map_stats(data)))


if __name__ == "__main__":
    main()
