"""The attack panel as text, in the order the rules fix [CB-2390].

Verdict first; both loss bands with the strengths they leave; odds and reliability as two
figures; every counted unit and applied modifier with its source; the consequence; the same
attack without each supporter. The falter chance is always printed, even at 0 per-mille
[CB-2400]. Every figure comes from `preview` (and so from the resolution kernel).
"""

from __future__ import annotations

from fairfight.clash import tables as t
from fairfight.clash.exchange import allocate_losses, stance_may_advance, supporter_loss
from fairfight.clash.fog import FogPreview
from fairfight.clash.kernel import Prepared
from fairfight.clash.preview import Band, Preview, preview
from fairfight.clash.spec import ClashSpec, Combatant
from fairfight.clash.verdict import NO_BREAK_CHECK, chance_words, verdict_words

__all__ = ["render_panel"]

RULE = "─" * 78

def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _band(band: Band) -> str:
    return f"{band.low:>3} ── {band.median:>3} ── {band.high:>3}"


def _strength_left(strength: int, band: Band, floor: int) -> str:
    """The strengths the band leaves, with the bombardment floor applied [CB-1710]."""
    (worst,), _ = allocate_losses(band.high, (strength,), floor)
    (best,), _ = allocate_losses(band.low, (strength,), floor)
    return f"{strength} drops to {strength - worst}–{strength - best}"


def _supporter_loss_lines(spec: ClashSpec, lead_band: Band) -> list[str]:
    """Each supporter bleeds with the lead, at its own share of the lead's loss [CB-900]."""
    lines = []
    for index, unit in enumerate(spec.supporters, start=1):
        low, high = (min(unit.strength, supporter_loss(loss))
                     for loss in (lead_band.low, lead_band.high))
        lines.append(f"  SUPPORT {index}  loses {low}–{high}   →  {unit.strength} drops to "
                     f"{unit.strength - high}–{unit.strength - low}")
    return lines


def _unit_terms(unit: Combatant, terrain: t.Terrain) -> str:
    terms = [
        (t.GRADE_POWER[unit.grade], unit.grade.value),
        (t.SUPPLY_POWER[unit.supply_tier], f"{unit.supply_tier.value} supply"),
        (t.ROLE_TERRAIN[unit.role][terrain], f"{unit.role.value} in {terrain.value}"),
    ]
    shown = [f"{_signed(value)} {label}" for value, label in terms if value]
    return "  ".join(shown) if shown else "no modifiers"


def _unit_line(label: str, unit: Combatant, contribution: int, base: str) -> str:
    return (f"    {label:<10}{unit.role.value:<7}{unit.stance.value:<10}{unit.strength:>4}  "
            f"{unit.grade.value:<9}{unit.supply_tier.value:<10}{contribution:>5}   {base}")


def _force_lines(spec: ClashSpec, p: Prepared) -> list[str]:
    lead = spec.lead
    lines = [f"  YOUR FORCE{'attack power':>56}{p.a:>7}",
             _unit_line("lead", lead, p.contribution_lead, f"base {lead.atk}"),
             f"{'':14}{_unit_terms(lead, spec.terrain)}"]
    for index, (unit, contribution) in enumerate(
            zip(spec.supporters, (p.contribution_support1, p.contribution_support2),
                strict=False)):
        lines.append(_unit_line(f"support {index + 1}", unit, contribution,
                                f"base {unit.atk} × {t.SUPPORTER_FACTOR}‰"))
        lines.append(f"{'':14}{_unit_terms(unit, spec.terrain)}")
    if spec.kind is t.Kind.REACTION:
        force = [f"{_signed(p.stance_attack_term)} prepared fire"]
    else:
        roles = " + ".join(dict.fromkeys(u.role.value for u in (lead, *spec.supporters)))
        force = [f"{_signed(p.stance_attack_term)} {lead.stance.value}"]
        if p.combined_arms_term:
            force.append(f"{_signed(p.combined_arms_term)} combined arms ({roles})")
    if spec.attacker_edge_mods:
        force.append(f"{_signed(spec.attacker_edge_mods)} approach (river, slope, landing)")
    lines.append(f"    {'force':<10}{'  '.join(force)}   = {_signed(p.attacker_mods)}‰")
    defender = spec.defender
    lines += ["", f"  THEIR FORCE{'defence power':>56}{p.d:>6}",
              _unit_line("defender", defender, p.contribution_defender,
                         f"base {defender.defence}"),
              f"{'':14}{_unit_terms(defender, spec.terrain)}"]
    position = [f"{_signed(p.cover_term)} {spec.terrain.value} cover",
                f"{_signed(p.stance_defence_term)} {defender.stance.value}"]
    level = max(defender.dig_in, defender.works)
    if level:
        source = "works" if defender.works >= defender.dig_in else "dug in"
        position.append(f"{_signed(p.position_term)} {source} ×{level}")
    if p.stack_term:
        position.append(f"{_signed(p.stack_term)} stack ×{min(t.STACK_CAP, spec.stack_extra)}")
    if spec.defender_extra_mods:
        position.append(f"{_signed(spec.defender_extra_mods)} caught disengaging")
    lines.append(f"    {'position':<10}{'  '.join(position)}   = {_signed(p.defender_mods)}‰")
    return lines


