"""The battle phase: five exact factors per army, their product, and the result tier.

Every factor is a `Decimal` built from the values in `tables.py`; nothing is rounded except the
troops score (half-up to hundredths, as the source demands). Totals are kept exact and only
rounded for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from fairfight.warscore.model import ArmyInput, BattleBody, check_battle, derived_numbers
from fairfight.warscore.tables import (
    ARMOR,
    BALLISTA,
    CAVALRY,
    CENT,
    DISBAND_BELOW,
    HARBOUR_DEFENSIVES,
    LAND_DEFENSIVES,
    MITHRIL_BONUS,
    MORALE_BASE,
    MORALE_SPECIALS,
    NO_DEFENSIVES,
    NUMBERS,
    NWS_DOMINANCE_FACTOR,
    NWS_NEAR_MARGIN,
    NWS_STANDING,
    PIKES_CAVALRY_MULTIPLIER,
    POSITIONING,
    PREVIOUS_BATTLES,
    RACES,
    SCANT_ARMOR_PENALTY,
    SHIPS,
    SPECIAL_UNITS,
    STALEMATE_TITLE,
    SUPPORT_BASE,
    TECHNOLOGY_BASE,
    TIERS,
    TROOPS_PER_POINT,
    WEAPONS,
    BattleKind,
    NwsStanding,
    Tier,
)


class Side(StrEnum):
    """Which army of a battle; `NONE` is the winner of a stalemate."""

    ATTACKER = "attacker"
    """The army that attacks (never has defensives)."""
    DEFENDER = "defender"
    """The army that defends."""
    NONE = "none"
    """Neither army."""


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of an army's score and the labels of the items that made it up."""

    value: Decimal
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ArmyScore:
    """An army's five factors; `defensives` is None for the attacker (shown as N/A)."""

    nation: str
    troops_count: int
    troops: Decimal
    support: Factor
    morale: Factor
    defensives: Factor | None
    technology: Factor

    def product(self) -> Decimal:
        """Troops x Support x Morale x Defensives x Technology, exact."""
        works = NO_DEFENSIVES if self.defensives is None else self.defensives.value
        return self.troops * self.support.value * self.morale.value * works * self.technology.value

    def breaks(self) -> bool:
        """Morale below zero: the army disbands or surrenders before the battle."""
        return self.morale.value < DISBAND_BELOW

    def total(self) -> Decimal | None:
        """The battle score, or None when the army breaks before the battle."""
        return None if self.breaks() else self.product()


@dataclass(frozen=True, slots=True)
class BattleResult:
    """A scored battle: both armies, the winner, the tier and the whole percent."""

    battle: str
    year: int
    kind: BattleKind
    attacker: ArmyScore
    defender: ArmyScore
    winner: Side
    tier: Tier | None
    percent: int | None

    def army(self, side: Side) -> ArmyScore:
        """The attacker's or the defender's score."""
        return self.attacker if side is Side.ATTACKER else self.defender

    def title(self) -> str:
        """The result's name: `Operational Victory`, `Stalemate`, or empty when no fight."""
        if self.tier is None:
            return ""
        return STALEMATE_TITLE if self.tier is Tier.STALEMATE else TIERS[self.tier].title

    def outcome(self) -> str:
        """One sentence saying what happens to the two armies."""
        broken = [side for side in (Side.ATTACKER, Side.DEFENDER) if self.army(side).breaks()]
        if len(broken) == 2:
            return "Both armies break before the battle and disband or surrender; no one fights."
        if broken:
            loser, holder = self.army(broken[0]), self.army(self.winner)
            return (
                f"{loser.nation}'s army breaks before the battle (morale "
                f"{shown(loser.morale.value)}) and disbands or surrenders; "
                f"{holder.nation} holds the field."
            )
        if self.tier is None or self.tier is Tier.STALEMATE:
            return f"{STALEMATE_TITLE}: both armies hold their ground."
        loser = self.army(Side.DEFENDER if self.winner is Side.ATTACKER else Side.ATTACKER)
        winner = self.army(self.winner)
        return (
            f"{self.title()} for {winner.nation}: {loser.nation} "
            f"{TIERS[self.tier].consequence}."
        )


def shown(value: Decimal) -> str:
    """A factor or total as displayed: rounded half-up to hundredths."""
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def troops_score(troops: int) -> Decimal:
    """Troops / 1000, rounded half-up to hundredths (43,142 -> 43.14)."""
    return (Decimal(troops) / TROOPS_PER_POINT).quantize(CENT, rounding=ROUND_HALF_UP)


def nws_standing(ours: int, theirs: int) -> NwsStanding:
    """The NWS morale term from both scores, tested in the spec's order."""
    if ours > NWS_DOMINANCE_FACTOR * theirs:
        return NwsStanding.MORE_THAN_DOUBLE
    if NWS_DOMINANCE_FACTOR * ours < theirs:
        return NwsStanding.LESS_THAN_HALF
    if abs(ours - theirs) <= NWS_NEAR_MARGIN:
        return NwsStanding.WITHIN_10
    if ours > theirs:
        return NwsStanding.GREATER
    return NwsStanding.LESS


