"""The attack panel built from a preview, in the order the rules fix [CB-2390].

Verdict first (with the falter chance, always shown [CB-2400]); both loss bands with the
strengths they leave; odds and reliability as two figures; every counted unit and applied
modifier with its source, the kernel's own terms [CB-2410]; the consequence (retreat tile or
none [CB-2420], cut off, taking the tile); the same attack without each supporter; after a
resolution, the reconciliation [CB-2440]. Every number is read from `preview`,
`preview_under_fog`, the resolution and the tables; `readout` and the page only format it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.distribution import strength_after
from fairfight.clash.exchange import (
    Outcome,
    allocate_losses,
    resolve_exchange,
    stance_may_advance,
    supporter_loss,
)
from fairfight.clash.fog import FogPreview
from fairfight.clash.kernel import PowerTerms, Prepared, ResolveTerms
from fairfight.clash.panel_model import (
    Alternative,
    AttackPanel,
    BandCheck,
    BandView,
    BreakChecks,
    Chance,
    FogView,
    Force,
    Item,
    PivotView,
    Reconciliation,
    Resolve,
    RetreatView,
    StrengthAfterView,
    SupporterLoss,
    UnitLine,
)
from fairfight.clash.panel_strength import strength_after_view
from fairfight.clash.preview import Band, Preview, preview
from fairfight.clash.spec import ClashSpec, Combatant, parse_spec
from fairfight.clash.verdict import NO_BREAK_CHECK, chance_words, verdict_breaks, verdict_words

__all__ = [
    "BoardContext",
    "OWN_LOSSES_NOTE",
    "attack_panel",
    "consequence_lines",
    "reconcile",
    "reconcile_event",
    "strength_after_views",
]

OWN_LOSSES_NOTE = ("Your own losses depend on their power, not their nerve: the band you lose "
                   "is known even when the verdict is not.")


@dataclass(frozen=True, slots=True)
class BoardContext:
    """What the board adds to a spec: names, the retreat tile, the lead's room to advance.

    Without a board the panel says "the lead", "the tile" and "one tile"; on a board it uses
    the units' and tiles' names (a tile without a name is given by its coordinates).
    """

    lead: str = "lead"
    supporters: tuple[str, ...] = ()
    supporter_ids: tuple[str, ...] = ()
    defender: str = "defender"
    target: str = ""
    retreat_to: tuple[int, int] | None = None
    retreat_label: str | None = None
    candidates: tuple[tuple[int, int], ...] = ()
    on_board: bool = False

    def supporter(self, index: int) -> str:
        """A supporter's name (off the board: its slot, "support 1")."""
        return self.supporters[index] if index < len(self.supporters) else f"support {index + 1}"


def _items(values: tuple[int, ...], sources: tuple[str, ...]) -> list[Item]:
    """The nonzero terms of a sum with their sources."""
    return [Item(value=int(value), source=source)
            for value, source in zip(values, sources, strict=True) if value]


def _power_items(terms: PowerTerms, unit: Combatant, terrain: t.Terrain) -> list[Item]:
    """A unit's power modifiers, the kernel's own terms, each named [CB-470, CB-2410]."""
    return _items(terms, PowerTerms(
        grade=unit.grade.value, supply=f"{unit.supply_tier.value} supply",
        role_terrain=f"{unit.role.value} in {terrain.value}"))


def _unit_line(label: str, name: str, unit: Combatant, contribution: int, base: str,
               terms: PowerTerms, terrain: t.Terrain) -> UnitLine:
    return UnitLine(label=label, name=name, role=unit.role.value, stance=unit.stance.value,
                    strength=unit.strength, disorder=unit.disorder, grade=unit.grade.value,
                    supply=unit.supply_tier.value, contribution=contribution, base=base,
                    terms=_power_items(terms, unit, terrain))


