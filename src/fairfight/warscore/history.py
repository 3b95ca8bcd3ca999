"""A stored war's standing, rebuilt from its published results, and the terms it fills in.

Nothing here is typed by a side: the National War Scores of a year are the published year
result, a nation's last battle is its last published battle, and an approval is the moderator's
recorded choice. `battle_terms` turns that history into the fields a sheet may not hold, so a
morale term such as "recently victorious" or the NWS comparison always comes from the record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from fairfight.warscore.tables import CAPITULATE_AT_OR_BELOW, PreviousBattles

__all__ = [
    "Approval",
    "BattleStanding",
    "NationStanding",
    "WarStanding",
    "YearStanding",
    "battle_terms",
    "standing_of",
]


@dataclass(frozen=True, slots=True)
class Approval:
    """A moderator's recorded judgement: who approved which nation's army in which round."""

    round: int
    nation: str
    by: str
    at: str
    """When, as an ISO 8601 UTC time."""
    note: str = ""


@dataclass(frozen=True, slots=True)
class NationStanding:
    """A nation of the war, its side, its wealth, and the year it capitulated if it did."""

    name: str
    side: str
    wealth: str | None
    capitulated_in: int | None = None


@dataclass(frozen=True, slots=True)
class YearStanding:
    """A year's published National War Scores (nation to total) and the result's digest."""

    year: int
    scores: dict[str, int]
    digest: str


@dataclass(frozen=True, slots=True)
class BattleStanding:
    """A published battle: who fought, who won (None: no winner), the tier and the digest."""

    round: int
    year: int
    battle: str
    kind: str
    attacker: str
    defender: str
    winner: str | None
    tier: str | None
    percent: int | None
    outcome: str
    digest: str


@dataclass(frozen=True, slots=True)
class WarStanding:
    """A stored war: its nations and sides, the years' scores and the battles, in order."""

    war_id: str
    name: str
    moderator: str
    years_planned: tuple[int, ...]
    nations: tuple[NationStanding, ...]
    years: tuple[YearStanding, ...]
    battles: tuple[BattleStanding, ...]

    def nws(self, year: int) -> dict[str, int] | None:
        """The year's published NWS totals, or None while the year has no result."""
        for entry in self.years:
            if entry.year == year:
                return entry.scores
        return None

    def previous(self, nation: str, before_round: int) -> PreviousBattles | None:
        """The nation's last published battle before this round: won or lost (None: no earlier
        battle, or a battle without a winner)."""
        fought = [b for b in self.battles
                  if b.round < before_round and nation in (b.attacker, b.defender)]
        if not fought or fought[-1].winner is None:
            return None
        won = fought[-1].winner == nation
        return PreviousBattles.RECENTLY_VICTORIOUS if won else PreviousBattles.RECENTLY_DEFEATED

    def nation(self, name: str) -> NationStanding | None:
        """A nation of the war by name."""
        return next((n for n in self.nations if n.name == name), None)


def _battle_entry(round_number: int, document: dict[str, Any], digest: str) -> BattleStanding:
    result, header = document["result"], document["battle"]
    winner = {"attacker": header["attacker"], "defender": header["defender"]}.get(
        result["winner"])
    return BattleStanding(round_number, int(header["year"]), header["battle"], header["kind"],
                          header["attacker"], header["defender"], winner, result["tier"],
                          result["percent"], result["outcome"], digest)


def standing_of(war: dict[str, Any], results: Iterable[tuple[int, str, dict[str, Any]]]
                ) -> WarStanding:
    """The standing of a war (`war`: id, name, moderator, nations, years) from its published
    results, given as (round, digest, document) in round order."""
    years: list[YearStanding] = []
    battles: list[BattleStanding] = []
    fallen: dict[str, int] = {}
    for round_number, digest, document in results:
        if document["kind"] == "year":
            scores = {entry["nation"]: int(entry["total"]) for entry in document["result"]["nws"]}
            years.append(YearStanding(int(document["year"]), scores, digest))
            for nation, total in scores.items():
                if total <= CAPITULATE_AT_OR_BELOW:
                    fallen.setdefault(nation, int(document["year"]))
        else:
            battles.append(_battle_entry(round_number, document, digest))
    nations = tuple(NationStanding(n["name"], n["side"], n.get("wealth"), fallen.get(n["name"]))
                    for n in war["nations"])
    return WarStanding(war["id"], war["name"], war["moderator"], tuple(war["years"]), nations,
                       tuple(years), tuple(battles))


def battle_terms(standing: WarStanding, round_number: int, year: int, nation: str,
                 enemy: str, approvals: Iterable[Approval]) -> dict[str, Any]:
    """The fields the war fills into one army's sheet: nation, wealth, NWS (when the year's
    scores are published), the previous battle, and the moderator's approval."""
    entry = standing.nation(nation)
    filled: dict[str, Any] = {"nation": nation}
    if entry is not None and entry.wealth is not None:
        filled["wealth"] = entry.wealth
    scores = standing.nws(year)
    if scores is not None and nation in scores and enemy in scores:
        filled["nws_score"] = scores[nation]  # both sides get theirs: the term is derived
    previous = standing.previous(nation, round_number)
    if previous is not None:
        filled["morale"] = {"previous": str(previous)}
    chosen = [a for a in approvals if a.round == round_number and a.nation == nation]
    if chosen:
        filled["approved_by"] = chosen[-1].by
    return filled
