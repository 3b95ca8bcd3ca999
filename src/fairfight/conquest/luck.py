"""The season's luck in words: the sentences a faction card, the season home and the command
line show, read from the figures `record.season_luck` computes (as `luck.json` holds them).

Kept apart from `season_luck`, which ships in the archive and must run on a bare Python: the
words need `plainwords` and `core.luck`, which an archive does not carry. Every number here is
formatted, never computed, apart from reading the exact figures back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fairfight.conquest.record import season_luck
from fairfight.conquest.rules import engine
from fairfight.conquest.rules.episodes import fighter
from fairfight.core.luck import Luck, tenths
from fairfight.plainwords import times_in

__all__ = [
    "LuckLines",
    "fan_sentence",
    "luck_lines",
    "luck_of_record",
    "rarest",
    "run_luck",
    "run_sentence",
    "season_sentence",
]


def luck_of_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The luck of a season archive's record (as `verifier.load_record` reads it), computed
    from its battles, with the champion of its final map, as the verifiers compute it."""
    world, board = engine.compile_world(record["map"]), record["final_map"]
    champion = season_luck.champion_of(board, lambda code: engine.population_power(
        engine.people(world, board, code, board["next_battle"])))
    return season_luck.season_luck(list(record["history"]), champion)


def run_luck(run: Mapping[str, Any]) -> Luck:
    """One run of `luck.json` as the exact measure of `core.luck` (wins: more is luckier)."""
    return Luck(
        events=int(run["battles"]),
        observed=int(run["observed"]),
        expected=Fraction(run["expected"]),
        at_least=season_luck.tail_value(run["at_least"]),
        at_most=season_luck.tail_value(run["at_most"]),
        higher_is_luckier=True,
        distribution=(),
    )


def run_sentence(run: Mapping[str, Any]) -> str:
    """"won 9 of 12; the chances said 6.4 on average; a run at least this lucky happens about
    1 time in 21"."""
    if not run["battles"]:
        return "no battle fought yet"
    return run_luck(run).sentence(f"won {run['observed']} of {run['battles']}")


def fan_sentence(run: Mapping[str, Any]) -> str:
    """What fan power did to a faction's chances, apart from the dice."""
    before, after = Fraction(run["expected_before_fan"]), Fraction(run["expected"])
    secured = int(run["secured"])
    if before == after and not secured:
        return "fan power did not change its chances"
    text = f"without fan power the chances said {tenths(before)} on average"
    if secured:
        text += f"; its own full pool secured {secured} win{'s' if secured != 1 else ''}"
    return text


def season_sentence(season: Mapping[str, Any]) -> str:
    """"3 upsets in 136 battles; the chances said 2.9 on average; a season with at least this
    many upsets happens about 1 time in 4"."""
    luck = run_luck(season)
    count = luck.observed
    said = f"{count} upset{'s' if count != 1 else ''} in {luck.events} battles"
    if luck.observed >= luck.expected:
        tail = f"at least this many upsets happens {times_in(luck.at_least)}"
    else:
        tail = f"at most this many upsets happens {times_in(luck.at_most)}"
    return f"{said}; the chances said {tenths(luck.expected)} on average; a season with {tail}"


@dataclass(frozen=True, slots=True)
class LuckLines:
    """One faction's (or the champion's) luck in words."""

    faction: str
    title: str
    sentence: str
    fan: str


def _lines(run: Mapping[str, Any], code: str, title: str) -> LuckLines:
    return LuckLines(faction=code, title=title, sentence=run_sentence(run),
                     fan=fan_sentence(run))


def luck_lines(luck: Mapping[str, Any], names: Mapping[str, str] | None = None
               ) -> tuple[str, LuckLines | None, list[LuckLines]]:
    """The season's sentence, the champion's run (None before the end) and every faction's,
    by code."""
    champion = luck["champion"]
    champion_lines = None if champion is None else _lines(
        champion, champion["faction"],
        f"{fighter(champion['faction'], names)}, the champion")
    factions = [_lines(run, code, fighter(code, names))
                for code, run in luck["factions"].items()]
    return season_sentence(luck["season"]), champion_lines, factions


def rarest(luck: Mapping[str, Any], count: int) -> list[str]:
    """The `count` factions whose runs were the least likely, lucky or not: smallest tail on
    the run's own side first, then by code (factions with no battle are left out)."""
    def rarity(code: str) -> tuple[Fraction, str]:
        run = run_luck(luck["factions"][code])
        return (run.as_lucky_or_luckier if run.lucky else run.as_unlucky_or_unluckier), code

    return sorted((code for code, run in luck["factions"].items() if run["battles"]),
                  key=rarity)[:count]
