"""The conquest map's rating rule: five 1..10 ratings per region from public indicators.

Each rating is a rank decile of one indicator over all regions of the map:

    rating = 1 + (10 * number of regions with a strictly worse value) // number of regions

so ties share a rating, the worst region gets 1 and only the top tenth can get 10.
Indicators (tools/conquest_indicators.csv, sources in tools/conquest_indicator_sources.csv):

    P Production  output (GDP) per person, US dollars
    S Supplies    area in km2 (land and the resources on it)
    M Movement    people per km2 (a dense region has dense roads, ports and rail)
    R Readiness   highest point in metres (rugged ground favours the defence)
    U Unity       year the region took its present status; earlier is better

Each region's special goes in its strongest category (ties to the heavier weight); its name,
the regional fact behind it and any citation come from tools/conquest_specials.csv.

Run `.venv/bin/python tools/conquest_ratings.py` to print the ratings; the map build
(tools/conquest_build_map.py) imports `ratings_from_table`, and a test re-runs it against the
committed map.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
INDICATORS = TOOLS / "conquest_indicators.csv"
FACTIONS = TOOLS / "conquest_factions.csv"
RATING_LEVELS = 10
"""Ratings run 1..RATING_LEVELS."""

Row = Mapping[str, str]
INDICATOR_OF: dict[str, Callable[[Row, Row], Fraction]] = {
    "P": lambda ind, _fac: Fraction(int(ind["gdp_per_person_usd"])),
    "S": lambda ind, _fac: Fraction(int(ind["area_km2"])),
    "M": lambda ind, fac: Fraction(int(fac["population"]), int(ind["area_km2"])),
    "R": lambda ind, _fac: Fraction(int(ind["highest_point_m"])),
    "U": lambda ind, _fac: Fraction(-int(ind["status_year"])),
}
"""Per category, the indicator value where larger is better (exact, so ties are real ties)."""


def decile_ratings(values: Mapping[str, Fraction]) -> dict[str, int]:
    """Rank deciles: 1 + 10 * (count of strictly smaller values) // count, as integers."""
    ordered = sorted(values.values())
    count = len(ordered)
    ratings = {}
    for code, value in values.items():
        below = next((i for i, other in enumerate(ordered) if other >= value), count)
        ratings[code] = 1 + (RATING_LEVELS * below) // count
    return ratings


def read_rows(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["code"]: row for row in csv.DictReader(handle)}


def ratings_from_table(
    indicators: Path = INDICATORS, factions: Path = FACTIONS
) -> dict[str, dict[str, int]]:
    """Ratings per region code: {"P": .., "S": .., "M": .., "R": .., "U": ..}."""
    indicator_rows = read_rows(indicators)
    faction_rows = read_rows(factions)
    if set(indicator_rows) != set(faction_rows):
        raise SystemExit("indicator table and faction table list different regions")
    per_category = {
        category: decile_ratings(
            {code: value_of(row, faction_rows[code]) for code, row in indicator_rows.items()}
        )
        for category, value_of in INDICATOR_OF.items()
    }
    return {
        code: {category: per_category[category][code] for category in INDICATOR_OF}
        for code in sorted(indicator_rows)
    }


CATEGORY_ORDER = ("P", "S", "M", "R", "U")
"""Ties for the strongest rating go to the earlier category (the order of the weights)."""
SPECIALS = TOOLS / "conquest_specials.csv"


def special_category(ratings: Mapping[str, int]) -> str:
    """A region's special sits in its strongest rating; ties go to the heavier weight."""
    return max(CATEGORY_ORDER, key=lambda c: (ratings[c], -CATEGORY_ORDER.index(c)))


def specials_from_table(
    indicators: Path = INDICATORS, factions: Path = FACTIONS, specials: Path = SPECIALS
) -> dict[str, dict[str, str | None]]:
    """Every region's special: the category from its ratings, the name and fact from the
    hand-written table; a fact with a citation is `sourced`, one without is `unsourced`."""
    ratings = ratings_from_table(indicators, factions)
    texts = read_rows(specials)
    if set(texts) != set(ratings):
        raise SystemExit("special table and faction table list different regions")
    return {
        code: {
            "category": special_category(ratings[code]),
            "name": texts[code]["name"],
            "fact": texts[code]["fact"],
            "source_status": "sourced" if texts[code]["citation"] else "unsourced",
            "citation": texts[code]["citation"] or None,
        }
        for code in sorted(ratings)
    }


if __name__ == "__main__":
    for code, ratings in ratings_from_table().items():
        print(code, json.dumps(ratings))
