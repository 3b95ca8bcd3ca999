"""The conquest rules page, rendered from the engine's constants and enum docstrings."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from fairfight.conquest import engine
from fairfight.core.enumdocs import member_docs
from fairfight.docs import render_page

__all__ = ["docs_by_value", "multiplier", "rules_context", "rules_page", "share_percent"]

TEMPLATE = "conquest.md.j2"


def docs_by_value(kind: type[enum.Enum]) -> dict[str, str]:
    """Each member's docstring keyed by the member's value, as the template looks them up."""
    return {str(member.value): doc for member, doc in member_docs(kind).items()}


def multiplier(value: Fraction) -> str:
    """A factor as the page prints it: Fraction(28, 25) -> `×1.12`."""
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return f"×{text}"


def share_percent(value: Fraction) -> str:
    """An exact share as a percentage with no needless digits: Fraction(11, 32) -> `34.375%`."""
    text = f"{float(value * 100):.4f}".rstrip("0").rstrip(".")
    return f"{text}%"


def rules_context() -> dict[str, Any]:
    """Every number and name the rules page shows, read from the engine."""
    e = engine
    ramp = []
    battles_after = 0
    while True:
        share = e.integration_share(battles_after + 1, 0)
        ramp.append({"battle": battles_after + 1, "share": share_percent(share)})
        if share == 1:
            break
        battles_after += 1
    category_docs = docs_by_value(e.Category)
    return {
        "version": e.ENGINE_VERSION,
        "categories": [
            {
                "code": c.value,
                "doc": category_docs[c.value],
                "weight": e.RATING_WEIGHTS[c],
                "type": e.CATEGORY_TYPES[c].value,
            }
            for c in e.CATEGORIES
        ],
        "rating_min": e.RATING_MIN,
        "rating_max": e.RATING_MAX,
        "types": [
            {"name": t.value, "doc": doc, "beats": e.COUNTERS[t].value}
            for t, doc in zip(e.FactionType, docs_by_value(e.FactionType).values(), strict=True)
        ],
        "exponent": f"{float(e.POWER_EXPONENT):g}",
        "exponent_fraction": engine.fraction_text(e.POWER_EXPONENT),
        "power_scale": f"{e.POWER_SCALE:,}",
        "special": multiplier(e.SPECIAL_BONUS),
        "home": multiplier(e.HOME_BONUS),
        "sea": multiplier(e.SEA_FACTOR),
        "counter": multiplier(e.COUNTER_BONUS),
        "round_bits": e.ROUND_BITS,
        "clamp_low": share_percent(Fraction(e.CLAMP_PER_MILLE, 1000)),
        "clamp_high": share_percent(Fraction(1000 - e.CLAMP_PER_MILLE, 1000)),
        "clamp_floor": e.ROUND_FLOOR,
        "clamp_ceiling": e.ROUND_CEILING,
        "floor_battle": f"{float(e.battle_chance([e.ROUND_FLOOR] * len(e.CATEGORIES))) * 100:.3f}%",
        "rounds": len(e.CATEGORIES),
        "rounds_to_win": e.ROUNDS_TO_WIN,
        "upset": share_percent(e.UPSET_BELOW),
        "morale_win": share_percent(Fraction(e.MORALE_WIN_BP, e.BASIS_POINTS)),
        "morale_upset": share_percent(Fraction(e.MORALE_UPSET_BP, e.BASIS_POINTS)),
        "morale_cap": share_percent(Fraction(e.MORALE_CAP_BP, e.BASIS_POINTS)),
        "morale_decay": multiplier(e.MORALE_DECAY),
        "basis_points": e.BASIS_POINTS,
        "ramp": ramp,
        "pool_step": e.POOL_STEP,
        "pool_cap": e.POOL_CAP,
        "fan_examples": [
            {"amount": a, "factor": multiplier(e.fan_factor(a))}
            for a in range(e.POOL_STEP, e.POOL_CAP, e.POOL_STEP)
        ],
        "reasons": docs_by_value(e.Reason),
        "pool_states": docs_by_value(e.PoolState),
        "kinds": docs_by_value(e.BattleKind),
        "draws_per_battle": e.DRAWS_PER_BATTLE,
        "pick_draws": e.DRAWS_PER_BATTLE - len(e.CATEGORIES),
        "fan_boost": share_percent(e.FAN_BOOST_AT_CAP),
        "ramp_start": share_percent(
            Fraction(e.INTEGRATION_START, e.INTEGRATION_DENOMINATOR)
        ),
        "ramp_step": share_percent(Fraction(e.INTEGRATION_STEP, e.INTEGRATION_DENOMINATOR)),
        "draw_roles": list(enumerate(e.DRAW_ROLES)),
        "record_files": e.RECORD_FILES,
        "beacon": {
            "name": e.QUICKNET["name"],
            "chain_hash": e.QUICKNET["chain_hash"],
            "genesis": e.QUICKNET["genesis"],
            "genesis_text": e.utc_text(e.QUICKNET["genesis"]),
            "period": e.QUICKNET["period_seconds"],
        },
        "beacon_lead": e.BEACON_LEAD_SECONDS,
    }


def rules_page() -> str:
    """The Markdown rules page (`fairfight conquest rules`)."""
    return render_page(TEMPLATE, **rules_context())