def _resolve_terms(unit: Combatant, in_city: bool, encircled: bool) -> list[tuple[int, str]]:
    """The terms of a resolve as line items with their sources [CB-710, CB-2410]."""
    return [
        (t.RESOLVE_BASE, "base"),
        (t.GRADE_RESOLVE[unit.grade], unit.grade.value),
        (t.STANCE_RESOLVE[unit.stance], unit.stance.value),
        (t.RESOLVE_PER_WORKS * unit.works, f"works ×{unit.works}"),
        (t.SUPPLY_RESOLVE[unit.supply_tier], f"{unit.supply_tier.value} supply"),
        (t.OWN_CITY_RESOLVE if in_city else 0, "own city"),
        (-unit.disorder, "disorder"),
        (-((t.MAX_STRENGTH - unit.strength) // t.STRENGTH_RESOLVE_DIVISOR),
         f"strength {unit.strength}"),
        (t.ENCIRCLED_RESOLVE if encircled else 0, "cut off"),
        (t.SHAKEN_RESOLVE if unit.shaken else 0, "shaken"),
    ]


def _resolve_line(label: str, total: int, terms: list[tuple[int, str]]) -> str:
    shown = [f"{value} {source}" if source == "base" else f"{_signed(value)} {source}"
             for value, source in terms if value or source == "base"]
    held = "" if sum(value for value, _ in terms) == total else (
        f"   (held within {t.RESOLVE_MIN}–{t.RESOLVE_MAX})")
    return f"    {label:<14}{total:>3}   {'  '.join(shown)}{held}"


def _break_lines(spec: ClashSpec, p: Prepared) -> list[str]:
    """What feeds each break check: the fixed shock terms beside the loss, and each resolve,
    term by term; flankers are named by count [CB-2410, CB-960..CB-1000]."""
    if spec.kind is t.Kind.BOMBARDMENT:
        return []
    their = ["loss"]
    if spec.kind is t.Kind.REACTION:
        their.append(f"{_signed(p.flank_shock)} ambush")
    elif p.flank_shock or spec.flankers:
        counted = min(t.FLANK_SHOCK_CAP, spec.flankers)
        their.append(f"{_signed(p.flank_shock)} flanking ({spec.flankers} adjacent, "
                     f"{counted} counted)")
    if p.stance_shock_to_defender:
        their.append(f"{_signed(p.stance_shock_to_defender)} {spec.lead.stance.value}")
    yours = ["loss"]
    if p.stance_shock_to_attacker:
        yours.append(f"{_signed(p.stance_shock_to_attacker)} {spec.defender.stance.value}")
    if p.works_shock:
        yours.append(f"{_signed(p.works_shock)} works ×{spec.defender.works}")
    return [
        "", "  BREAK CHECKS",
        f"    {'their shock':<14}{'  '.join(their)}",
        _resolve_line("their resolve", p.resolve_defender,
                      _resolve_terms(spec.defender, spec.in_own_city, spec.encircled)),
        f"    {'your shock':<14}{'  '.join(yours)}",
        _resolve_line("your resolve", p.resolve_attacker,
                      _resolve_terms(spec.lead, False, False)),
    ]


def _verdict_lines(view: Preview) -> list[str]:
    p, spec = view.prepared, view.spec
    shock = view.shock_defender_band
    if spec.kind is t.Kind.BOMBARDMENT:
        return [f"  ▸ {NO_BREAK_CHECK.upper()} — guns soften a target; they never take ground.",
                "  ▸ Your battery: no falter check — a bombardment has no break checks."]
    chance = view.break_permille
    side, sureness = verdict_words(chance)
    head = f"{side.upper()} — {sureness}"
    return [
        f"  ▸ {head} ({chance}‰).  "
        f"Resolve {p.resolve_defender} against shock {shock.low}–{shock.high}.",
        f"  ▸ Your {'fire' if spec.kind is t.Kind.REACTION else 'attack'} falters: "
        f"{chance_words(view.falter_permille)} "
        f"({view.falter_permille}‰).  Your resolve {p.resolve_attacker} against shock "
        f"{view.shock_attacker_band.low}–{view.shock_attacker_band.high}.",
    ]


def _consequence_lines(view: Preview) -> list[str]:
    spec = view.spec
    if spec.kind is t.Kind.BOMBARDMENT:
        return ["  Consequence: losses and disorder only; nobody moves."]
    lines = []
    if not view.defender_may_retreat:
        lines.append("  If they break they cannot retreat (city or works): they hold, shaken,"
                     " and the tile is not taken.")
    elif spec.encircled:
        lines.append("  They are cut off: if they break, the whole stack is destroyed.")
    else:
        lines.append("  If they break they fall back one tile. They are not cut off.")
    if view.destroyed_permille:
        lines.append(f"  Your lead is destroyed in {view.destroyed_permille}‰ of draws.")
    if spec.kind is t.Kind.ASSAULT and view.defender_may_retreat:
        if view.capture_possible and not stance_may_advance(spec.lead.stance):
            lines.append(f"  The tile is cleared in {view.win_permille}‰ of draws; a lead in "
                         f"{spec.lead.stance.value} does not advance, so you do not take it.")
        elif view.capture_possible:
            lines.append(f"  You take the tile: {view.capture_permille}‰.")
        else:
            lines.append(f"  The tile is cleared in {view.win_permille}‰ of draws; you take it "
                         "only in Advance or Hold with a movement point and room.")
    return lines


def _alternative_lines(view: Preview) -> list[str]:
    spec = view.spec
    lines = []
    for index, unit in enumerate(spec.supporters):
        others = spec.supporters[:index] + spec.supporters[index + 1:]
        alone = preview(spec.model_copy(update={"supporters": others}),
                        capture_possible=view.capture_possible,
                        defender_in_city=view.defender_in_city)
        lines.append(
            f"  Without support {index + 1} ({unit.role.value}): odds {alone.prepared.a} : "
            f"{alone.prepared.d}, they break {alone.break_permille}‰, you falter "
            f"{alone.falter_permille}‰, you lose {alone.la_band.low}–{alone.la_band.high}.")
    return lines


def _fog_lines(fog: FogPreview) -> list[str]:
    if not fog.unobserved:
        return []
    names = ", ".join(name.value for name in fog.unobserved)
    low, high = fog.ranges["break_permille"]
    la_low, la_high = fog.ranges["la_band"]
    lines = [f"  PROVISIONAL — not observed: {names}.",
             f"  Over everything they could be: they break {low}–{high}‰; you lose "
             f"{la_low}–{la_high} (your own losses depend on their power, not their nerve)."]
    lines += [f"  {pivot.describe()}" for pivot in fog.shown_pivots]
    if fog.estimated:
        lines.append(f"  Strength unobserved: automation plans with "
                     f"{fog.command_win_permille}‰.")
    return lines


def render_panel(view: Preview, fog: FogPreview | None = None) -> str:
    """The attack panel for a preview (and, under fog, its ranges and pivots)."""
    spec, p = view.spec, view.prepared
    floor = t.BOMBARD_STRENGTH_FLOOR if spec.kind is t.Kind.BOMBARDMENT else 0
    header = f"{spec.kind.value.upper()} — lead {spec.lead.role.value} → {spec.terrain.value}"
    if spec.volatility_floor != t.VOLATILITY_FLOOR_MEASURED:
        header += f"   [option: volatility floor {spec.volatility_floor}]"
    lines = [f"┌─ {header}", RULE]
    verdict = _verdict_lines(view)
    if fog is not None and fog.unobserved:  # the certainty below holds only for the assumed
        low, high = fog.ranges["break_permille"]  # values; say so where it is read first
        verdict[0] += f"  PROVISIONAL: {low}–{high}‰ over what is not observed."
    lines += verdict
    provisional = " (provisional)" if fog is not None and fog.unobserved else ""
    lines += [
        "",
        f"  THEY LOSE{provisional}  {_band(view.ld_band)}   →  "
        f"{_strength_left(spec.defender.strength, view.ld_band, floor)}",
        f"  YOU LOSE{provisional}   {_band(view.la_band)}   →  "
        f"{_strength_left(spec.lead.strength, view.la_band, 0)}",
        *_supporter_loss_lines(spec, view.la_band),
        "",
        f"  ODDS {p.a} : {p.d}          RELIABILITY ±{p.reliability}‰  "
        f"(volatility {p.volatility})",
        "",
    ]
    lines += _force_lines(spec, p)
    lines += _break_lines(spec, p)
    lines += ["", *_consequence_lines(view)]
    lines += _alternative_lines(view)
    if fog is not None:
        lines += ["", *_fog_lines(fog)]
    lines += [RULE, f"  exact over 1000 draws · {view.evaluations} evaluations · "
                    f"combat logic v{t.COMBAT_LOGIC_VERSION}"]
    return "\n".join(lines) + "\n"