def support_factor(army: ArmyInput, enemy: ArmyInput, kind: BattleKind) -> Factor:
    """1.00 + special units + race + ballista + cavalry (cut by pikes) + ship class."""
    support = army.support
    value, notes = SUPPORT_BASE, []
    for unit in support.special_units:
        value += SPECIAL_UNITS[unit].value
        notes.append(SPECIAL_UNITS[unit].label)
    value += RACES[support.race].value
    notes.append(RACES[support.race].label)
    if support.ballista is not None:
        value += BALLISTA[support.ballista].value
        notes.append(BALLISTA[support.ballista].label)
    if support.cavalry is not None:
        row = CAVALRY[support.cavalry]
        if enemy.pikes:
            value += row.value * PIKES_CAVALRY_MULTIPLIER
            notes.append(f"{row.label} vs. Pikes")
        else:
            value += row.value
            notes.append(row.label)
    if kind is BattleKind.NAVAL and support.ships is not None:
        value += SHIPS[support.ships].value
        notes.append(SHIPS[support.ships].label)
    return Factor(value, tuple(notes))


def morale_factor(army: ArmyInput, enemy: ArmyInput) -> Factor:
    """1.00 + NWS standing + numbers + previous battles + positioning + specials."""
    morale = army.morale
    standing = morale.nws
    if army.nws_score is not None and enemy.nws_score is not None:
        standing = nws_standing(army.nws_score, enemy.nws_score)
    value, notes = MORALE_BASE, []
    if standing is not None:
        value += NWS_STANDING[standing].value
        notes.append(NWS_STANDING[standing].label)
    numbers = derived_numbers(army.troops, enemy.troops)
    if numbers is not None:
        value += NUMBERS[numbers].value
        notes.append(NUMBERS[numbers].label)
    for row in (
        None if morale.previous is None else PREVIOUS_BATTLES[morale.previous],
        None if morale.positioning is None else POSITIONING[morale.positioning],
        *(MORALE_SPECIALS[special] for special in morale.specials),
    ):
        if row is not None:
            value += row.value
            notes.append(row.label)
    return Factor(value, tuple(notes))


def defensives_factor(army: ArmyInput) -> Factor:
    """The defender's works (1.00 when it has none)."""
    if army.defensives is None:
        return Factor(NO_DEFENSIVES, ("None",))
    row = {**LAND_DEFENSIVES, **HARBOUR_DEFENSIVES}[army.defensives]
    return Factor(row.value, (row.label,))


def technology_factor(army: ArmyInput) -> Factor:
    """1.00 + armour (+ mithril) (+ scant penalty) + weapons."""
    tech = army.technology
    armor = ARMOR[tech.armor]
    value = TECHNOLOGY_BASE + armor.value
    notes = [armor.label]
    if tech.mithril:
        value += MITHRIL_BONUS
        notes[0] = f"Mithril {armor.label}"
    if tech.scant:
        value += SCANT_ARMOR_PENALTY
        notes.append("Scant Armor")
    value += WEAPONS[tech.weapons].value
    notes.append(WEAPONS[tech.weapons].label)
    return Factor(value, tuple(notes))


def army_score(army: ArmyInput, enemy: ArmyInput, side: Side, kind: BattleKind) -> ArmyScore:
    """All five factors of one army, facing `enemy`."""
    return ArmyScore(
        nation=army.nation,
        troops_count=army.troops,
        troops=troops_score(army.troops),
        support=support_factor(army, enemy, kind),
        morale=morale_factor(army, enemy),
        defensives=None if side is Side.ATTACKER else defensives_factor(army),
        technology=technology_factor(army),
    )


def _percent(larger: Decimal, smaller: Decimal) -> int:
    """larger / smaller x 100, rounded half-up to a whole number, computed exactly."""
    ratio = Fraction(larger) * 100 / Fraction(smaller)
    whole, rest = divmod(ratio, 1)
    return int(whole) + (1 if rest >= Fraction(1, 2) else 0)


def _tier(larger: Decimal, smaller: Decimal) -> Tier:
    """The highest victory tier whose floor the exact ratio reaches."""
    reached = Tier.MARGINAL
    for tier, row in TIERS.items():
        if Fraction(larger) >= Fraction(row.floor) * Fraction(smaller):
            reached = tier
    return reached


def decide(
    battle: str, year: int, kind: BattleKind, attacker: ArmyScore, defender: ArmyScore
) -> BattleResult:
    """Compare two scored armies: winner, tier and percent [warscore result tiers]."""
    ours, theirs = attacker.total(), defender.total()
    if ours is None or theirs is None:
        winner = Side.NONE
        if ours is None and theirs is not None:
            winner = Side.DEFENDER
        elif theirs is None and ours is not None:
            winner = Side.ATTACKER
        return BattleResult(battle, year, kind, attacker, defender, winner, None, None)
    if ours == theirs:
        return BattleResult(battle, year, kind, attacker, defender, Side.NONE, Tier.STALEMATE, 100)
    winner = Side.ATTACKER if ours > theirs else Side.DEFENDER
    larger, smaller = max(ours, theirs), min(ours, theirs)
    percent = None if smaller == 0 else _percent(larger, smaller)
    return BattleResult(
        battle, year, kind, attacker, defender, winner, _tier(larger, smaller), percent
    )


def score_battle(battle: BattleBody, year: int) -> BattleResult:
    """Check and score one battle (the single entry point for battle files and wars)."""
    check_battle(battle)
    attacker = army_score(battle.attacker, battle.defender, Side.ATTACKER, battle.kind)
    defender = army_score(battle.defender, battle.attacker, Side.DEFENDER, battle.kind)
    return decide(battle.battle, year, battle.kind, attacker, defender)


__all__ = [
    "ArmyScore",
    "BattleResult",
    "Factor",
    "Side",
    "army_score",
    "decide",
    "defensives_factor",
    "morale_factor",
    "nws_standing",
    "score_battle",
    "shown",
    "support_factor",
    "technology_factor",
    "troops_score",
]
