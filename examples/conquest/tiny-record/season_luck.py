"""How lucky a season was, exactly, from its public record alone: the battles and their chances.

Standard library only; a season archive ships this file beside `verifier.py`, which recomputes
`luck.json` with it, as `engine.js` does on its own. Nothing here reads the seed: every figure
comes from the aired battles, each with the exact battle chance the engine knew when it drew.

Three runs are measured, each as wins (or upsets) against the exact Poisson-binomial
distribution of their number:
* each faction: the battles it fought, won against the chance after fan power (a battle its own
  full pool secured is a sure win and moves nothing); the chances before fan power are summed
  beside it, so a reader sees how much the fans moved the expectation;
* the champion (once the season has ended): its own run, the same figures under its name;
* the season: how many battles ended in an upset against the exact expected number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import lcm
from typing import Any

if __package__:
    from fairfight.conquest.rules import tables
else:  # a plain file in a season archive: the files lying beside it stand in for the package
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = [
    "champion_of",
    "faction_runs",
    "ratio_text",
    "season_luck",
    "tail_text",
    "tail_value",
    "tails",
    "upset_chance",
]

_Plain = dict[str, Any]


def ratio_text(value: Fraction) -> str:
    """An exact value as "numerator/denominator", lowest terms (how every record writes one)."""
    return f"{value.numerator}/{value.denominator}"


def tail_text(value: Fraction) -> str:
    """A tail probability, exact, as "0xNUMERATOR/0xDENOMINATOR" in lowest terms.

    Hexadecimal because a long run's tail has thousands of digits on each side of the bar,
    past the length Python converts to or from decimal by default; hexadecimal has no limit
    (`int(text, 16)`, JavaScript's `BigInt("0x...")`) and is shorter.
    """
    return f"0x{value.numerator:x}/0x{value.denominator:x}"


def tail_value(text: str) -> Fraction:
    """The exact value of a tail written by `tail_text`."""
    top, _, bottom = text.partition("/")
    return Fraction(int(top, 16), int(bottom, 16))


def tails(chances: Sequence[Fraction], observed: int) -> tuple[Fraction, Fraction]:
    """P(wins >= observed) and P(wins <= observed) for independent events won with `chances`.

    The Poisson-binomial in whole numbers: every chance is put over one common denominator D,
    the run's generating polynomial is multiplied out with integer coefficients (ways out of
    D^n), and only the two final sums are divided.
    """
    scale = lcm(*(Fraction(p).denominator for p in chances)) if chances else 1
    ways = [1]
    for chance in chances:
        win = int(Fraction(chance) * scale)
        lose = scale - win
        if win == 0:
            ways = [count * lose for count in ways]
            continue
        ways = ([ways[0] * lose]
                + [ways[k] * lose + ways[k - 1] * win for k in range(1, len(ways))]
                + [ways[-1] * win])
    total = scale ** len(chances)
    observed = max(observed, 0)
    return (Fraction(sum(ways[observed:]), total),
            Fraction(sum(ways[: observed + 1]), total))


def _run(chances: Sequence[Fraction], observed: int) -> _Plain:
    """One run's figures as plain JSON: events, observed, expected and both tails, exact."""
    at_least, at_most = tails(chances, observed)
    return {
        "battles": len(chances),
        "observed": observed,
        "expected": ratio_text(sum(chances, Fraction(0))),
        "at_least": tail_text(at_least),
        "at_most": tail_text(at_most),
    }


def _attacker_chances(entry: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
    """The attacker's exact battle chance before and after fan power, as the entry records it."""
    chance = entry["battle_chance"]
    return Fraction(chance["before"]), Fraction(chance["after"])


def faction_runs(history: Iterable[Mapping[str, Any]]) -> dict[str, _Plain]:
    """Per faction that fought: its battles, wins against the chances after fan power, the
    chances before fan power summed, and the wins its own full pool secured."""
    runs: dict[str, tuple[list[Fraction], list[Fraction], int, int]] = {}
    for entry in history:
        before, after = _attacker_chances(entry)
        for role, mine_before, mine_after in (("attacker", before, after),
                                              ("defender", 1 - before, 1 - after)):
            faction = entry[role]
            chances_after, chances_before, won, secured = runs.get(faction, ([], [], 0, 0))
            chances_after.append(mine_after)
            chances_before.append(mine_before)
            wins = entry["winner"] == faction
            runs[faction] = (chances_after, chances_before, won + wins,
                             secured + (wins and bool(entry["secured"]) and mine_after == 1))
    return {
        faction: {**_run(after, won),
                  "expected_before_fan": ratio_text(sum(before, Fraction(0))),
                  "secured": secured}
        for faction, (after, before, won, secured) in sorted(runs.items())
    }


def upset_chance(attacker_after: Fraction) -> Fraction:
    """The chance that a battle ends in an upset: the winner's chance after fan power is under
    `tables.UPSET_BELOW`, so only the side below that line can cause one [§3 step 5]."""
    if attacker_after < tables.UPSET_BELOW:
        return attacker_after
    if 1 - attacker_after < tables.UPSET_BELOW:
        return 1 - attacker_after
    return Fraction(0)


def champion_of(board: Mapping[str, Any], power: Callable[[str], int]) -> str | None:
    """The title holder of an ended season: most regions, then most population power
    (`power(code)`), then the lowest code; None while the season runs."""
    if not board["ended"]:
        return None
    held: dict[str, int] = {}
    for region in board["regions"].values():
        held[region["owner"]] = held.get(region["owner"], 0) + 1
    return min(held, key=lambda code: (-held[code], -power(code), code)) if held else None


def season_luck(history: Sequence[Mapping[str, Any]], champion: str | None) -> _Plain:
    """The whole of `luck.json`: every faction's run, the champion's (null before the end) and
    the season's upsets against their exact expected number."""
    factions = faction_runs(history)
    upsets = sum(1 for entry in history if entry["upset"])
    season = _run([upset_chance(_attacker_chances(entry)[1]) for entry in history], upsets)
    return {
        "format": tables.LUCK_FORMAT,
        "battles": len(history),
        "factions": factions,
        "champion": ({"faction": champion, **factions[champion]}
                     if champion is not None and champion in factions else None),
        "season": season,
    }