def _your_force(spec: ClashSpec, p: Prepared, where: BoardContext) -> Force:
    units = [_unit_line("lead", where.lead, spec.lead, int(p.contribution_lead),
                        f"base {spec.lead.atk}", p.power_lead, spec.terrain)]
    slots = ((p.contribution_support1, p.power_support1),
             (p.contribution_support2, p.power_support2))
    for index, (unit, (contribution, power)) in enumerate(
            zip(spec.supporters, slots, strict=False)):
        units.append(_unit_line(f"support {index + 1}", where.supporter(index), unit,
                                int(contribution), f"base {unit.atk} × {t.SUPPORTER_FACTOR}‰",
                                power, spec.terrain))
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


def _their_force(spec: ClashSpec, p: Prepared, where: BoardContext) -> Force:
    defender = spec.defender
    units = [_unit_line("defender", where.defender, defender, int(p.contribution_defender),
                        f"base {defender.defence}", p.power_defender, spec.terrain)]
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


def _resolve(terms: ResolveTerms, total: int, unit: Combatant) -> Resolve:
    """A resolve as the kernel's terms with their sources; the base is always shown."""
    sources = ResolveTerms(
        base="base", grade=unit.grade.value, stance=unit.stance.value,
        works=f"works ×{unit.works}", supply=f"{unit.supply_tier.value} supply",
        own_city="own city", disorder="disorder", strength=f"strength {unit.strength}",
        encircled="cut off", shaken="shaken")
    shown = [Item(value=int(terms.base), source=sources.base),
             *_items(terms[1:], sources[1:])]
    return Resolve(total=total, terms=shown, held=sum(terms) != total,
                   limits=[t.RESOLVE_MIN, t.RESOLVE_MAX])


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
        their_resolve=_resolve(p.resolve_terms_defender, int(p.resolve_defender), spec.defender),
        your_shock=yours,
        your_resolve=_resolve(p.resolve_terms_attacker, int(p.resolve_attacker), spec.lead))


def _band(band: Band, strength: int, floor: int) -> BandView:
    """A loss band and the strengths it leaves, the bombardment floor applied [CB-1710]."""
    (worst,), _ = allocate_losses(band.high, (strength,), floor)
    (best,), _ = allocate_losses(band.low, (strength,), floor)
    return BandView(band=band.to_list(), strength=strength,
                    left=[strength - worst, strength - best])


def _supporters_lose(spec: ClashSpec, lead_band: Band, where: BoardContext) -> list[
        SupporterLoss]:
    """Each supporter bleeds with the lead, at its own share of the lead's loss [CB-900]."""
    result = []
    for index, unit in enumerate(spec.supporters):
        low, high = (min(unit.strength, supporter_loss(loss))
                     for loss in (lead_band.low, lead_band.high))
        result.append(SupporterLoss(label=where.supporter(index), low=low, high=high,
                                    strength=unit.strength,
                                    left=[unit.strength - high, unit.strength - low]))
    return result


def _verdict(view: Preview) -> tuple[Chance, Chance]:
    p, spec = view.prepared, view.spec
    if spec.kind is t.Kind.BOMBARDMENT:
        return (Chance(checked=False, outcome="none", head=NO_BREAK_CHECK,
                       text=f"{NO_BREAK_CHECK} — guns soften a target; they never take ground.",
                       permille=None, words=NO_BREAK_CHECK.lower(), resolve=None, shock=None),
                Chance(checked=False, outcome="none", head="Your battery falters",
                       text="Your battery falters: no falter check (a bombardment has no "
                       "break checks).", permille=None, words="no falter check",
                       resolve=None, shock=None))
    chance = view.break_permille
    side, sureness = verdict_words(chance)
    shock = view.shock_defender_band
    verdict = Chance(
        checked=True, outcome="break" if verdict_breaks(chance) else "hold",
        head=side.capitalize(), text=f"{side.capitalize()} — {sureness} ({chance}‰).",
        permille=chance, words=chance_words(chance), resolve=int(p.resolve_defender),
        shock=[shock.low, shock.high])
    falter = view.falter_permille
    mine = view.shock_attacker_band
    head = f"Your {'fire' if spec.kind is t.Kind.REACTION else 'attack'} falters"
    return verdict, Chance(
        checked=True, outcome="falters" if falter else "steady", head=head,
        text=f"{head}: {chance_words(falter)} ({falter}‰).", permille=falter,
        words=chance_words(falter), resolve=int(p.resolve_attacker), shock=[mine.low, mine.high])


