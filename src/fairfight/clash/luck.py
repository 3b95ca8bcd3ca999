"""How lucky each side was over a clash game: every exchange's losses against their exact
distribution over the 1000 draws, and each side's total against the distribution of totals.

An exchange deals two losses, Ld to the defender and La to the lead attacker, the quantities
the preview's loss bands show [CB-2160]; the supporters' share and a carry-over follow from
them and are not drawn again. Every clash of the record carries its specification and its draw
r; the same kernel the preview runs gives Ld and La at all 1000 draws, so each loss's
distribution is a whole-number count of draws out of 1000 (nothing sampled, no float). Each
clash has a draw of its own, so a side's losses over the game add up as independent events
(`core.luck`): fewer losses are luckier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs
from fairfight.clash.invariants import every_draw
from fairfight.clash.spec import parse_spec
from fairfight.core.errors import VerificationError
from fairfight.core.luck import Luck, Outcomes, luck_of_run, tenths

__all__ = [
    "ExchangeLoss",
    "SideLuck",
    "clash_losses",
    "game_luck",
    "record_report",
    "scenario_luck",
    "side_luck",
]


@dataclass(frozen=True, slots=True)
class ExchangeLoss:
    """One side's loss in one exchange, placed in its distribution over the draws."""

    turn: int
    initiator: str
    role: str
    """"attacker" (the lead's loss, La) or "defender" (Ld)."""
    r: int
    loss: int
    outcomes: Outcomes
    """Draws out of 1000 giving each loss."""

    @property
    def draws_at_most(self) -> int:
        """The draws (of 1000) losing no more than this."""
        return sum(count for value, count in self.outcomes.ways if value <= self.loss)

    @property
    def at_most(self) -> Fraction:
        """The chance of losing no more than this."""
        return Fraction(self.draws_at_most, t.DRAWS)

    @property
    def at_least(self) -> Fraction:
        """The chance of losing at least this much."""
        return Fraction(sum(c for v, c in self.outcomes.ways if v >= self.loss), t.DRAWS)

    def to_json(self) -> dict[str, object]:
        """Plain JSON: the draw, the loss, its mean, its tails and every loss's draws."""
        mean = self.outcomes.mean()
        return {"turn": self.turn, "initiator": self.initiator, "role": self.role, "r": self.r,
                "loss": self.loss, "expected": f"{mean.numerator}/{mean.denominator}",
                "at_most": f"{self.at_most.numerator}/{self.at_most.denominator}",
                "at_least": f"{self.at_least.numerator}/{self.at_least.denominator}",
                "draws": {str(value): count for value, count in self.outcomes.ways}}


@dataclass(frozen=True, slots=True)
class SideLuck:
    """One player's exchanges over the game and where their total loss sits."""

    player: str
    exchanges: tuple[ExchangeLoss, ...]
    luck: Luck

    def sentence(self) -> str:
        """"lost 52 strength in 3 exchanges; the chances said 61.0 on average; ..."."""
        if not self.exchanges:
            return "fought no exchange"
        count = len(self.exchanges)
        return self.luck.sentence(f"lost {self.luck.observed} strength in {count} "
                                  f"exchange{'s' if count != 1 else ''}")

    def to_json(self) -> dict[str, object]:
        """The player, the sentence, the measure and every exchange as plain JSON."""
        return {"player": self.player, "sentence": self.sentence(), **self.luck.to_json(),
                "exchanges": [one.to_json() for one in self.exchanges]}


def _every_loss(specs: Sequence[Any]) -> tuple[Any, Any]:
    """Ld and La of each specification at every draw: two arrays of shape (clashes, 1000)."""
    x = every_draw(columns_from_specs(specs))
    return np.asarray(x.ld), np.asarray(x.la)


def _counts(losses: Any) -> Counter[int]:
    values, draws = np.unique(losses, return_counts=True)
    return Counter({int(v): int(c) for v, c in zip(values, draws, strict=True)})


def clash_losses(specs: Sequence[Any]) -> list[tuple[Counter[int], Counter[int]]]:
    """For each specification, the draws out of 1000 giving each Ld and each La, from the
    kernel run at every draw (one pass over all of them)."""
    if not specs:
        return []
    ld, la = _every_loss(specs)
    return [(_counts(ld[row]), _counts(la[row])) for row in range(len(specs))]


def _clashes(turns: Sequence[Mapping[str, Any]]) -> list[tuple[int, Mapping[str, Any]]]:
    return [(entry["turn"], event) for entry in turns for event in entry["events"]
            if event.get("event") == "clash"]


def side_luck(player: str, exchanges: Sequence[ExchangeLoss]) -> SideLuck:
    """A side's exchanges and where their total loss sits in its exact distribution."""
    return SideLuck(player, tuple(exchanges),
                    luck_of_run([(one.outcomes, one.loss) for one in exchanges],
                                higher_is_luckier=False))


def game_luck(owners: Mapping[str, str], players: Sequence[str],
              turns: Sequence[Mapping[str, Any]]) -> tuple[SideLuck, ...]:
    """Each player's luck over the clashes of a game's turns (`owners`: unit id -> player).
    Each recorded loss must be the kernel's at the recorded draw."""
    clashes = _clashes(turns)
    runs: dict[str, list[ExchangeLoss]] = {player: [] for player in players}
    if clashes:
        ld, la = _every_loss([parse_spec(event["outcome"]["spec"]) for _, event in clashes])
    for row, (turn, event) in enumerate(clashes):
        r = event["r"]
        sides = (("defender", event["plan"]["defender"], ld[row], event["outcome"]["ld"]),
                 ("attacker", event["initiator"], la[row], event["outcome"]["la"]))
        for role, unit, losses, loss in sides:
            if int(losses[r]) != loss:
                raise VerificationError(f"turn {turn} clash by {event['initiator']}",
                                        f"{role} loss {loss} at draw {r}; the kernel says "
                                        f"{int(losses[r])}")
            runs[owners[unit]].append(ExchangeLoss(
                turn, event["initiator"], role, r, loss, Outcomes.from_counts(_counts(losses))))
    return tuple(side_luck(player, run) for player, run in runs.items())


def scenario_luck(scenario: Any, turns: Sequence[Mapping[str, Any]]) -> tuple[SideLuck, ...]:
    """Each player's luck over a game played from `scenario` (a parsed `Scenario`, or its
    plain data as a game store keeps it)."""
    from fairfight.clash.scenario import Scenario, parse_scenario

    parsed = scenario if isinstance(scenario, Scenario) else parse_scenario(scenario)
    return game_luck({unit.id: unit.player for unit in parsed.units},
                     [player.id for player in parsed.players], turns)


def record_report(path: Path) -> tuple[str, dict[str, object]]:
    """`fairfight clash luck RECORD`: the record replayed and checked, then each side's luck."""
    from fairfight.clash.record import load_record, replay_record

    record = load_record(path)
    replay_record(record)
    sides = scenario_luck(record.scenario, record.turns)
    lines = []
    for side in sides:
        lines.append(f"{side.player}: {side.sentence()}")
        lines += [f"  turn {one.turn}, {one.role} in the clash by {one.initiator}: lost "
                  f"{one.loss} at draw {one.r} (average {tenths(one.outcomes.mean())}; "
                  f"no more in {one.draws_at_most} of {t.DRAWS} draws)" for one in side.exchanges]
    return "\n".join(lines), {"sides": [side.to_json() for side in sides]}
