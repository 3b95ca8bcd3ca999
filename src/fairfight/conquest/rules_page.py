"""The conquest rules page, rendered from `tables.py`'s constants and enum docstrings."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from fairfight.conquest.record import beacons
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.rules.episodes import multiplier
from fairfight.core.enumdocs import member_docs
from fairfight.docs import render_page

__all__ = [
    "TEMPLATE",
    "docs_by_value",
    "multiplier",
    "rules_context",
    "rules_page",
    "share_percent",
]

TEMPLATE = "conquest.md.j2"


def docs_by_value(kind: type[enum.Enum]) -> dict[str, str]:
    """Each member's docstring keyed by the member's value, as the template looks them up."""
    return {str(member.value): doc for member, doc in member_docs(kind).items()}


def share_percent(value: Fraction) -> str:
    """An exact share as a percentage with no needless digits: Fraction(11, 32) -> `34.375%`."""
    text = f"{float(value * 100):.4f}".rstrip("0").rstrip(".")
    return f"{text}%"


def rules_context() -> dict[str, Any]:
    """Every number and name the rules page shows, read from the tables and the engine."""
    return {**_rating_context(), **_battle_context(), **_pool_context(), **_record_context()}


def _rating_context() -> dict[str, Any]:
    """The categories, types and power terms that make a faction's rating."""
    t = tables
    category_docs = docs_by_value(t.Category)
    return {
        "version": t.ENGINE_VERSION,
        "categories": [
            {
                "code": c.value,
                "doc": category_docs[c.value],
                "weight": t.RATING_WEIGHTS[c],
                "type": t.CATEGORY_TYPES[c].value,
            }
            for c in t.CATEGORIES
        ],
        "rating_min": t.RATING_MIN,
        "rating_max": t.RATING_MAX,
        "types": [
            {"name": kind.value, "doc": doc, "beats": t.COUNTERS[kind].value}
            for kind, doc in zip(t.FactionType, docs_by_value(t.FactionType).values(), strict=True)
        ],
        "exponent": f"{float(t.POWER_EXPONENT):g}",
        "exponent_fraction": engine.fraction_text(t.POWER_EXPONENT),
        "power_scale": f"{t.POWER_SCALE:,}",
        "special": multiplier(t.SPECIAL_BONUS),
        "home": multiplier(t.HOME_BONUS),
        "sea": multiplier(t.SEA_FACTOR),
        "counter": multiplier(t.COUNTER_BONUS),
    }


def _battle_context() -> dict[str, Any]:
    """The rounds, clamps, morale and integration ramp of a battle."""
    t = tables
    ramp = []
    battles_after = 0
    while True:
        share = engine.integration_share(battles_after + 1, 0)
        ramp.append({"battle": battles_after + 1, "share": share_percent(share)})
        if share == 1:
            break
        battles_after += 1
    floor_battle = engine.battle_chance([t.ROUND_FLOOR] * len(t.CATEGORIES))
    return {
        "round_bits": t.ROUND_BITS,
        "clamp_low": share_percent(Fraction(t.CLAMP_PER_MILLE, 1000)),
        "clamp_high": share_percent(Fraction(1000 - t.CLAMP_PER_MILLE, 1000)),
        "clamp_floor": t.ROUND_FLOOR,
        "clamp_ceiling": t.ROUND_CEILING,
        "floor_battle": f"{float(floor_battle) * 100:.3f}%",
        "rounds": len(t.CATEGORIES),
        "rounds_to_win": t.ROUNDS_TO_WIN,
        "upset": share_percent(t.UPSET_BELOW),
        "morale_win": share_percent(Fraction(t.MORALE_WIN_BP, t.BASIS_POINTS)),
        "morale_upset": share_percent(Fraction(t.MORALE_UPSET_BP, t.BASIS_POINTS)),
        "morale_cap": share_percent(Fraction(t.MORALE_CAP_BP, t.BASIS_POINTS)),
        "morale_decay": multiplier(t.MORALE_DECAY),
        "basis_points": t.BASIS_POINTS,
        "ramp": ramp,
    }


def _pool_context() -> dict[str, Any]:
    """The fan pools, the reasons and kinds of battle, and the draws a battle takes."""
    t = tables
    return {
        "pool_step": t.POOL_STEP,
        "pool_cap": t.POOL_CAP,
        "fan_examples": [
            {"amount": a, "factor": multiplier(engine.fan_factor(a))}
            for a in range(t.POOL_STEP, t.POOL_CAP, t.POOL_STEP)
        ],
        "reasons": docs_by_value(t.Reason),
        "pool_states": docs_by_value(t.PoolState),
        "kinds": docs_by_value(t.BattleKind),
        "draws_per_battle": t.DRAWS_PER_BATTLE,
        "pick_draws": t.DRAWS_PER_BATTLE - len(t.CATEGORIES),
        "fan_boost": share_percent(t.FAN_BOOST_AT_CAP),
        "ramp_start": share_percent(
            Fraction(t.INTEGRATION_START, t.INTEGRATION_DENOMINATOR)
        ),
        "ramp_step": share_percent(Fraction(t.INTEGRATION_STEP, t.INTEGRATION_DENOMINATOR)),
        "draw_roles": list(enumerate(t.DRAW_ROLES)),
    }


def _record_context() -> dict[str, Any]:
    """The record's files, the log key and the randomness beacon."""
    t = tables
    return {
        "record_files": t.RECORD_FILES,
        "engine_files": t.ENGINE_FILES,
        "legacy_engine_files": t.LEGACY_ENGINE_FILES,
        "previous_engine_files": t.PREVIOUS_ENGINE_FILES,
        "before_luck_engine_files": t.BEFORE_LUCK_ENGINE_FILES,
        "before_witness_engine_files": t.BEFORE_WITNESS_ENGINE_FILES,
        "luck_engine_file": t.LUCK_ENGINE_FILE,
        "luck_format": t.LUCK_FORMAT,
        "log_record_files": t.LOG_RECORD_FILES,
        "log_key": t.LOG_KEY,
        "guide": t.GUIDE,
        "manifest": t.MANIFEST,
        "shown_length": t.SHOWN_LENGTH,
        "beacon": {
            "name": t.QUICKNET["name"],
            "chain_hash": t.QUICKNET["chain_hash"],
            "genesis": t.QUICKNET["genesis"],
            "genesis_text": beacons.utc_text(t.QUICKNET["genesis"]),
            "period": t.QUICKNET["period_seconds"],
        },
        "beacon_lead": t.BEACON_LEAD_SECONDS,
    }


def rules_page() -> str:
    """The Markdown rules page (`fairfight conquest rules`)."""
    return render_page(TEMPLATE, **rules_context())