def consequence_lines(view: Preview, where: BoardContext) -> list[str]:
    """What follows the clash, in words: the one wording of the text panel and the page.

    Figures are the preview's counts of the resolution's own consequences [CB-1040].
    """
    spec = view.spec
    if spec.kind is t.Kind.BOMBARDMENT:
        return ["Losses and disorder only; nobody moves."]
    lines = []
    if not view.defender_may_retreat:
        lines.append("If they break they cannot retreat (city or works): they hold, shaken.")
    elif spec.encircled:
        lines.append("They are cut off: no tile to retreat to, so if they break the whole "
                     "stack is destroyed.")
    else:
        to = f"to {where.retreat_label}" if where.retreat_label else "one tile"
        lines.append(f"If they break they fall back {to}. They are not cut off.")
    if view.destroyed_permille:
        lines.append(f"Your lead is destroyed in {view.destroyed_permille}‰ of draws.")
    if spec.kind is t.Kind.ASSAULT:
        target = where.target or "the tile"
        cleared = view.consequences.cleared
        if not stance_may_advance(spec.lead.stance):
            lines.append(f"The tile is cleared in {cleared}‰ of draws; a lead in "
                         f"{spec.lead.stance.value} does not advance, so you do not take it.")
        elif view.capture_possible:
            lines.append(f"You take {target}: {view.capture_permille}‰ of draws (your lead "
                         "has a movement point and room).")
        elif where.on_board:
            lines.append(f"The tile is cleared in {cleared}‰ of draws, but your lead has no "
                         f"movement point or room left: you do not take {target}.")
        else:
            lines.append(f"The tile is cleared in {cleared}‰ of draws; you take it only in "
                         "Advance or Hold with a movement point and room.")
    return lines


