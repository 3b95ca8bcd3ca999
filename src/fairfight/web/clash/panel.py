"""The attack panel as data: every figure of the text panel, structured for JSON and HTML.

The order is the one the rules fix [CB-2390]: verdict (with the falter chance, always shown
[CB-2400]), both loss bands with the strengths they leave, odds and reliability as two
figures, every counted unit and applied modifier with its source [CB-2410], the consequence
(retreat tile or none [CB-2420], cut off, taking the tile), and the same attack without each
supporter. Every number is read from `preview` / `preview_under_fog` and the tables; the
page and the browser only format them [CB-2470].
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash import tables as t
from fairfight.clash.exchange import allocate_losses, stance_may_advance
from fairfight.clash.fog import FogPreview
from fairfight.clash.kernel import Prepared
from fairfight.clash.preview import Band, Preview, preview
from fairfight.clash.spec import ClashSpec, Combatant
from fairfight.clash.verdict import NO_BREAK_CHECK, chance_words, verdict_text
from fairfight.web.clash.panel_model import (
    Alternative,
    AttackPanel,
    BandView,
    BreakChecks,
    Chance,
    FogView,
    Force,
    Item,
    PivotView,
    Resolve,
    RetreatView,
    UnitLine,
)

__all__ = ["AttackPanel", "BoardContext", "attack_panel"]


@dataclass(frozen=True, slots=True)
class BoardContext:
    """What the board adds to a spec: names, the retreat tile, the lead's room to advance."""

    lead: str = "lead"
    supporters: tuple[str, ...] = ()
    supporter_ids: tuple[str, ...] = ()
    defender: str = "defender"
    target: str = ""
    retreat_to: tuple[int, int] | None = None
    retreat_label: str | None = None
    candidates: tuple[tuple[int, int], ...] = ()
    on_board: bool = False


def _unit_terms(unit: Combatant, terrain: t.Terrain) -> list[Item]:
    terms = [
        Item(value=t.GRADE_POWER[unit.grade], source=unit.grade.value),
        Item(value=t.SUPPLY_POWER[unit.supply_tier], source=f"{unit.supply_tier.value} supply"),
        Item(value=t.ROLE_TERRAIN[unit.role][terrain],
             source=f"{unit.role.value} in {terrain.value}"),
    ]
    return [term for term in terms if term.value]


def _unit_line(label: str, name: str, unit: Combatant, contribution: int, base: str,
               terrain: t.Terrain) -> UnitLine:
    return UnitLine(label=label, name=name, role=unit.role.value, stance=unit.stance.value,
                    strength=unit.strength, disorder=unit.disorder, grade=unit.grade.value,
                    supply=unit.supply_tier.value, contribution=contribution, base=base,
                    terms=_unit_terms(unit, terrain))


def _your_force(spec: ClashSpec, p: Prepared, names: BoardContext) -> Force:
    units = [_unit_line("lead", names.lead, spec.lead, int(p.contribution_lead),
                        f"base {spec.lead.atk}", spec.terrain)]
    contributions = (int(p.contribution_support1), int(p.contribution_support2))
    for index, unit in enumerate(spec.supporters):
        name = names.supporters[index] if index < len(names.supporters) else f"support {index + 1}"
        units.append(_unit_line(f"support {index + 1}", name, unit, contributions[index],
                                f"base {unit.atk} × {t.SUPPORTER_FACTOR}‰", spec.terrain))
    if spec.kind is t.Kind.REACTION:
        terms = [Item(value=int(p.stance_attack_term), source="prepared fire")]
    else:
        roles = " + ".join(dict.fromkeys(u.role.value for u in (spec.lead, *spec.supporters)))
        terms = [Item(value=int(p.stance_attack_term), source=spec.lead.stance.value)]
        if p.combined_arms_term:
            terms.append(Item(value=int(p.combined_arms_term),
                              source=f"combined arms ({roles})"))
    if spec.attacker_edge_mods:
        terms.append(Item(value=spec.attacker_edge_mods,
                          source="approach (river, slope, landing)"))
    return Force(power=int(p.a), units=units, terms=terms, total=int(p.attacker_mods))


def _their_force(spec: ClashSpec, p: Prepared, names: BoardContext) -> Force:
    defender = spec.defender
    units = [_unit_line("defender", names.defender, defender, int(p.contribution_defender),
                        f"base {defender.defence}", spec.terrain)]
    terms = [Item(value=int(p.cover_term), source=f"{spec.terrain.value} cover"),
             Item(value=int(p.stance_defence_term), source=defender.stance.value)]
    level = max(defender.dig_in, defender.works)
    if level:
        source = "works" if defender.works >= defender.dig_in else "dug in"
        terms.append(Item(value=int(p.position_term), source=f"{source} ×{level}"))
    if p.stack_term:
        terms.append(Item(value=int(p.stack_term),
                          source=f"stack ×{min(t.STACK_CAP, spec.stack_extra)}"))
    if spec.defender_extra_mods:
        terms.append(Item(value=spec.defender_extra_mods, source="caught disengaging"))
    return Force(power=int(p.d), units=units, terms=terms, total=int(p.defender_mods))


