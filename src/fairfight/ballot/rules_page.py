"""The rules page: every number of the design's section 12 computed from the constants [12].

`rules_context` gathers the numbers; `render_rules` feeds them to the Jinja2 template
`ballot.md.j2`, which holds prose only.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any

from fairfight.ballot import tables
from fairfight.ballot.advice_words import ADVICE_OPTIMISES
from fairfight.ballot.dice import (
    RaceKind,
    certainty_edge,
    largest_general_edge,
    largest_presidential_edge,
    largest_primary_edge,
    table,
    tie_chance,
)
from fairfight.ballot.geo import game_map, opening_house_d, opening_party
from fairfight.ballot.guidance import card_glossary
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.tables import (
    CANDIDATE_CARDS,
    MODIFIER_COUNTS,
    BallotConfig,
    Office,
    Party,
    named_config,
)
from fairfight.core.enumdocs import member_docs
from fairfight.docs import render_page

__all__ = [
    "DEFAULT_MAX_EDGE",
    "FIRST_YEARS",
    "chance_text",
    "docs_by_name",
    "odds_rows",
    "opening_board",
    "percent",
    "races_per_year",
    "render_rules",
    "rules_context",
]


DEFAULT_MAX_EDGE = 8
FIRST_YEARS = 4


def percent(value: Fraction, digits: int = 1) -> str:
    """A probability as a percentage, rounded half up from the exact fraction (in whole
    numbers: a presidential chance's 300-digit fraction would cost Fraction arithmetic)."""
    scale, top, bottom = 100 * 10**digits, value.numerator, value.denominator
    rounded = (2 * abs(top) * scale + bottom) // (2 * bottom)
    rounded = rounded if top >= 0 else -rounded
    text = str(rounded).rjust(digits + 1, "0")
    return f"{text[:-digits]}.{text[-digits:]}" if digits else text


def chance_text(value: Fraction, digits: int = 1) -> str:
    """A chance as a percentage that never rounds an uncertain chance to certainty.

    `percent` alone turns 99.96% into "100.0"; here only a chance of exactly 1 (or 0) reads
    100 (or 0), and a chance that rounds there reads "> 99.9" (or "< 0.1"). A page shows
    hundreds of chances, so the test is on whole numbers (a denominator is always positive).
    """
    text = percent(value, digits)
    if 0 < value.numerator < value.denominator:
        whole, nothing, below_whole, above_nothing = _rounded_ends(digits)
        if text == whole:
            return f"> {below_whole}"
        if text == nothing:
            return f"< {above_nothing}"
    return text


@cache
def _rounded_ends(digits: int) -> tuple[str, str, str, str]:
    """100% and 0% as `percent` writes them, and the nearest figures short of each."""
    unit = Fraction(1, 100 * 10**digits)
    return (percent(Fraction(1), digits), percent(Fraction(0), digits),
            percent(1 - unit, digits), percent(unit, digits))


def odds_rows(kind: RaceKind, max_edge: int = DEFAULT_MAX_EDGE) -> list[dict[str, Any]]:
    """The table for edges 0..max_edge: edge, percent to one decimal (never a false 100.0),
    the exact fraction, and whether the edge is certain (the side ahead cannot lose)."""
    return [
        {
            "edge": edge,
            "percent": chance_text(chance),
            "fraction": str(chance),
            "certain": chance == 1,
        }
        for edge, chance in enumerate(table(kind, max_edge))
    ]


def docs_by_name(kind: type[Enum]) -> dict[str, str]:
    """Each member's docstring keyed by the member's name, as the template looks them up."""
    return {member.name: doc for member, doc in member_docs(kind).items()}


def opening_board() -> dict[str, dict[str, int]]:
    """Seats per party on the opening board, by office [1.6]."""
    counts: dict[str, Counter[str]] = {office.value: Counter() for office in Office}
    for info in game_map().seats[1:]:
        counts[info.office.value][opening_party(info).value] += 1
    return {office: dict(counter) for office, counter in counts.items() if counter}


def races_per_year(config: BallotConfig) -> list[dict[str, int]]:
    """How many races come up in each of the first four years [2.2]."""
    gmap = game_map()
    return [
        {"year": year, "races": len(gmap.races_in(year))}
        for year in range(config.start_year, config.start_year + FIRST_YEARS)
    ]


def rules_context(config: BallotConfig | None = None) -> dict[str, Any]:
    """Every number the rules page shows."""
    chosen = config or named_config("as-written-plus")
    return {**_odds_context(chosen), **_map_context(chosen), **_card_context(chosen)}


def _odds_context(chosen: BallotConfig) -> dict[str, Any]:
    """The configs, the race odds and the thresholds a vote needs."""
    gmap = game_map()
    largest_base = max(abs(state.baseline) for state in gmap.states)
    limits = thresholds()
    return {
        "config": chosen,
        "named_configs": sorted(tables.NAMED_CONFIGS),
        "general": odds_rows(RaceKind.GENERAL),
        "primary": odds_rows(RaceKind.PRIMARY),
        "tie_general": percent(tie_chance(RaceKind.GENERAL)),
        "tie_primary": percent(tie_chance(RaceKind.PRIMARY)),
        "recount_share": str(Fraction(1, 2)),
        "certain_general": certainty_edge(RaceKind.GENERAL),
        "certain_primary": certainty_edge(RaceKind.PRIMARY),
        "largest_primary": largest_primary_edge(),
        "largest_general": max(
            largest_general_edge(largest_base), largest_presidential_edge(largest_base)
        ),
        "limits": limits,
        "override_percent": percent(tables.OVERRIDE),
        "senate_percent": percent(tables.SENATE_PASS, 0),
    }


def _map_context(chosen: BallotConfig) -> dict[str, Any]:
    """The map: seats, Senate classes, electoral votes and every state's line."""
    gmap = game_map()
    senate_classes = Counter(
        seat.senate_class for seat in gmap.seats if seat.office is Office.SENATE
    )
    states = [
        {
            "code": state.code,
            "house": state.house,
            "ev": state.electoral_votes,
            "base": f"{state.baseline:+d}" if state.baseline else "0",
            "senate": "/".join(state.senate_classes),
            "governor": state.governor_cycle,
            "tags": " ".join(state.tags),
            "house_d": opening_house_d(state),
        }
        for state in gmap.states
    ]
    return {
        "house_seats": sum(state.house for state in gmap.states),
        "senate_seats": sum(senate_classes.values()),
        "senate_classes": dict(sorted(senate_classes.items(), key=lambda kv: len(kv[0]))),
        "states_count": len(gmap.states),
        "electoral_total": gmap.total_electoral_votes(),
        "electoral_majority": gmap.electoral_majority(),
        "electoral_bonus": tables.ELECTORAL_BONUS,
        "races": races_per_year(chosen),
        "opening": opening_board(),
        "states": states,
        "tags": tables.TAGS,
    }


def _card_context(chosen: BallotConfig) -> dict[str, Any]:
    """The cards, the scoring, the victory modes and the bonuses."""
    gmap = game_map()
    return {
        "card_glossary": card_glossary(),
        "advice_optimises": ADVICE_OPTIMISES,
        "lean_push": [{"margins": text, "push": push} for text, push in _push_rows()],
        "score_rows": _score_rows(chosen),
        "modifier_counts": MODIFIER_COUNTS,
        "candidate_cards": CANDIDATE_CARDS,
        "district_cards": len(gmap.states),
        "deck_size": CANDIDATE_CARDS + len(gmap.states),
        "victory_docs": docs_by_name(tables.VictoryMode),
        "victory_modes": [mode.value for mode in tables.VictoryMode],
        "office_docs": docs_by_name(Office),
        "parties": [party.value for party in Party],
        "bonuses": {
            "incumbency": tables.INCUMBENCY_BONUS,
            "ground": tables.GROUND_GAME_BONUS,
            "switch": tables.SWITCH_PENALTY,
            "board": tables.BOARD_GENERIC_PART,
            "board_incumbent": tables.BOARD_INCUMBENCY_BONUS,
        },
        "last_year": chosen.last_year(),
    }


def _push_rows() -> list[tuple[str, int]]:
    rows = []
    low = 0
    for largest, push in tables.LEAN_PUSH:
        rows.append((f"{low}-{largest}", push))
        low = largest + 1
    rows.append((f"{low}+", tables.LEAN_PUSH_MAX))
    return rows


def _score_rows(config: BallotConfig) -> list[tuple[str, int]]:
    labels = {
        "presidency": "the presidency",
        "senate": "a Senate seat",
        "governor": "a governorship",
        "house": "a House seat",
        "bill": "a bill you hold, while on the books",
        "leaning_state": "a state leaning your way",
        "amendment": "a ratified amendment matching your seated governors' tags",
        "district_card": "a district card on a seat you hold",
        "hand_card": "a card in your hand (after the hand limit)",
    }
    values = config.score.model_dump()
    return [(labels[name], values[name]) for name in labels]


def render_rules(config: BallotConfig | None = None) -> str:
    """The rules page as Markdown."""
    return render_page("ballot.md.j2", **rules_context(config))
