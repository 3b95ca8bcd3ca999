"""The attack panel as text, in the order the rules fix [CB-2390].

`format_panel` lays out an `AttackPanel` (built by `panel.attack_panel`) for a terminal; it
computes no figure. The falter chance is always printed, even at 0 per-mille [CB-2400].
"""

from __future__ import annotations

from fairfight.clash.fog import FogPreview
from fairfight.clash.panel import attack_panel
from fairfight.clash.panel_model import (
    AttackPanel,
    BandView,
    Force,
    Item,
    Resolve,
    StrengthAfterView,
    UnitLine,
)
from fairfight.clash.preview import Preview

__all__ = [
    "RULE",
    "format_panel",
    "render_panel",
]

RULE = "─" * 78


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def _band(band: BandView) -> str:
    low, median, high = band.band
    return (f"{low:>3} ── {median:>3} ── {high:>3}   →  {band.strength} drops to "
            f"{band.left[0]}–{band.left[1]}")


def _wrapped(head: str, parts: list[str], indent: int) -> list[str]:
    """`head` then the parts joined by " · ", wrapped under the first part at 78 columns."""
    lines, line = [], head
    for part in parts:
        piece = part if line.endswith(" ") or line == head else f" · {part}"
        if len(line) + len(piece) > 78 and line.strip():
            lines.append(line)
            line, piece = " " * indent, part
        line += piece
    return [*lines, line]


def _strength_after(label: str, view: StrengthAfterView) -> list[str]:
    """One side's distribution of strength after the clash and its falling-below chances."""
    head = f"  {label} {view.unit} ({view.before}) left at  "
    return [*_wrapped(head, [f"{bar.strength} ({bar.draws}‰)" for bar in view.after], 6),
            *_wrapped("      ", [below.text for below in view.falls_below], 6)]


def _terms(items: list[Item]) -> str:
    return "  ".join(f"{_signed(item.value)} {item.source}" for item in items)


def _unit_lines(unit: UnitLine) -> list[str]:
    return [f"    {unit.label:<10}{unit.role:<7}{unit.stance:<10}{unit.strength:>4}  "
            f"{unit.grade:<9}{unit.supply:<10}{unit.contribution:>5}   {unit.base}",
            f"{'':14}{_terms(unit.terms) or 'no modifiers'}"]


def _force_lines(title: str, power: str, force: Force, label: str, width: int) -> list[str]:
    lines = [f"  {title}{power:>56}{force.power:>{width}}"]
    for unit in force.units:
        lines += _unit_lines(unit)
    lines.append(f"    {label:<10}{_terms(force.terms)}   = {_signed(force.total)}‰")
    return lines


def _resolve_line(label: str, resolve: Resolve) -> str:
    shown = [f"{item.value} {item.source}" if item.source == "base"
             else f"{_signed(item.value)} {item.source}" for item in resolve.terms]
    low, high = resolve.limits
    held = f"   (held within {low}–{high})" if resolve.held else ""
    return f"    {label:<14}{resolve.total:>3}   {'  '.join(shown)}{held}"


def _break_lines(panel: AttackPanel) -> list[str]:
    """What feeds each break check: the fixed shock terms beside the loss, and each resolve,
    term by term [CB-2410]."""
    checks = panel.break_checks
    if checks is None:
        return []
    return [
        "", "  BREAK CHECKS",
        f"    {'their shock':<14}{'  '.join(['loss', _terms(checks.their_shock)]).strip()}",
        _resolve_line("their resolve", checks.their_resolve),
        f"    {'your shock':<14}{'  '.join(['loss', _terms(checks.your_shock)]).strip()}",
        _resolve_line("your resolve", checks.your_resolve),
    ]


def _verdict_lines(panel: AttackPanel) -> list[str]:
    verdict, falter = panel.verdict, panel.falter
    head = f"  ▸ {verdict.shouted()}"
    if verdict.shock is not None:
        head += f"  Resolve {verdict.resolve} against shock {verdict.shock[0]}–{verdict.shock[1]}."
    if panel.fog is not None:  # the certainty above holds only for the assumed values
        low, high = panel.fog.break_range
        head += f"  PROVISIONAL: {low}–{high}‰ over what is not observed."
    tail = f"  ▸ {falter.text}"
    if falter.shock is not None:
        tail += (f"  Your resolve {falter.resolve} against shock "
                 f"{falter.shock[0]}–{falter.shock[1]}.")
    return [head, tail]


def _fog_lines(panel: AttackPanel) -> list[str]:
    fog = panel.fog
    if fog is None:
        return []
    lines = ["", f"  PROVISIONAL — not observed: {', '.join(fog.provisional)}.",
             f"  {fog.summary}", f"  {panel.own_losses_note}"]
    lines += [f"  {pivot.text}" for pivot in fog.pivots]
    if fog.estimated:
        lines.append(f"  Strength unobserved: automation plans with "
                     f"{fog.command_win_permille}‰.")
    return lines


def format_panel(panel: AttackPanel) -> str:
    """The attack panel laid out for a terminal."""
    header = panel.title + (f"   [option: {panel.option}]" if panel.option else "")
    provisional = " (provisional)" if panel.provisional else ""
    lines = [f"┌─ {header}", RULE, *_verdict_lines(panel), "",
             f"  THEY LOSE{provisional}  {_band(panel.they_lose)}",
             f"  YOU LOSE{provisional}   {_band(panel.you_lose)}"]
    lines += [f"  {loss.label.upper()}  loses {loss.low}–{loss.high}   →  {loss.strength} "
              f"drops to {loss.left[0]}–{loss.left[1]}" for loss in panel.supporters_lose]
    lines += ["", f"  STRENGTH AFTER THE CLASH{provisional}, draws out of 1000",
              *_strength_after("THEY", panel.their_strength_after),
              *_strength_after("YOU", panel.your_strength_after)]
    lines += ["", f"  ODDS {panel.odds[0]} : {panel.odds[1]}          RELIABILITY "
                  f"±{panel.reliability}‰  (volatility {panel.volatility})", ""]
    lines += _force_lines("YOUR FORCE", "attack power", panel.your_force, "force", 7)
    lines += ["", *_force_lines("THEIR FORCE", "defence power", panel.their_force, "position",
                                6)]
    lines += _break_lines(panel)
    lines += ["", *(f"  {line}" for line in panel.consequence)]
    if panel.reconciliation is not None:
        lines.append(f"  Resolved at {panel.reconciliation.text}")
    lines += [f"  Without {alt.without}: odds {alt.a} : {alt.d}, they break "
              f"{alt.break_permille}‰, you falter {alt.falter_permille}‰, you lose "
              f"{alt.la_band[0]}–{alt.la_band[2]}." for alt in panel.alternatives]
    lines += _fog_lines(panel)
    lines += [RULE, f"  exact over 1000 draws · {panel.evaluations} evaluations · "
                    f"combat logic v{panel.combat_logic_version}"]
    return "\n".join(lines) + "\n"


def render_panel(view: Preview, fog: FogPreview | None = None) -> str:
    """The text panel of a preview (and, under fog, its ranges and pivots)."""
    return format_panel(attack_panel(view, fog))
