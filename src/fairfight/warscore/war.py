"""The National War Score phase and a war across years.

Each year opens with every fighting nation's NWS. A negative NWS must sue for peace or face a
revolt; an NWS at or below zero capitulates at once, so that year's battles involving the nation
and everything after are not scored. The war is over when fewer than two nations fight on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from fairfight.core.errors import InputError
from fairfight.warscore.model import BattleBody, NwsInput, WarInput, check_battle
from fairfight.warscore.score import BattleResult, score_battle
from fairfight.warscore.tables import (
    CAPITULATE_AT_OR_BELOW,
    EAGERNESS,
    FRONTS,
    FURTHER_FRONT,
    GOVERNMENT,
    INDUSTRY,
    NATIONAL_TECHNOLOGY,
    NWS_CATEGORIES,
    POPULATION,
    READINESS,
    SUE_FOR_PEACE_BELOW,
    WEARINESS,
    Row,
)


def fronts_score(fronts: int) -> int:
    """1 front +10, 2 fronts 0, 3 fronts -5, and 5 fewer for each front after that."""
    if fronts in FRONTS:
        return FRONTS[fronts]
    last = max(FRONTS)
    if fronts < min(FRONTS):
        raise InputError("fronts", f"must be at least {min(FRONTS)}")
    return FRONTS[last] + FURTHER_FRONT * (fronts - last)


@dataclass(frozen=True, slots=True)
class NwsScore:
    """One nation's National War Score for one year, category by category."""

    nation: str
    year: int
    parts: tuple[tuple[str, Row[int]], ...]
    fronts: int

    def fronts_points(self) -> int:
        """Points for the number of fronts."""
        return fronts_score(self.fronts)

    def total(self) -> int:
        """The sum of the eight categories."""
        return sum(row.value for _, row in self.parts) + self.fronts_points()

    def sues_for_peace(self) -> bool:
        """Negative: the nation must sue for peace or face a popular revolt."""
        return self.total() < SUE_FOR_PEACE_BELOW

    def capitulates(self) -> bool:
        """At or below zero: the nation capitulates."""
        return self.total() <= CAPITULATE_AT_OR_BELOW


def score_nws(nation: str, year: int, nws: NwsInput) -> NwsScore:
    """Look up each category of one nation's NWS for one year."""
    rows: tuple[Row[int], ...] = (
        POPULATION[nws.population],
        INDUSTRY[nws.industry],
        NATIONAL_TECHNOLOGY[nws.technology],
        GOVERNMENT[nws.government],
        EAGERNESS[nws.eagerness],
        WEARINESS[nws.weariness],
        READINESS[nws.readiness],
    )
    return NwsScore(nation, year, tuple(zip(NWS_CATEGORIES, rows, strict=False)), nws.fronts)


@dataclass(frozen=True, slots=True)
class UnscoredBattle:
    """A battle listed in the war file that is not fought because a side has capitulated."""

    battle: str
    year: int
    reason: str


@dataclass(frozen=True, slots=True)
class YearReport:
    """One year of the war: the NWS of each nation still fighting, and the battles."""

    year: int
    nws: tuple[NwsScore, ...]
    battles: tuple[BattleResult | UnscoredBattle, ...]
    capitulated: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WarReport:
    """The whole war, year by year."""

    war: str
    years: tuple[YearReport, ...]
    capitulations: tuple[tuple[str, int], ...]
    nations: int

    def ended_in(self) -> int | None:
        """The year the war ended, or None while two or more nations fight on."""
        if self.nations - len(self.capitulations) >= 2:
            return None
        return self.capitulations[-1][1]


def _check_war(war: WarInput) -> None:
    """Names, years and per-battle rules that a war file must respect."""
    names = [nation.name for nation in war.nations]
    for index, name in enumerate(names):
        if name in names[:index]:
            raise InputError(f"nations[{index}].name", f"'{name}' is listed twice")
    for index, year in enumerate(war.years):
        where = f"years[{index}]"
        if index and year.year <= war.years[index - 1].year:
            raise InputError(f"{where}.year", "years must be listed in increasing order")
        for nation in year.nws:
            if nation not in names:
                raise InputError(f"{where}.nws.{nation}", "is not one of the war's nations")
        for number, battle in enumerate(year.battles):
            place = f"{where}.battles[{number}]"
            for side in ("attacker", "defender"):
                army = getattr(battle, side)
                if army.nation not in names:
                    raise InputError(f"{place}.{side}.nation", "is not one of the war's nations")
                for field in ("wealth", "nws_score"):
                    if getattr(army, field) is not None:
                        raise InputError(
                            f"{place}.{side}.{field}", "comes from the war file's nations and NWS"
                        )
                if army.morale.nws is not None:
                    raise InputError(
                        f"{place}.{side}.morale.nws", "is derived from the year's NWS; leave it out"
                    )
            check_battle(_with_war_data(battle, war, {}), place)


def _with_war_data(battle: BattleBody, war: WarInput, totals: Mapping[str, int]) -> BattleBody:
    """The battle with each army's wealth and NWS total filled in from the war file."""
    wealth = {nation.name: nation.wealth for nation in war.nations}
    armies = {}
    for side in ("attacker", "defender"):
        army = getattr(battle, side)
        armies[side] = army.model_copy(
            update={"wealth": wealth[army.nation], "nws_score": totals.get(army.nation)}
        )
    return battle.model_copy(update=armies)


def score_war(war: WarInput) -> WarReport:
    """Score every year of the war in order, stopping battles once a side capitulates."""
    _check_war(war)
    fighting = [nation.name for nation in war.nations]
    capitulations: list[tuple[str, int]] = []
    years = []
    for index, year in enumerate(war.years):
        scores: list[NwsScore] = []
        if len(fighting) >= 2:
            for nation in fighting:
                if nation not in year.nws:
                    raise InputError(
                        f"years[{index}].nws", f"{nation} is still at war and needs its NWS"
                    )
                scores.append(score_nws(nation, year.year, year.nws[nation]))
        fallen = tuple(score.nation for score in scores if score.capitulates())
        for nation in fallen:
            fighting.remove(nation)
            capitulations.append((nation, year.year))
        totals = {score.nation: score.total() for score in scores}
        battles: list[BattleResult | UnscoredBattle] = []
        for battle in year.battles:
            out = [
                army.nation
                for army in (battle.attacker, battle.defender)
                if army.nation not in fighting
            ]
            if out:
                when = dict(capitulations).get(out[0])
                reason = f"{out[0]} capitulated in {when}" if when is not None else "war over"
                battles.append(UnscoredBattle(battle.battle, year.year, reason))
            else:
                battles.append(score_battle(_with_war_data(battle, war, totals), year.year))
        years.append(YearReport(year.year, tuple(scores), tuple(battles), fallen))
    return WarReport(war.war, tuple(years), tuple(capitulations), len(war.nations))


def select_year(report: WarReport, year: int) -> WarReport:
    """The report cut down to one year (`--year`), which must be in the war file."""
    chosen = tuple(entry for entry in report.years if entry.year == year)
    if not chosen:
        listed = ", ".join(str(entry.year) for entry in report.years)
        raise InputError("--year", f"the war has no year {year} (years: {listed})")
    so_far = tuple(entry for entry in report.capitulations if entry[1] <= year)
    return WarReport(report.war, chosen, so_far, report.nations)


__all__ = [
    "NWS_CATEGORIES",
    "NwsScore",
    "UnscoredBattle",
    "WarReport",
    "YearReport",
    "fronts_score",
    "score_nws",
    "score_war",
    "select_year",
]
