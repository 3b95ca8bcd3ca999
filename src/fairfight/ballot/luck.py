"""How lucky each player was in a ballot game: the races they entered against their exact chances.

A race's chance is the one the engine knew when it rolled the race: the year's national and
state dice are rolled first, for every race at once (and in a presidential year the
presidency is settled before the other races), so at a race's roll the only dice still to
fall are its own: the primaries' 2d6 each, one candidate die a side, the recounts [5.3-5.8].
Given the dice already down those are independent from race to race, so the number of races a
player won has an exact Poisson-binomial distribution (`core.luck`). Everything is read from
the game's events, which the record holds and `verify_record` re-runs: no new data is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import PRESIDENCY_ID, game_map, state_tag_sets
from fairfight.ballot.revealed import nominee_chances
from fairfight.ballot.tables import BOARD, DIE_SIDES
from fairfight.core.luck import Luck, luck_of_wins

__all__ = [
    "PlayerLuck",
    "RaceChance",
    "game_luck",
    "luck_text",
    "one_die_chance",
    "presidency_chance",
    "race_chances",
    "record_luck",
    "record_report",
]

_Nominees = list[tuple[int, Fraction, Any]]
"""A party's possible nominees: (player or BOARD, chance of being the nominee, the detail
the general reads: a card part for a down-ballot race, per-state sums for the presidency)."""


@dataclass(frozen=True, slots=True)
class RaceChance:
    """One race a player entered: its exact chance at the roll and whether they won it."""

    year: int
    race: str
    chance: Fraction
    won: bool

    def to_json(self) -> dict[str, object]:
        """Plain JSON, the chance as exact "numerator/denominator" text."""
        return {"year": self.year, "race": self.race, "won": self.won,
                "chance": f"{self.chance.numerator}/{self.chance.denominator}"}


@dataclass(frozen=True, slots=True)
class PlayerLuck:
    """One seat's races and where the number it won sits in their exact distribution."""

    seat: int
    name: str
    races: tuple[RaceChance, ...]
    luck: Luck

    def sentence(self) -> str:
        """"won 41 of 60 races; the chances said 38.2 on average; ..."."""
        if not self.races:
            return "entered no race"
        races = "race" if self.luck.events == 1 else "races"
        return self.luck.sentence(f"won {self.luck.observed} of {self.luck.events} {races}")

    def to_json(self) -> dict[str, object]:
        """The seat, its races, the measure and the sentence as plain JSON."""
        return {"seat": self.seat, "name": self.name, "sentence": self.sentence(),
                **self.luck.to_json(), "races": [race.to_json() for race in self.races]}


@cache
def one_die_chance(edge: int) -> Fraction:
    """D's chance when everything but one candidate die a side is down: d6 + edge against d6,
    a tie settled by a fair recount (half) [5.7]."""
    faces = range(1, DIE_SIDES + 1)
    halves = sum(2 if d + edge > r else 1 if d + edge == r else 0 for d in faces for r in faces)
    return Fraction(halves, 2 * DIE_SIDES * DIE_SIDES)


def _party_nominees(primary: Mapping[str, Any] | None, side: Mapping[str, Any]) -> _Nominees:
    """A party's possible nominees in a down-ballot race, with their card parts [5.5]."""
    if primary is None:
        return [(side["player"], Fraction(1), side["part"])]
    parts = {row["player"]: row["part"] for row in primary["entries"]}
    return [(player, chance, parts[player]) for player, chance in nominee_chances(parts).items()]


def _seat_chances(d: _Nominees, r: _Nominees,
                  d_wins: Callable[[Any, Any], Fraction]) -> dict[int, Fraction]:
    """Each player's chance of holding the seat: over every pairing of nominees, the chance
    of the pairing times that of the player's side winning the general."""
    chances: dict[int, Fraction] = {}
    for d_player, d_chance, d_detail in d:
        for r_player, r_chance, r_detail in r:
            weight = d_chance * r_chance
            if not weight:
                continue
            won = d_wins(d_detail, r_detail)
            for player, share in ((d_player, won), (r_player, 1 - won)):
                if player != BOARD:
                    chances[player] = chances.get(player, Fraction(0)) + weight * share
    return chances


def race_chances(event: Mapping[str, Any]) -> dict[int, Fraction]:
    """Every player's chance in one down-ballot race event, given the dice already down."""
    sides = event["sides"]
    base = {name: sides[name]["national"] + sides[name]["state"] + sides[name]["partisan"]
            for name in ("D", "R")}
    primaries = {row["party"]: row for row in event["primaries"]}
    d = _party_nominees(primaries.get("D"), sides["D"])
    r = _party_nominees(primaries.get("R"), sides["R"])
    return _seat_chances(
        d, r, lambda pd, pr: one_die_chance(base["D"] + pd - base["R"] - pr))


