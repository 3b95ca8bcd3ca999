"""The stakes of the next battle: each fighter's title chance if it wins and if it loses.

Only public facts go in: the board as it stands before the next battle, its pools, and a
forecast seed. The next regular battle's fighters are drawn from the season's secret seed, so
they are not known before it airs; what is public is the chance of each pairing (a uniform
attacker among the eligible factions, then a uniform defender among its neighbours [§3]), so
the stakes are worked out for the pairings with the most title chance likely at stake. A
waiting rebellion has known fighters (the lowest waiting code [§7]) and is the only pairing.

Each outcome is applied to the board by the engine itself: `engine_step` runs the engine's
own battle, conquest and morale functions on eight draws chosen so that the engine picks this
pairing and this border and hands this side its three rounds. Both outcomes are then
forecast with the same forecast seed, so simulated season s plays the same random numbers
after either result (common random numbers) and the difference is the battle, not noise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from fairfight.conquest.forecast.title_odds import Forecast, forecast
from fairfight.conquest.rules import engine, tables
from fairfight.core.draws import below
from fairfight.core.executor import Executor

__all__ = [
    "ATTACKER_WINS_DRAW",
    "DEFENDER_WINS_DRAW",
    "Outcome",
    "Pairing",
    "STAKES_PAIRINGS",
    "Stakes",
    "engine_step",
    "forced_draws",
    "fought_pairing_chance",
    "importance_noise_points",
    "importance_points",
    "likely_pairings",
    "next_pairings",
    "outcome_states",
    "pairing_chance",
    "stakes_of",
]

STAKES_PAIRINGS = 2
"""Pairings of a regular battle whose stakes are worked out (two forecasts each): the most
likely ones, within the budget of one aired battle."""
ATTACKER_WINS_DRAW = 0
"""A round draw the attacker always wins: its high half, 0, is below every clamped chance."""
DEFENDER_WINS_DRAW = (1 << 64) - 1
"""A round draw the defender always wins: its high half is above every clamped chance."""
_ROLES = ("attacker", "defender")


@dataclass(frozen=True, slots=True)
class Pairing:
    """Who may fight the next battle, and how likely that pairing is (exact)."""

    attacker: str
    defender: str
    chance: Fraction
    rebellion: bool
    pairings: int
    """How many pairings the next battle could be (1 for a rebellion)."""


def pairing_chance(attackers: int, defenders: int) -> Fraction:
    """The exact chance of one regular pairing [§3]: a uniform attacker among `attackers`
    eligible factions, then a uniform defender among that attacker's `defenders` neighbours."""
    return Fraction(1, attackers * defenders)


def fought_pairing_chance(entry: Mapping[str, Any]) -> Fraction:
    """How likely a fought battle's pairing was before it aired, from its history entry: 1 for
    a rebellion (its fighters were known), else `pairing_chance` of the entry's candidates."""
    candidates = entry.get("candidates")
    if not candidates:
        return Fraction(1)
    return pairing_chance(int(candidates["attackers"]), int(candidates["defenders"]))


def next_pairings(state: engine.Plain, ledger: list[engine.Plain]) -> list[Pairing]:
    """Every pairing the next battle may be, with its exact chance from the public board."""
    board = engine.pending_board(state, ledger)
    if board["ended"]:
        return []
    waiting = engine.waiting_rebellions(board)
    if waiting:
        rebel = waiting[0]
        return [Pairing(rebel, engine.owner(board, rebel), Fraction(1), True, 1)]
    world = state["world"]
    attackers = engine.eligible_attackers(world, board)
    found = []
    for attacker in attackers:
        defenders = engine.defenders_of(world, board, attacker)
        for defender in defenders:
            found.append((attacker, defender, pairing_chance(len(attackers), len(defenders))))
    return [Pairing(a, d, chance, False, len(found)) for a, d, chance in found]