def _alternatives(view: Preview, where: BoardContext) -> list[Alternative]:
    """The same attack without each supporter [CB-2390 item 6]."""
    spec = view.spec
    result = []
    for index, unit in enumerate(spec.supporters):
        others = spec.supporters[:index] + spec.supporters[index + 1:]
        alone = preview(spec.model_copy(update={"supporters": others}),
                        capture_possible=view.capture_possible,
                        defender_in_city=view.defender_in_city)
        result.append(Alternative(
            without=f"{where.supporter(index)} ({unit.role.value})",
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
    (low, high), (ld_low, ld_high), (la_low, la_high) = (
        fog.ranges[name] for name in ("break_permille", "ld_band", "la_band"))
    return FogView(
        provisional=[name.value for name in fog.unobserved],
        summary=f"Over everything they could be: they break {low}–{high}‰; they lose "
        f"{ld_low}–{ld_high}; you lose {la_low}–{la_high} ({fog.cases} cases).",
        break_range=[low, high], la_range=[la_low, la_high], ld_range=[ld_low, ld_high],
        pivots=pivots, estimated=fog.estimated,
        command_win_permille=fog.command_win_permille, cases=fog.cases)


def _check(band: Band, actual: int, whose: str) -> BandCheck:
    inside = band.contains(actual)
    where = ("below the median" if actual < band.median else
             "at the median" if actual == band.median else "above the median")
    verdict = f"inside the band, {where}" if inside else "OUTSIDE the predicted band"
    return BandCheck(predicted=band.to_list(), actual=actual, inside=inside,
                     text=f"predicted {band.low}–{band.high}, actual {actual} ({whose} loss): "
                     f"{verdict}")


def reconcile(view: Preview, outcome: Outcome) -> Reconciliation:
    """Compare a preview with the resolution of the same specification [CB-2440, CB-2270]."""
    x = outcome.exchange
    they, you = _check(view.ld_band, int(x.ld), "their"), _check(view.la_band, int(x.la), "your")
    broke, faltered = bool(x.defender_breaks), bool(x.attacker_falters)
    happened = "they broke" if broke else "they held"
    fate = outcome.fate.value.replace("_", " ")
    return Reconciliation(
        r=int(x.r), they_lose=they, you_lose=you, break_permille=view.break_permille,
        broke=broke, faltered=faltered, fate=outcome.fate.value,
        summary=f"Break chance {view.break_permille}‰: {happened}"
        f"{'; the attack faltered' if faltered else ''}. Defender {fate}.",
        text=f"r = {int(x.r)}: {they.text}; {you.text}; break chance "
        f"{view.break_permille}‰, {happened}.")


def reconcile_event(event: Mapping[str, Any]) -> Reconciliation:
    """A played clash event's reconciliation: its specification previewed and resolved again
    at the event's r. Both are pure functions of the specification, so this is the prediction
    the player was shown beside the result the Cascade applied [CB-2280, CB-2460]."""
    plan = event["plan"]
    spec = parse_spec(plan["spec"])
    in_city = bool(plan["defender_in_city"])
    outcome = resolve_exchange(spec, int(event["r"]), defender_in_city=in_city)
    return reconcile(preview(spec, defender_in_city=in_city), outcome)


def strength_after_views(view: Preview, where: BoardContext) -> tuple[StrengthAfterView,
                                                                        StrengthAfterView]:
    """Both sides' distributions of strength after the clash, as the panel shows them."""
    spec = view.spec
    after = strength_after(spec, view.defender_in_city)
    defender = where.defender if where.on_board else f"defender {spec.defender.role.value}"
    lead = where.lead if where.on_board else f"lead {spec.lead.role.value}"
    return (strength_after_view("they", defender, after.defender_before, after.defender),
            strength_after_view("you", lead, after.lead_before, after.lead))


def attack_panel(view: Preview, fog: FogPreview | None = None,
                 where: BoardContext | None = None, outcome: Outcome | None = None,
                 ) -> AttackPanel:
    """The panel of a preview, with the fog part, the board's names and, after a
    resolution of the same specification, the reconciliation, when given."""
    where = where or BoardContext()
    spec, p = view.spec, view.prepared
    floor = t.BOMBARD_STRENGTH_FLOOR if spec.kind is t.Kind.BOMBARDMENT else 0
    verdict, falter = _verdict(view)
    retreat = None
    if where.on_board and spec.kind is not t.Kind.BOMBARDMENT and view.defender_may_retreat:
        retreat = RetreatView(to=list(where.retreat_to) if where.retreat_to else None,
                              label=where.retreat_label,
                              candidates=[list(c) for c in where.candidates],
                              encircled=spec.encircled)
    target = f" → {where.target}" if where.target else f" → {spec.terrain.value}"
    lead = where.lead if where.on_board else f"lead {spec.lead.role.value}"
    option = (None if spec.volatility_floor == t.VOLATILITY_FLOOR_MEASURED
              else f"volatility floor {spec.volatility_floor}")
    fog_view = _fog(fog)
    theirs, yours = strength_after_views(view, where)
    return AttackPanel(
        kind=spec.kind.value,
        title=f"{spec.kind.value.capitalize()} — {lead}{target}"
        + (f" ({spec.terrain.value})" if where.on_board else ""),
        terrain=spec.terrain.value, verdict=verdict, falter=falter,
        provisional=fog_view is not None,
        they_lose=_band(view.ld_band, spec.defender.strength, floor),
        you_lose=_band(view.la_band, spec.lead.strength, 0),
        their_strength_after=theirs, your_strength_after=yours,
        supporters_lose=_supporters_lose(spec, view.la_band, where),
        odds=[int(p.a), int(p.d)], reliability=int(p.reliability),
        volatility=int(p.volatility),
        your_force=_your_force(spec, p, where), their_force=_their_force(spec, p, where),
        break_checks=_break_checks(spec, p), consequence=consequence_lines(view, where),
        retreat=retreat, alternatives=_alternatives(view, where), fog=fog_view,
        own_losses_note=OWN_LOSSES_NOTE, evaluations=view.evaluations,
        combat_logic_version=t.COMBAT_LOGIC_VERSION, option=option,
        reconciliation=reconcile(view, outcome) if outcome is not None else None)
