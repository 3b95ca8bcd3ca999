"""Battle-phase rules, each checked against numbers worked out from the source's tables."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest

from fairfight.core.errors import InputError
from fairfight.warscore import (
    ArmyScore,
    BattleInput,
    Factor,
    Side,
    decide,
    nws_standing,
    score_battle,
    troops_score,
)
from fairfight.warscore.tables import BattleKind, NwsStanding


def battle(demo: dict[str, Any], **changes: Any) -> Any:
    """Score the demonstration battle after applying dotted-path changes."""
    data = copy.deepcopy(demo)
    for path, value in changes.items():
        *parents, leaf = path.split("__")
        node = data
        for parent in parents:
            node = node.setdefault(parent, {})
        if value is None:
            node.pop(leaf, None)
        else:
            node[leaf] = value
    parsed = BattleInput.model_validate(data)
    return score_battle(parsed, parsed.year)


def refused(demo: dict[str, Any], **changes: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        battle(demo, **changes)
    return caught.value


@pytest.mark.parametrize(
    ("troops", "score"),
    [(43142, "43.14"), (100000, "100.00"), (1, "0.00"), (5, "0.01"), (43145, "43.15"),
     (999, "1.00"), (1994, "1.99"), (1995, "2.00")],
)
def test_troops_score_rounds_half_up_to_hundredths(troops: int, score: str) -> None:
    assert troops_score(troops) == Decimal(score)


# --- the derived NWS morale term, in the spec's order ----------------------------------------
@pytest.mark.parametrize(
    ("ours", "theirs", "standing"),
    [
        (21, 10, NwsStanding.MORE_THAN_DOUBLE),  # 21 > 20 (and also within 11: order matters)
        (20, 10, NwsStanding.WITHIN_10),  # exactly double is not more than double
        (10, 21, NwsStanding.LESS_THAN_HALF),  # 10 < 10.5
        (10, 20, NwsStanding.WITHIN_10),  # exactly half is not less than half
        (50, 40, NwsStanding.WITHIN_10),  # ten apart counts as even
        (40, 50, NwsStanding.WITHIN_10),
        (51, 40, NwsStanding.GREATER),
        (40, 51, NwsStanding.LESS),
        (79, 40, NwsStanding.GREATER),
        (81, 40, NwsStanding.MORE_THAN_DOUBLE),
        (5, 4, NwsStanding.WITHIN_10),
        (9, 4, NwsStanding.MORE_THAN_DOUBLE),  # dominance is checked before the near margin
        (1, 3, NwsStanding.LESS_THAN_HALF),
    ],
)
def test_nws_standing_thresholds(ours: int, theirs: int, standing: NwsStanding) -> None:
    assert nws_standing(ours, theirs) is standing


def test_nws_term_is_derived_when_both_scores_are_given(demo: dict[str, Any]) -> None:
    result = battle(
        demo, attacker__nws_score=30, defender__nws_score=61,
        attacker__morale__nws=None, defender__morale__nws=None,
    )
    # Mordor 30 < 61 / 2: -0.20 instead of the typed -0.05; Gondor 61 > 60: +0.20
    assert result.attacker.morale.value == Decimal("1.00") - Decimal("0.20") + Decimal(
        "0.20") + Decimal("0.10")
    assert result.defender.morale.value == Decimal("1.00") + Decimal("0.20") - Decimal(
        "0.20") + Decimal("0.20") + Decimal("0.50")


def test_typed_nws_term_refused_when_both_scores_are_given(demo: dict[str, Any]) -> None:
    error = refused(demo, attacker__nws_score=30, defender__nws_score=61)
    assert error.field == "attacker.morale.nws"


# --- numbers term from the troops ratio ------------------------------------------------------
@pytest.mark.parametrize(
    ("attacker", "defender", "attacker_term", "defender_term"),
    [
        (86284, 43142, Decimal("0.20"), Decimal("-0.20")),  # exactly twice
        (86283, 43142, Decimal("0"), Decimal("0")),  # one short of twice
        (20000, 40000, Decimal("-0.20"), Decimal("0.20")),
        (20001, 40000, Decimal("0"), Decimal("0")),
    ],
)
def test_numbers_term_from_a_troops_ratio_of_two(
    demo: dict[str, Any], attacker: int, defender: int,
    attacker_term: Decimal, defender_term: Decimal,
) -> None:
    result = battle(
        demo, attacker__troops=attacker, defender__troops=defender,
        attacker__morale__numbers=None, defender__morale__numbers=None,
    )
    # Without the numbers term: Mordor 1 - 0.05 + 0.10, Gondor 1 + 0.05 + 0.20 + 0.50
    assert result.attacker.morale.value == Decimal("1.05") + attacker_term
    assert result.defender.morale.value == Decimal("1.75") + defender_term


# --- support ---------------------------------------------------------------------------------
def test_pikes_cut_enemy_cavalry_to_a_quarter(demo: dict[str, Any]) -> None:
    plain = battle(demo, defender__support__cavalry="full")
    piked = battle(demo, defender__support__cavalry="full", attacker__pikes=True)
    # Gondor: 1 + 0.20 wizard + 0 human + 0.10 ballista + cavalry (0.20, or 0.20 x 0.25)
    assert plain.defender.support.value == Decimal("1.50")
    assert piked.defender.support.value == Decimal("1.35")
    assert piked.attacker.support == plain.attacker.support  # pikes do not cut our own cavalry
    assert "Full Cavalry vs. Pikes" in piked.defender.support.notes


def test_support_adds_every_item_to_one(demo: dict[str, Any]) -> None:
    result = battle(
        demo, attacker__support={"race": "uruk-hai", "special_units": ["balrog", "mumakil"],
                                 "ballista": "minimal", "cavalry": "minimal"},
    )
    assert result.attacker.support.value == Decimal("1.00") + Decimal("0.20") + Decimal(
        "0.35") + Decimal("0.25") + Decimal("0.05") + Decimal("0.05")


@pytest.mark.parametrize(
    ("wealth", "tier", "partial", "approved", "allowed"),
    [
        ("middle", "minimal", False, False, True),
        ("middle", "moderate", False, False, False),
        ("middle", "moderate", True, False, False),  # one tier up needs approval
        ("middle", "moderate", True, True, True),
        ("middle", "full", True, True, False),  # never two tiers up
        ("upper", "moderate", False, False, True),
        ("upper", "full", False, True, False),  # the whole army: no tier up
        ("upper", "full", True, True, True),
        ("wealthy", "full", False, False, True),
    ],
)
def test_wealth_caps_the_support_tier(
    demo: dict[str, Any], wealth: str, tier: str, partial: bool, approved: bool, allowed: bool
) -> None:
    changes: dict[str, Any] = {
        "defender__wealth": wealth, "defender__support__cavalry": tier,
        "defender__support__ballista": None, "defender__support__partial": partial,
    }
    if approved:
        changes["defender__support__approved_by"] = "Moderator"
    if allowed:
        assert battle(demo, **changes).defender.support.notes[-1].startswith(tier.title())
    else:
        assert refused(demo, **changes).field == "defender.support.cavalry"


def test_no_wealth_means_no_cap(demo: dict[str, Any]) -> None:
    assert battle(demo, defender__support__ballista="full").defender.support.value == Decimal(
        "1.55")


# --- technology ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("armor", "value"),
    [("chain-mail", "0.25"), ("partial-plate", "0.35"), ("full-plate", "0.45")],
)
def test_mithril_adds_a_twentieth_above_light(demo: dict[str, Any], armor: str, value: str) -> None:
    result = battle(demo, defender__technology={"armor": armor, "weapons": "normal",
                                                "mithril": True})
    assert result.defender.technology.value == Decimal("1.00") + Decimal(value)


@pytest.mark.parametrize("armor", ["none", "light"])
def test_mithril_refused_at_light_or_below(demo: dict[str, Any], armor: str) -> None:
    error = refused(demo, defender__technology={"armor": armor, "weapons": "normal",
                                                "mithril": True})
    assert error.field == "defender.technology.mithril"


def test_scant_armour_costs_a_twentieth_on_top(demo: dict[str, Any]) -> None:
    result = battle(demo, defender__technology__scant=True)
    assert result.defender.technology.value == Decimal("1.50") - Decimal("0.05")
    stacked = battle(demo, defender__technology__scant=True, defender__technology__mithril=True)
    assert stacked.defender.technology.value == Decimal("1.50")  # +0.05 mithril, -0.05 scant
    assert refused(
        demo, defender__technology={"armor": "none", "weapons": "normal", "scant": True}
    ).field == "defender.technology.scant"


@pytest.mark.parametrize(
    ("race", "units"), [("dwarf", []), ("uruk-hai", []), ("human", ["trolls"])]
)
def test_extra_human_plate_for_dwarves_uruks_and_trolls(
    demo: dict[str, Any], race: str, units: list[str]
) -> None:
    result = battle(demo, defender__support={"race": race, "special_units": units},
                    defender__technology__armor="extra-human-plate")
    assert result.defender.technology.value == Decimal("1.00") + Decimal("0.50") + Decimal("0.20")


# --- result tiers, stalemate and breaking ---------------------------------------------------
def test_equal_totals_are_a_stalemate(demo: dict[str, Any]) -> None:
    same = copy.deepcopy(demo["attacker"])
    same["morale"].pop("numbers")
    result = battle(demo, defender={**same, "nation": "Rhûn"}, attacker__morale__numbers=None)
    assert result.winner is Side.NONE
    assert result.tier == "stalemate"
    assert result.percent == 100
    assert "both armies hold their ground" in result.outcome()


def test_army_with_negative_morale_breaks_before_battle(demo: dict[str, Any]) -> None:
    # Mordor: 1 - 0.05 + 0.20 - 0.20 (recently defeated) - 0.90 (surrounded, out of supply)
    result = battle(demo, attacker__morale__previous="recently-defeated",
                    attacker__morale__positioning="surrounded-out-of-supply")
    assert result.attacker.morale.value == Decimal("0.05")
    assert not result.attacker.breaks()
    broken = battle(demo, attacker__morale__previous="recently-defeated",
                    attacker__morale__positioning="surrounded-out-of-supply",
                    attacker__morale__nws="less-than-half")
    assert broken.attacker.morale.value == Decimal("-0.10")
    assert broken.attacker.total() is None
    assert broken.winner is Side.DEFENDER
    assert broken.tier is None and broken.percent is None
    assert "Mordor's army breaks before the battle" in broken.outcome()


def test_zero_morale_fights_and_loses_strategically(demo: dict[str, Any]) -> None:
    # Mordor at 80,000 is no longer twice Gondor: 1 - 0.20 (half NWS) + 0.10 (fresh) - 0.90
    result = battle(demo, attacker__troops=80000, attacker__morale__numbers=None,
                    defender__morale__numbers=None,
                    attacker__morale__positioning="surrounded-out-of-supply",
                    attacker__morale__nws="less-than-half")
    assert result.attacker.morale.value == Decimal("0.00")
    assert result.attacker.total() == 0
    assert result.winner is Side.DEFENDER
    assert result.tier == "strategic"
    assert result.percent is None


def plain_army(nation: str, troops: str, defending: bool) -> ArmyScore:
    """An army whose factors are all 1.00, so its total is its troops score."""
    one = Factor(Decimal("1.00"))
    return ArmyScore(nation, 0, Decimal(troops), one, one, one if defending else None, one)


@pytest.mark.parametrize(
    ("defender_troops", "tier", "percent"),
    [
        ("100.01", "marginal", 100),
        ("124.99", "marginal", 125),  # the percent rounds up, the tier uses the exact ratio
        ("125.00", "solid", 125),
        ("149.99", "solid", 150),
        ("150.00", "operational", 150),
        ("199.99", "operational", 200),
        ("200.00", "strategic", 200),
        ("1000.00", "strategic", 1000),
    ],
)
def test_tier_floors_are_inclusive_and_use_the_exact_ratio(
    defender_troops: str, tier: str, percent: int
) -> None:
    result = decide(
        "Floors", 1, BattleKind.LAND,
        plain_army("A", "100.00", False), plain_army("B", defender_troops, True),
    )
    assert result.winner is Side.DEFENDER
    assert result.tier == tier
    assert result.percent == percent
    mirrored = decide(
        "Floors", 1, BattleKind.LAND,
        plain_army("A", defender_troops, False), plain_army("B", "100.00", True),
    )
    assert (mirrored.winner, mirrored.tier, mirrored.percent) == (Side.ATTACKER, tier, percent)


@pytest.mark.parametrize(
    ("tier", "phrase"),
    [
        ("marginal", "Marginal Victory for B: A retreats from the field."),
        ("solid", "Solid Victory for B: A is forced from the field but retreats in good order."),
        ("operational", "Operational Victory for B: A is forced from the field and retreats in "
         "disorder."),
        ("strategic", "Strategic Victory for B: A shatters."),
    ],
)
def test_outcome_sentences(tier: str, phrase: str) -> None:
    troops = {"marginal": "110.00", "solid": "130.00", "operational": "160.00",
              "strategic": "210.00"}[tier]
    result = decide("Words", 1, BattleKind.LAND, plain_army("A", "100.00", False),
                    plain_army("B", troops, True))
    assert result.outcome() == phrase


def test_largest_army_with_every_bonus_is_still_exact(demo: dict[str, Any]) -> None:
    from fractions import Fraction

    from fairfight.warscore.tables import MAX_TROOPS

    everything = {
        "nation": "Everyone",
        "troops": MAX_TROOPS - 1,
        "pikes": True,
        "approved_by": "Moderator",
        "support": {"race": "ghosts", "ballista": "full", "cavalry": "full",
                    "special_units": ["mumakil", "trolls", "nazgul", "fell-beast", "ents",
                                      "wizard", "balrog"]},
        "morale": {"previous": "recently-victorious",
                   "specials": ["warrior-code", "knightly-order", "zealotry", "great-leader",
                                "glorious-last-stand"]},
        "defensives": "strategic-fort",
        "technology": {"armor": "extra-human-plate", "mithril": True, "weapons": "exceptional"},
    }
    result = battle(demo, defender=everything, attacker__morale__numbers=None)
    army = result.defender
    assert army.defensives is not None
    exact = (
        Fraction(army.troops) * Fraction(army.support.value) * Fraction(army.morale.value)
        * Fraction(army.defensives.value) * Fraction(army.technology.value)
    )
    assert Fraction(army.product()) == exact
    assert army.troops == Decimal("1000000.00")  # 999,999.999 rounded half-up
    assert army.support.value == Decimal("1.00") + Decimal("5.00") + Decimal("0.25") + Decimal(
        "0.20") + Decimal("0.15") + Decimal("0.30") + Decimal("0.25") + Decimal("0.20") + Decimal(
        "0.35") + Decimal("0.25") + Decimal("0.20")