def likely_pairings(pairings: Sequence[Pairing], title_chance: Mapping[str, float],
                    count: int = STAKES_PAIRINGS) -> list[Pairing]:
    """The `count` pairings with the most title chance likely at stake: the pairing's chance
    times its two fighters' title chance now (an island's battle against a minnow is likely
    but settles nothing); ties by the pairing's chance, then code order. Reads only public
    figures: the board and the latest kept forecast."""
    def exposed(p: Pairing) -> float:
        return float(p.chance) * (title_chance.get(p.attacker, 0.0)
                                  + title_chance.get(p.defender, 0.0))

    ranked = sorted(pairings, key=lambda p: (-exposed(p), -p.chance, p.attacker, p.defender))
    return ranked[:count]


def forced_draws(state: engine.Plain, board: engine.Plain, pairing: Pairing,
                 border_index: int, winner: str) -> list[int]:
    """Eight draws under which the engine fights `pairing` across its `border_index`-th
    shared border and `winner` ("attacker" or "defender") takes three rounds or more.

    A pick of index i from L items is `below(L, x)`, so x = ceil(i * 2**64 / L) picks i; the
    draws are checked against `below` before they are used.
    """
    world = state["world"]
    draws = [0] * tables.DRAWS_PER_BATTLE
    if not pairing.rebellion:
        attackers = engine.eligible_attackers(world, board)
        defenders = engine.defenders_of(world, board, pairing.attacker)
        borders = engine.shared_borders(world, board, pairing.attacker, pairing.defender)
        for role, items, index in (("attacker", attackers, attackers.index(pairing.attacker)),
                                   ("defender", defenders, defenders.index(pairing.defender)),
                                   ("border", borders, border_index)):
            draw = -(-(index << 64) // len(items))
            if below(len(items), draw) != index:
                raise ValueError(f"{role}: no draw picks item {index} of {len(items)}")
            draws[tables.DRAW_ROLES.index(role)] = draw
    rounds = ATTACKER_WINS_DRAW if winner == "attacker" else DEFENDER_WINS_DRAW
    first = tables.DRAW_ROLES.index(f"round {tables.CATEGORIES[0]}")
    for i in range(len(tables.CATEGORIES)):
        draws[first + i] = rounds
    return draws


def engine_step(state: engine.Plain, ledger: list[engine.Plain],
                draws: list[int]) -> tuple[engine.Plain, engine.Plain]:
    """`engine.play_step` with the battle's eight draws given instead of read from the key:
    the same engine functions in the same order (a test holds it to `play_step` on real
    draws), so the board after an outcome is the engine's, never a second copy of a rule."""
    world = state["world"]
    board = cast(tables.Board, engine.pending_board(state, ledger))
    if board["ended"]:
        raise ValueError("the season is over; no battle is left to fight")
    battle = board["next_battle"]
    waiting = engine.waiting_rebellions(board)
    if waiting:
        fought = engine._rebellion(world, board, battle, draws, waiting[0])
    else:
        fought = engine._regular_battle(world, board, battle, draws)
    entry = cast(engine.Plain, fought)
    engine._update_morale(board, entry["winner"], entry["upset"])
    entry["morale_after"] = {role: board["factions"][entry[role]]["morale"] for role in _ROLES}
    board["next_battle"] = battle + 1
    board["ended"] = engine.season_over(world, board, state["max_battles"])
    entry["season_over"] = board["ended"]
    return {**state, "board": board}, entry


def _border_groups(state: engine.Plain, board: engine.Plain,
                   pairing: Pairing) -> list[tuple[int, Fraction]]:
    """(index of the first shared border of each kind, that kind's share of the borders)."""
    if pairing.rebellion:
        return [(0, Fraction(1))]
    borders = engine.shared_borders(state["world"], board, pairing.attacker, pairing.defender)
    groups = []
    for kind in tables.BORDER_KINDS:
        indices = [i for i, b in enumerate(borders) if b[2] == kind]
        if indices:
            groups.append((indices[0], Fraction(len(indices), len(borders))))
    return groups


@dataclass(frozen=True, slots=True)
class Outcome:
    """One result of the battle: who wins, its exact chance given the pairing, and the title
    chances after it (a mix over border kinds when the kind changes the board, e.g. an upset)."""

    winner: str
    loser: str
    chance: Fraction
    forecasts: tuple[tuple[Fraction, Forecast], ...]
    """(weight given this outcome, forecast from the board it leaves); weights sum to 1."""

    @property
    def possible(self) -> bool:
        """Whether the battle can end so (an impossible outcome has no forecast)."""
        return bool(self.forecasts)

    def title_chance(self, faction: str) -> float:
        """The faction's title chance after this outcome (0 where a forecast lists it not)."""
        return sum(float(weight) * _title_chance(made, faction) for weight, made in self.forecasts)

    @classmethod
    def from_json(cls, plain: Mapping[str, Any]) -> Outcome:
        """An outcome back from the `outcome` part of `Stakes.to_json`."""
        return cls(winner=str(plain["winner"]), loser=str(plain["loser"]),
                   chance=Fraction(plain["chance"]),
                   forecasts=tuple((Fraction(part["weight"]), Forecast.from_json(part["forecast"]))
                                   for part in plain["forecasts"]))

    def distribution(self) -> dict[str, float]:
        """Every faction's title chance after this outcome."""
        codes = [odds.faction for odds in self.forecasts[0][1].factions] if self.forecasts else []
        return {code: self.title_chance(code) for code in codes}


def _title_chance(made: Forecast, faction: str) -> float:
    line = next((odds for odds in made.factions if odds.faction == faction), None)
    return 0.0 if line is None else line.title_chance


def outcome_states(state: engine.Plain, ledger: list[engine.Plain], pairing: Pairing,
                   winner: str) -> list[tuple[Fraction, Fraction, engine.Plain]]:
    """For one winner ("attacker" or "defender"): per distinct board it can leave, (the chance
    of the pairing's battle ending so, over its border kinds; the board's weight; the state)."""
    board = engine.pending_board(state, ledger)
    boards: dict[bytes, list[Any]] = {}
    total = Fraction(0)
    for index, share in _border_groups(state, board, pairing):
        after, entry = engine_step(state, ledger, forced_draws(state, board, pairing, index,
                                                               winner))
        chance = Fraction(entry["battle_chance"]["after"])
        won = chance if winner == "attacker" else 1 - chance
        if entry["winner"] != entry[winner]:
            won = Fraction(0)  # the other side's full pool secured the battle
        if won == 0:
            continue
        total += share * won
        found = boards.setdefault(engine.canonical_bytes(after["board"]), [Fraction(0), after])
        found[0] += share * won
    return [(total, weight / total, after) for weight, after in boards.values()]


def importance_points(first: Mapping[str, float], second: Mapping[str, float]) -> float:
    """Half the L1 distance between two title distributions, in points: the share of the
    title that changes hands between the two outcomes (0 = the battle settles nothing about
    the title, 100 = it hands the whole title from one set of factions to another)."""
    codes = set(first) | set(second)
    return 50 * sum(abs(first.get(c, 0.0) - second.get(c, 0.0)) for c in codes)


def importance_noise_points(first: Mapping[str, float], second: Mapping[str, float],
                            seasons: int) -> float:
    """What `importance_points` would show from sampling alone if the two forecasts were
    independent runs of `seasons` seasons (the expected |difference| of two binomial
    estimates, sqrt(2/pi) times their spread, summed): common random numbers make the real
    noise smaller, so this bounds how much of a small importance may be chance."""
    codes = set(first) | set(second)
    return 50 * math.sqrt(2 / math.pi) * sum(
        math.sqrt((first.get(c, 0.0) * (1 - first.get(c, 0.0))
                   + second.get(c, 0.0) * (1 - second.get(c, 0.0))) / seasons) for c in codes)


@dataclass(frozen=True, slots=True)
class Stakes:
    """One pairing's stakes: both outcomes and how far the title moves between them."""

    pairing: Pairing
    attacker_wins: Outcome
    defender_wins: Outcome
    seasons: int
    forecast_seed: str

    @property
    def importance(self) -> float:
        """`importance_points` of the two outcomes (0 when one of them cannot happen)."""
        if not (self.attacker_wins.forecasts and self.defender_wins.forecasts):
            return 0.0
        return importance_points(self.attacker_wins.distribution(),
                                 self.defender_wins.distribution())

    @property
    def importance_noise(self) -> float:
        """`importance_noise_points` of the two outcomes (0 when one cannot happen)."""
        if not (self.attacker_wins.forecasts and self.defender_wins.forecasts):
            return 0.0
        return importance_noise_points(self.attacker_wins.distribution(),
                                       self.defender_wins.distribution(), self.seasons)

    def if_wins(self, faction: str) -> Outcome:
        """The outcome in which `faction` wins."""
        return self.attacker_wins if faction == self.pairing.attacker else self.defender_wins

    def if_loses(self, faction: str) -> Outcome:
        """The outcome in which `faction` loses."""
        return self.defender_wins if faction == self.pairing.attacker else self.attacker_wins

    @classmethod
    def from_json(cls, plain: Mapping[str, Any]) -> Stakes:
        """Stakes back from `to_json`, as kept in the season's database: the one place stored
        stakes become a value again (the figures derive from the kept counts)."""
        pairing = Pairing(attacker=str(plain["attacker"]), defender=str(plain["defender"]),
                          chance=Fraction(plain["pairing_chance"]),
                          rebellion=bool(plain["rebellion"]), pairings=int(plain["pairings"]))
        return cls(pairing, Outcome.from_json(plain["attacker_wins"]),
                   Outcome.from_json(plain["defender_wins"]), seasons=int(plain["seasons"]),
                   forecast_seed=str(plain["forecast_seed"]))

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: exact chances as "num/den", forecasts as `Forecast.to_json`."""
        def outcome(o: Outcome) -> dict[str, Any]:
            return {"winner": o.winner, "loser": o.loser,
                    "chance": engine.fraction_text(o.chance),
                    "forecasts": [{"weight": engine.fraction_text(w), "forecast": f.to_json()}
                                  for w, f in o.forecasts]}
        p = self.pairing
        return {"attacker": p.attacker, "defender": p.defender,
                "pairing_chance": engine.fraction_text(p.chance), "rebellion": p.rebellion,
                "pairings": p.pairings, "seasons": self.seasons,
                "forecast_seed": self.forecast_seed,
                "importance": f"{self.importance:.6f}",
                "importance_noise": f"{self.importance_noise:.6f}",
                "attacker_wins": outcome(self.attacker_wins),
                "defender_wins": outcome(self.defender_wins)}


def stakes_of(
    state: engine.Plain, ledger: list[engine.Plain], pairing: Pairing, *, seasons: int,
    forecast_seed: str, executor: Executor | None = None,
    forecaster: Callable[..., Forecast] = forecast,
) -> Stakes:
    """Both outcomes of `pairing`, each forecast from the board it leaves with the same
    forecast seed (common random numbers); contributions already due are on the board."""
    outcomes = []
    for role in _ROLES:
        other = _ROLES[1 - _ROLES.index(role)]
        states = outcome_states(state, ledger, pairing, role)
        made = tuple((weight, forecaster(after, [], seasons=seasons, forecast_seed=forecast_seed,
                                         executor=executor))
                     for _chance, weight, after in states)
        chance = states[0][0] if states else Fraction(0)
        outcomes.append(Outcome(winner=getattr(pairing, role), loser=getattr(pairing, other),
                                chance=chance, forecasts=made))
    return Stakes(pairing, outcomes[0], outcomes[1], seasons, forecast_seed)
