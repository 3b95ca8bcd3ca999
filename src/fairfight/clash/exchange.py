"""THE resolution function: `resolve_exchange(spec, r)` and the consequences that need no map.

Steps 1-7 run through the shared kernel (the same source the preview and the batch paths
run); Steps 8-9 here turn the exchange into losses, carry-over, the bombardment floor,
disorder, experience, shaken and falter for every participant [CB-1040..CB-1300].
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from fairfight.clash import tables as t
from fairfight.clash.kernel import Exchange, Prepared, exchange, prepare
from fairfight.clash.ops import INT_OPS
from fairfight.clash.spec import ClashSpec, Combatant, check_resolvable, to_columns
from fairfight.core.errors import InputError

__all__ = [
    "Clearing",
    "DefenderFate",
    "Outcome",
    "TurnXp",
    "UnitResult",
    "allocate_losses",
    "check_draw",
    "clearing",
    "consequences",
    "may_retreat",
    "prepare_spec",
    "resolve_exchange",
    "stance_may_advance",
    "supporter_loss",
]


class DefenderFate(StrEnum):
    """What happens to the defending unit (the five outcomes of CB-1040, at spec level)."""

    HOLDS = "holds"
    """No break: losses are applied and nothing moves [CB-1050]."""
    DESTROYED = "destroyed"
    """Strength reached 0 [CB-130]."""
    RETREATS = "retreats"
    """Broke and steps back one tile with its whole stack [CB-1110]."""
    HOLDS_SHAKEN = "holds_shaken"
    """Broke inside a city or works: stays, shaken 2 [CB-1340]."""
    ROUTED = "routed"
    """Broke with nowhere to go (encircled): the whole stack is destroyed [CB-1120, CB-1420]."""


@dataclass(frozen=True, slots=True)
class TurnXp:
    """Experience each participant already gained this turn, for the cap of 25 [CB-1220]."""

    lead: int = 0
    supporters: tuple[int, ...] = ()
    defender: int = 0

    def supporter(self, index: int) -> int:
        """The supporter's xp so far this turn (0 when not given)."""
        return self.supporters[index] if index < len(self.supporters) else 0


@dataclass(frozen=True, slots=True)
class UnitResult:
    """One participant after the clash: loss, disorder gained, xp gained, final state."""

    loss: int
    disorder_gain: int
    xp_gain: int
    strength: int
    disorder: int
    shaken: int

    @property
    def destroyed(self) -> bool:
        """Strength 0: removed at once [CB-130]."""
        return self.strength == 0

    def to_json(self) -> dict[str, int]:
        """The participant's figures as plain JSON."""
        return {"loss": self.loss, "disorder_gain": self.disorder_gain, "xp_gain": self.xp_gain,
                "strength": self.strength, "disorder": self.disorder, "shaken": self.shaken}