def _resolve(unit: Combatant, total: int, in_city: bool, encircled: bool) -> Resolve:
    """A resolve as line items with their sources [CB-710, CB-2410]."""
    terms = [
        Item(value=t.RESOLVE_BASE, source="base"),
        Item(value=t.GRADE_RESOLVE[unit.grade], source=unit.grade.value),
        Item(value=t.STANCE_RESOLVE[unit.stance], source=unit.stance.value),
        Item(value=t.RESOLVE_PER_WORKS * unit.works, source=f"works ×{unit.works}"),
        Item(value=t.SUPPLY_RESOLVE[unit.supply_tier], source=f"{unit.supply_tier.value} supply"),
        Item(value=t.OWN_CITY_RESOLVE if in_city else 0, source="own city"),
        Item(value=-unit.disorder, source="disorder"),
        Item(value=-((t.MAX_STRENGTH - unit.strength) // t.STRENGTH_RESOLVE_DIVISOR),
             source=f"strength {unit.strength}"),
        Item(value=t.ENCIRCLED_RESOLVE if encircled else 0, source="cut off"),
        Item(value=t.SHAKEN_RESOLVE if unit.shaken else 0, source="shaken"),
    ]
    shown = [term for term in terms if term.value or term.source == "base"]
    return Resolve(total=total, terms=shown, held=sum(x.value for x in terms) != total)


def _break_checks(spec: ClashSpec, p: Prepared) -> BreakChecks | None:
    if spec.kind is t.Kind.BOMBARDMENT:
        return None
    their: list[Item] = []
    if spec.kind is t.Kind.REACTION:
        their.append(Item(value=int(p.flank_shock), source="ambush"))
    elif p.flank_shock or spec.flankers:
        counted = min(t.FLANK_SHOCK_CAP, spec.flankers)
        their.append(Item(value=int(p.flank_shock),
                          source=f"flanking ({spec.flankers} adjacent, {counted} counted)"))
    if p.stance_shock_to_defender:
        their.append(Item(value=int(p.stance_shock_to_defender), source=spec.lead.stance.value))
    yours: list[Item] = []
    if p.stance_shock_to_attacker:
        yours.append(Item(value=int(p.stance_shock_to_attacker),
                          source=spec.defender.stance.value))
    if p.works_shock:
        yours.append(Item(value=int(p.works_shock), source=f"works ×{spec.defender.works}"))
    return BreakChecks(
        their_shock=their,
        their_resolve=_resolve(spec.defender, int(p.resolve_defender), spec.in_own_city,
                               spec.encircled),
        your_shock=yours,
        your_resolve=_resolve(spec.lead, int(p.resolve_attacker), False, False))


def _band(band: Band, strength: int, floor: int) -> BandView:
    (worst,), _ = allocate_losses(band.high, (strength,), floor)
    (best,), _ = allocate_losses(band.low, (strength,), floor)
    return BandView(band=band.to_list(), strength=strength,
                    left=[strength - worst, strength - best])


def _verdict(view: Preview) -> tuple[Chance, Chance]:
    p, spec = view.prepared, view.spec
    if spec.kind is t.Kind.BOMBARDMENT:
        return (Chance(checked=False, text=f"{NO_BREAK_CHECK}: guns soften a target; they "
                       "never take ground.", permille=None, words=NO_BREAK_CHECK.lower(),
                       resolve=None, shock=None),
                Chance(checked=False, text="Your battery falters: no falter check (a "
                       "bombardment has no break checks).", permille=None,
                       words="no falter check", resolve=None, shock=None))
    chance = view.break_permille
    words = chance_words(chance)
    head = verdict_text(chance)
    shock = view.shock_defender_band
    verdict = Chance(checked=True, text=f"{head} ({chance}‰).", permille=chance, words=words,
                     resolve=int(p.resolve_defender), shock=[shock.low, shock.high])
    falter = view.falter_permille
    mine = view.shock_attacker_band
    action = "fire" if spec.kind is t.Kind.REACTION else "attack"
    return verdict, Chance(
        checked=True, text=f"Your {action} falters: {chance_words(falter)} ({falter}‰).",
        permille=falter, words=chance_words(falter), resolve=int(p.resolve_attacker),
        shock=[mine.low, mine.high])


def _consequence(view: Preview, where: BoardContext) -> list[str]:
    spec = view.spec
    if spec.kind is t.Kind.BOMBARDMENT:
        return ["Losses and disorder only; nobody moves."]
    lines = []
    if not view.defender_may_retreat:
        lines.append("If they break they cannot retreat (city or works): they hold, shaken, "
                     "and the tile is not taken.")
    elif spec.encircled:
        lines.append("They are cut off: no tile to retreat to, so if they break the whole "
                     "stack is destroyed.")
    elif where.on_board and where.retreat_label:
        lines.append(f"If they break they fall back to {where.retreat_label}. "
                     "They are not cut off.")
    else:
        lines.append("If they break they fall back one tile. They are not cut off.")
    if view.destroyed_permille:
        lines.append(f"Your lead is destroyed in {view.destroyed_permille}‰ of draws.")
    if spec.kind is t.Kind.ASSAULT and view.defender_may_retreat:
        target = where.target or "the tile"
        if not stance_may_advance(spec.lead.stance):
            lines.append(f"The tile is cleared in {view.win_permille}‰ of draws; a lead in "
                         f"{spec.lead.stance.value} does not advance, so you do not take it.")
        elif view.capture_possible:
            lines.append(f"You take {target} if they break and your lead survives: "
                         f"{view.capture_permille}‰. You have a movement point and room.")
        elif where.on_board:
            lines.append(f"The tile is cleared in {view.win_permille}‰ of draws, but your "
                         f"lead has no movement point or room left: you do not take {target}.")
        else:
            lines.append(f"The tile is cleared in {view.win_permille}‰ of draws; you take it "
                         "only in Advance or Hold with a movement point and room.")
    return lines


def _alternatives(view: Preview, where: BoardContext) -> list[Alternative]:
    spec = view.spec
    result = []
    for index, unit in enumerate(spec.supporters):
        others = spec.supporters[:index] + spec.supporters[index + 1:]
        alone = preview(spec.model_copy(update={"supporters": others}),
                        capture_possible=view.capture_possible,
                        defender_in_city=view.defender_in_city)
        name = (where.supporters[index] if index < len(where.supporters)
                else f"support {index + 1}")
        result.append(Alternative(
            without=f"{name} ({unit.role.value})",
            unit=where.supporter_ids[index] if index < len(where.supporter_ids) else None,
            a=int(alone.prepared.a), d=int(alone.prepared.d),
            break_permille=alone.break_permille, falter_permille=alone.falter_permille,
            la_band=alone.la_band.to_list()))
    return result


def _fog(fog: FogPreview | None) -> FogView | None:
    if fog is None or not fog.unobserved:
        return None
    pivots = [PivotView(field=pivot.field.value, values=list(pivot.values),
                        threshold=pivot.threshold, changes_verdict=pivot.changes_verdict,
                        break_moves_at=pivot.break_moves_at, verdicts=list(pivot.verdicts),
                        text=pivot.describe())
              for pivot in fog.shown_pivots]
    return FogView(
        provisional=[name.value for name in fog.unobserved],
        break_range=list(fog.ranges["break_permille"]), la_range=list(fog.ranges["la_band"]),
        ld_range=list(fog.ranges["ld_band"]), pivots=pivots, estimated=fog.estimated,
        command_win_permille=fog.command_win_permille, cases=fog.cases)


def attack_panel(view: Preview, fog: FogPreview | None = None,
                 where: BoardContext | None = None) -> AttackPanel:
    """The panel of a preview, with the fog part and the board's names when given."""
    where = where or BoardContext()
    spec, p = view.spec, view.prepared
    floor = t.BOMBARD_STRENGTH_FLOOR if spec.kind is t.Kind.BOMBARDMENT else 0
    verdict, falter = _verdict(view)
    retreat = None
    if where.on_board and spec.kind is not t.Kind.BOMBARDMENT:
        retreat = RetreatView(to=list(where.retreat_to) if where.retreat_to else None,
                              label=where.retreat_label,
                              candidates=[list(c) for c in where.candidates],
                              encircled=spec.encircled)
    target = f" → {where.target}" if where.target else f" → {spec.terrain.value}"
    lead = where.lead if where.on_board else f"lead {spec.lead.role.value}"
    option = (None if spec.volatility_floor == t.VOLATILITY_FLOOR_MEASURED
              else f"volatility floor {spec.volatility_floor}")
    return AttackPanel(
        kind=spec.kind.value,
        title=f"{spec.kind.value.capitalize()} — {lead}{target}"
        + (f" ({spec.terrain.value})" if where.on_board else ""),
        terrain=spec.terrain.value, verdict=verdict, falter=falter,
        they_lose=_band(view.ld_band, spec.defender.strength, floor),
        you_lose=_band(view.la_band, spec.lead.strength, 0),
        odds=[int(p.a), int(p.d)], reliability=int(p.reliability),
        volatility=int(p.volatility),
        your_force=_your_force(spec, p, where), their_force=_their_force(spec, p, where),
        break_checks=_break_checks(spec, p), consequence=_consequence(view, where),
        retreat=retreat, alternatives=_alternatives(view, where), fog=_fog(fog),
        own_losses_note="Your own losses depend on their power, not their nerve: the band "
        "you lose is known even when the verdict is not.",
        evaluations=view.evaluations, combat_logic_version=t.COMBAT_LOGIC_VERSION,
        option=option)