def presidency_chance(edges: Sequence[tuple[int, int]]) -> Fraction:
    """D's chance of more electoral votes than R, each state (D's edge with every die but the
    candidate dice down, its votes) won at `one_die_chance(edge)`, independently [5.8].

    Whole-number convolution over the votes, every count packed into one big integer (one
    multiplication per state, as `presidency` does it)."""
    whole = 2 * DIE_SIDES * DIE_SIDES
    total_votes = sum(votes for _, votes in edges)
    step = (whole ** len(edges)).bit_length() // 8 + 1
    width = 8 * step
    packed = 1
    for edge, votes in edges:
        won = one_die_chance(edge) * whole
        packed = packed * (whole - int(won)) + (packed << (votes * width)) * int(won)
    fields = packed.to_bytes((total_votes + 1) * step, "little")
    carried = sum(int.from_bytes(fields[votes * step:(votes + 1) * step], "little")
                  for votes in range(total_votes // 2 + 1, total_votes + 1))
    return Fraction(carried, whole ** len(edges))


def _presidential_nominees(event: Mapping[str, Any], party: str, key: str) -> _Nominees:
    """A party's possible presidential nominees, each with its per-state sum (everything but
    its candidate die): the winner's from the recorded totals, a primary loser's by putting
    its card part and fit in place of the winner's [5.5, 5.8]."""
    recorded = [state[party] - state["candidate"][party] for state in event["states"]]
    primary = next((row for row in event["primaries"] if row["party"] == party), None)
    if primary is None:
        return [(event["nominees"][party], Fraction(1), tuple(recorded))]
    cards, tags = build_cards(key), state_tag_sets()
    rows = {row["player"]: row for row in primary["entries"]}

    def own(player: int) -> list[int]:
        card = cards[rows[player]["card"]]
        return [rows[player]["part"] + len(card.tags & state) for state in tags]

    winner = own(primary["winner"])
    chances = nominee_chances({player: row["part"] for player, row in rows.items()})
    return [(player, chance, tuple(sum_ - w + o for sum_, w, o in
                                   zip(recorded, winner, own(player), strict=True)))
            for player, chance in chances.items()]


def _presidency_chances(event: Mapping[str, Any], key: str) -> dict[int, Fraction]:
    """Every player's chance in the year's presidential election, given the dice down."""
    votes = [state.electoral_votes for state in game_map().states]

    def d_wins(d_sums: tuple[int, ...], r_sums: tuple[int, ...]) -> Fraction:
        return presidency_chance(tuple(
            (d - r, v) for d, r, v in zip(d_sums, r_sums, votes, strict=True)))

    return _seat_chances(_presidential_nominees(event, "D", key),
                         _presidential_nominees(event, "R", key), d_wins)


def game_luck(names: Sequence[str], key: str, events: Sequence[Mapping[str, Any]]
              ) -> tuple[PlayerLuck, ...]:
    """Each seat's luck over the races of a game's events (a finished game or one so far)."""
    races: list[list[RaceChance]] = [[] for _ in names]
    for event in events:
        kind = event.get("event")
        if kind == "race":
            chances = race_chances(event)
        elif kind == "presidency":
            chances = _presidency_chances(event, key)
        else:
            continue
        for player, chance in sorted(chances.items()):
            races[player].append(RaceChance(event["year"], event.get("race", PRESIDENCY_ID),
                                            chance, event["holder"] == player))
    return tuple(
        PlayerLuck(seat, name, tuple(entered),
                   luck_of_wins([race.chance for race in entered],
                                [race.won for race in entered]))
        for seat, (name, entered) in enumerate(zip(names, races, strict=True)))


def record_luck(lines: Sequence[Mapping[str, Any]]) -> tuple[PlayerLuck, ...]:
    """The luck of a finished game's record lines (header, events, reveal); the record is
    taken as it is, so check it first with `verify_record`."""
    header, reveal = lines[0], lines[-1]
    return game_luck(header["players"], reveal["key"], lines[1:-1])


def luck_text(names: Sequence[str], key: str, events: Sequence[Mapping[str, Any]]) -> str:
    """The final screen's luck: one line a seat, the sentence of its races."""
    return "\n".join(["Luck in the races (the exact chances at each roll):"] + [
        f"  seat {one.seat} ({one.name}): {one.sentence()}"
        for one in game_luck(names, key, events)])


def record_report(path: Path) -> tuple[str, dict[str, object]]:
    """`fairfight ballot luck RECORD`: the record re-run and checked, then each seat's luck."""
    from fairfight.ballot.record import load_record, verify_record

    lines = load_record(path)
    verify_record(lines)
    seats = record_luck(lines)
    text = "\n".join(f"seat {one.seat} ({one.name}): {one.sentence()}" for one in seats)
    return text, {"seats": [one.to_json() for one in seats]}
