"""The warscore rules page, rendered from the constants in `tables.py` (nothing typed twice)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from enum import StrEnum
from typing import Any

from fairfight.docs import render_page
from fairfight.warscore import tables as t
from fairfight.warscore.forum import NAVAL_NOTE

TEMPLATE = "warscore.md.j2"

NWS_FIELDS: tuple[tuple[str, Mapping[Any, t.Row[int]]], ...] = (
    ("population", t.POPULATION),
    ("industry", t.INDUSTRY),
    ("technology", t.NATIONAL_TECHNOLOGY),
    ("government", t.GOVERNMENT),
    ("eagerness", t.EAGERNESS),
    ("weariness", t.WEARINESS),
    ("readiness", t.READINESS),
)
"""The NWS input fields and their tables, in the order of NWS_CATEGORIES."""


def _choices(field: str, table: Mapping[Any, t.Row[Any]], title: str = "") -> dict[str, Any]:
    """A choice table for the page: its title, the input field and its (key, label, value) rows."""
    rows = [
        {"key": str(key), "label": row.label, "value": _number(row.value)}
        for key, row in table.items()
    ]
    return {"title": title, "field": field, "rows": rows}


def _number(value: int | Decimal) -> str:
    """Signed integers and hundredths as the tables hold them."""
    return str(value)


def _keys(members: frozenset[StrEnum] | tuple[StrEnum, ...]) -> str:
    return ", ".join(f"`{member}`" for member in sorted(members, key=str))


def rules_context() -> dict[str, Any]:
    """Everything the template shows, straight from the tables."""
    return {**_war_context(), **_army_context(), **_battle_context()}


def _war_context() -> dict[str, Any]:
    """The war's standing (NWS), its fronts and the bases every battle starts from."""
    fronts = [{"count": count, "points": points} for count, points in t.FRONTS.items()]
    return {
        "nws": [
            _choices(field, table, title)
            for (field, table), title in zip(NWS_FIELDS, t.NWS_CATEGORIES, strict=False)
        ],
        "fronts_title": t.NWS_CATEGORIES[-1],
        "fronts": fronts,
        "further_front": t.FURTHER_FRONT,
        "last_listed_front": max(t.FRONTS),
        "min_fronts": t.MIN_FRONTS,
        "sue_for_peace_below": t.SUE_FOR_PEACE_BELOW,
        "capitulate_at_or_below": t.CAPITULATE_AT_OR_BELOW,
        "troops_per_point": t.TROOPS_PER_POINT,
        "max_troops": t.MAX_TROOPS,
        "cent": t.CENT,
        "support_base": t.SUPPORT_BASE,
        "morale_base": t.MORALE_BASE,
        "technology_base": t.TECHNOLOGY_BASE,
        "no_defensives": t.NO_DEFENSIVES,
    }


def _army_context() -> dict[str, Any]:
    """An army's support and morale choices, with the caps wealth sets."""
    return {
        "support": [
            _choices("support.special_units (list)", t.SPECIAL_UNITS),
            _choices("support.race", t.RACES),
            _choices("support.ballista (land)", t.BALLISTA),
            _choices("support.cavalry (land)", t.CAVALRY),
            _choices("support.ships (naval)", t.SHIPS),
        ],
        "pikes_multiplier": t.PIKES_CAVALRY_MULTIPLIER,
        "tier_order": " < ".join(f"`{tier}`" for tier in t.SUPPORT_TIER_ORDER),
        "wealth_caps": [
            {"wealth": str(wealth), "cap": str(cap)} for wealth, cap in t.WEALTH_SUPPORT_CAP.items()
        ],
        "partial_step": t.PARTIAL_ARMY_TIER_STEP,
        "morale": [
            _choices("morale.nws (derived in wars)", t.NWS_STANDING),
            _choices("morale.numbers (derived)", t.NUMBERS),
            _choices("morale.previous", t.PREVIOUS_BATTLES),
            _choices("morale.positioning", t.POSITIONING),
            _choices("morale.specials (list, approval)", t.MORALE_SPECIALS),
        ],
    }


def _battle_context() -> dict[str, Any]:
    """Dominance, defensives, technology and the tiers a battle ends in."""
    return {
        "dominance": t.NWS_DOMINANCE_FACTOR,
        "near_margin": t.NWS_NEAR_MARGIN,
        "outnumber_ratio": t.OUTNUMBER_RATIO,
        "disband_below": t.DISBAND_BELOW,
        "defensives": [
            _choices("defensives (land)", t.LAND_DEFENSIVES),
            _choices("defensives (naval, harbour)", t.HARBOUR_DEFENSIVES),
        ],
        "approval_defensives": _keys(t.DEFENSIVES_NEEDING_APPROVAL),
        "technology": [
            _choices("technology.armor", t.ARMOR),
            _choices("technology.weapons", t.WEAPONS),
        ],
        "mithril_bonus": t.MITHRIL_BONUS,
        "mithril_above": str(t.MITHRIL_ABOVE),
        "scant_penalty": t.SCANT_ARMOR_PENALTY,
        "extra_human_races": _keys(t.EXTRA_HUMAN_RACES),
        "extra_human_units": _keys(t.EXTRA_HUMAN_UNITS),
        "tiers": [
            {"key": str(tier), "title": row.title, "floor": row.floor,
             "consequence": row.consequence}
            for tier, row in t.TIERS.items()
        ],
        "stalemate_key": str(t.Tier.STALEMATE),
        "stalemate_title": t.STALEMATE_TITLE,
        "battle_kinds": [str(kind) for kind in t.BattleKind],
        "naval_note": NAVAL_NOTE,
    }


def rules_page() -> str:
    """The rules page in Markdown (`fairfight warscore rules`)."""
    return render_page(TEMPLATE, **rules_context())


__all__ = ["NWS_FIELDS", "TEMPLATE", "rules_context", "rules_page"]