@dataclass(frozen=True, slots=True)
class Outcome:
    """A resolved clash: the spec, r, every intermediate quantity and every consequence."""

    spec: ClashSpec
    prepared: Prepared
    exchange: Exchange
    fate: DefenderFate
    carried_over: int
    tile_cleared: bool
    lead_may_advance: bool
    lead_barred: bool
    lead: UnitResult
    supporters: tuple[UnitResult, ...]
    defender: UnitResult
    contributions_supporters: tuple[int, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The combat event: the spec, r, every named quantity and the resulting state
        [CB-2450, CB-320]."""
        p, x = self.prepared, self.exchange
        return {
            "spec": self.spec.to_json(),
            "r": x.r,
            "contributions": {"lead": p.contribution_lead,
                              "supporters": list(self.contributions_supporters),
                              "defender": p.contribution_defender},
            "a_raw": p.a_raw, "d_raw": p.d_raw,
            "attacker_mods": p.attacker_mods, "defender_mods": p.defender_mods,
            "a": p.a, "d": p.d, "volatility": p.volatility, "reliability": p.reliability,
            "resolve_attacker": p.resolve_attacker, "resolve_defender": p.resolve_defender,
            "s": x.s, "a_eff": x.a_eff, "d_eff": x.d_eff,
            "share_a": x.share_a, "share_d": x.share_d, "ld": x.ld, "la": x.la,
            "flank_shock": p.flank_shock,
            "stance_shock_to_defender": p.stance_shock_to_defender,
            "stance_shock_to_attacker": p.stance_shock_to_attacker,
            "works_shock": p.works_shock,
            "shock_defender": x.shock_defender, "shock_attacker": x.shock_attacker,
            "defender_breaks": x.defender_breaks, "attacker_falters": x.attacker_falters,
            "fate": self.fate.value, "carried_over": self.carried_over,
            "tile_cleared": self.tile_cleared, "lead_may_advance": self.lead_may_advance,
            "lead_barred": self.lead_barred,
            "after": {"lead": self.lead.to_json(),
                      "supporters": [unit.to_json() for unit in self.supporters],
                      "defender": self.defender.to_json()},
            "combat_logic_version": t.COMBAT_LOGIC_VERSION,
        }


def check_draw(r: int) -> int:
    """r must be one of the 1000 draws 0..999 [CB-800]."""
    if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < t.DRAWS:
        raise InputError("r", f"the draw must be an integer from 0 to {t.HIGH_DRAW}")
    return r


def prepare_spec(spec: ClashSpec) -> Prepared:
    """Steps 1-4 for one specification, after the CB-340 check."""
    check_resolvable(spec)
    return prepare(INT_OPS, to_columns(spec))


def allocate_losses(loss: int, strengths: tuple[int, ...], floor: int = 0) -> tuple[
        tuple[int, ...], int]:
    """Carry-over: each unit in order absorbs what it can above `floor`; the rest is discarded.

    Returns the loss of each unit and the discarded excess [CB-920, CB-1730].
    """
    remaining = loss
    taken: list[int] = []
    for strength in strengths:
        absorbed = min(remaining, max(0, strength - floor))
        taken.append(absorbed)
        remaining -= absorbed
    return tuple(taken), remaining


def _clamp(value: int, high: int) -> int:
    return max(0, min(high, value))


def _capped_xp(gain: int, so_far: int) -> int:
    """xp gained, limited by what is left of the per-turn cap [CB-1220]."""
    return max(0, min(gain, t.XP_PER_TURN_CAP - so_far))


def supporter_loss(lead_loss: int) -> int:
    """What each supporter loses for a lead loss, before its own strength caps it [CB-900]."""
    return lead_loss * t.SUPPORTER_FACTOR // t.PER_MILLE


def stance_may_advance(stance: t.Stance) -> bool:
    """Only a lead in Advance or Hold may move into a cleared tile [CB-1060, CB-1080]."""
    return stance in (t.Stance.ADVANCE, t.Stance.HOLD)


def may_retreat(spec: ClashSpec, defender_in_city: bool | None = None) -> bool:
    """Whether a broken defender leaves its tile.

    The defender of an assault (or a bombardment) in a city or works of level 1+ never
    retreats [CB-1340]. The target of a reaction is a mover caught on its move: breaking, it
    retreats from its halt tile, or is destroyed when it has nowhere to go [CB-1820], even
    when that tile holds a city or works.
    """
    if spec.kind is t.Kind.REACTION:
        return True
    in_city = spec.in_own_city if defender_in_city is None else defender_in_city
    return not in_city and spec.defender.works == 0


def resolve_exchange(
    spec: ClashSpec, r: int, *, turn_xp: TurnXp | None = None,
    defender_in_city: bool | None = None,
) -> Outcome:
    """Resolve one clash at draw r: Steps 1-9 for Assault, Bombardment and Reaction [CB-2140].

    `defender_in_city` tells whether the defender's tile holds a city of any owner (default:
    the spec's `in_own_city`); `turn_xp` is what each participant already gained this turn.
    """
    check_draw(r)
    p = prepare_spec(spec)
    x = exchange(INT_OPS, p, r)
    return consequences(spec, p, x, turn_xp or TurnXp(), defender_in_city)


class Clearing(NamedTuple):
    """What an exchange leaves on the tile: the part of Steps 8-9 the preview counts per
    stretch of draws, without the participants' losses, disorder and experience."""

    fate: DefenderFate
    defender_strength: int
    """The defender's strength after its loss and fate (0 when routed)."""
    defender_shaken: int
    carried_over: int
    """The defender's loss beyond its strength, discarded [CB-920]."""
    tile_cleared: bool
    lead_may_advance: bool


def clearing(spec: ClashSpec, x: Exchange, defender_in_city: bool | None) -> Clearing:
    """The defender's loss and fate, whether the tile is cleared and whether the lead may
    advance into it [CB-1040, CB-1060, CB-1080, CB-1340]."""
    kind, defender = spec.kind, spec.defender
    breaks = bool(x.defender_breaks)
    floor = t.BOMBARD_STRENGTH_FLOOR if kind is t.Kind.BOMBARDMENT else 0
    (defender_loss,), carried = allocate_losses(x.ld, (defender.strength,), floor)
    fate, defender_strength, shaken = _fate(
        spec, defender.strength - defender_loss, breaks, defender_in_city)
    # a destroyed top defender leaves the rest of its stack, which holds unless it broke and
    # may leave: a broken garrison of a city or works stays, shaken [CB-1040, CB-1340]
    cleared = fate in (DefenderFate.RETREATS, DefenderFate.ROUTED) or (
        fate is DefenderFate.DESTROYED
        and (spec.stack_extra == 0 or (breaks and may_retreat(spec, defender_in_city))))
    may_advance = (
        cleared and t.KIND_PROFILES[kind].may_advance
        and _strength_after(spec.lead, x.la) > 0 and stance_may_advance(spec.lead.stance)
    )
    return Clearing(fate, defender_strength, shaken, carried, cleared, may_advance)


def consequences(
    spec: ClashSpec, p: Prepared, x: Exchange, turn_xp: TurnXp, defender_in_city: bool | None,
) -> Outcome:
    """Steps 8-9 for one exchange: losses, the defender's fate, whether the tile is cleared
    and the lead may advance [CB-1040..CB-1300]."""
    kind = spec.kind
    lead, defender = spec.lead, spec.defender
    breaks, falters = bool(x.defender_breaks), bool(x.attacker_falters)
    # losses [CB-900, CB-920, CB-1710], fate and clearing
    left = clearing(spec, x, defender_in_city)
    each_supporter_loses = supporter_loss(x.la)
    defender_disorder, lead_disorder = _disorder_gains(kind, x, breaks, falters)
    # experience [CB-1210, CB-1220]
    lead_xp = t.XP_BASE + x.ld // t.XP_DAMAGE_DIVISOR + (t.XP_OPPONENT_BROKE if breaks else 0)
    defender_xp = t.XP_BASE + x.la // t.XP_DAMAGE_DIVISOR + (
        t.XP_OPPONENT_BROKE if falters else 0)
    lead_result = _unit_result(lead, x.la, lead_disorder,
                               _capped_xp(lead_xp, turn_xp.lead), lead.shaken)
    supporters = tuple(
        _unit_result(unit, min(unit.strength, each_supporter_loses), t.SUPPORTER_DISORDER,
                     _capped_xp(lead_xp // t.XP_SUPPORTER_DIVISOR, turn_xp.supporter(index)),
                     unit.shaken)
        for index, unit in enumerate(spec.supporters)
    )
    defender_result = UnitResult(
        loss=defender.strength - left.defender_strength,
        disorder_gain=defender_disorder,
        xp_gain=_capped_xp(defender_xp, turn_xp.defender),
        strength=left.defender_strength,
        disorder=_clamp(defender.disorder + defender_disorder, t.MAX_DISORDER),
        shaken=left.defender_shaken,
    )
    return Outcome(
        spec=spec, prepared=p, exchange=x, fate=left.fate, carried_over=left.carried_over,
        tile_cleared=left.tile_cleared, lead_may_advance=left.lead_may_advance,
        lead_barred=falters, lead=lead_result, supporters=supporters,
        defender=defender_result,
        contributions_supporters=(p.contribution_support1, p.contribution_support2)[
            : len(spec.supporters)],
    )


def _fate(
    spec: ClashSpec, defender_strength: int, breaks: bool, defender_in_city: bool | None,
) -> tuple[DefenderFate, int, int]:
    """The defender's fate [CB-1040], with its strength and shaken turns after it (a rout
    leaves no one; holding where it may not retreat shakes it)."""
    if defender_strength == 0:
        return DefenderFate.DESTROYED, defender_strength, spec.defender.shaken
    if not breaks:
        return DefenderFate.HOLDS, defender_strength, spec.defender.shaken
    if not may_retreat(spec, defender_in_city):
        return DefenderFate.HOLDS_SHAKEN, defender_strength, t.SHAKEN_ON_HOLD
    if spec.encircled:
        return DefenderFate.ROUTED, 0, spec.defender.shaken
    return DefenderFate.RETREATS, defender_strength, spec.defender.shaken


def _disorder_gains(kind: t.Kind, x: Exchange, breaks: bool, falters: bool) -> tuple[int, int]:
    """The disorder the defender and the lead take from the exchange [CB-1190, CB-1200]."""
    if kind is t.Kind.BOMBARDMENT:
        defender_disorder = t.BOMBARD_DISORDER_PER_LOSS * x.ld + t.BOMBARD_DISORDER_BASE
    else:
        defender_disorder = x.ld // t.DEFENDER_LOSS_DISORDER_DIVISOR + (
            t.BROKE_DISORDER if breaks else 0)
    return defender_disorder, t.LEAD_DISORDER[kind] + (t.FALTER_DISORDER if falters else 0)


def _strength_after(unit: Combatant, loss: int) -> int:
    return _clamp(unit.strength - loss, t.MAX_STRENGTH)


def _unit_result(unit: Combatant, loss: int, disorder_gain: int, xp_gain: int,
                 shaken: int) -> UnitResult:
    return UnitResult(
        loss=loss, disorder_gain=disorder_gain, xp_gain=xp_gain,
        strength=_strength_after(unit, loss),
        disorder=_clamp(unit.disorder + disorder_gain, t.MAX_DISORDER),
        shaken=shaken,
    )
