"""The attack panel: the order of CB-2390 and the figures of the section 23 panel."""

from __future__ import annotations

import re
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.fog import FogField, preview_under_fog
from fairfight.clash.preview import preview
from fairfight.clash.readout import render_panel
from fairfight.clash.spec import ClashSpec
from fairfight.clash.verdict import chance_words

from .factories import BATTERY, RIFLES, spec, unit


def _squeeze(text: str) -> str:
    return re.sub(r"[ \t]+", " ", text)


def test_section_23_panel_figures(worked: dict[str, Any], worked_spec: ClashSpec) -> None:
    panel = _squeeze(render_panel(preview(worked_spec)))
    for figure in worked["preview"]["panel_lines"]:
        assert figure in panel
    assert "THEY LOSE 26 ── 34 ── 41" in panel and "YOU LOSE 14 ── 19 ── 25" in panel
    assert "certain (1000‰)" in panel and "Resolve 29 against shock 40–55" in panel
    assert "falters: never (0‰)" in panel
    # line items with their sources, as in the printed panel
    for item in ("+180 veteran", "+50 full supply", "−300 armor in forest", "+80 trained",
                 "−150 gun in forest", "+250 advance", "+120 combined arms (armor + gun)",
                 "+150 foot in forest", "+400 forest cover", "+300 entrench",
                 "+200 dug in ×2", "base 48 × 400‰", "53", "18", "39"):
        assert item in panel, item


def test_panel_order_cb2390(worked_spec: ClashSpec) -> None:
    panel = render_panel(preview(worked_spec))
    order = ["THEY BREAK", "falters", "THEY LOSE", "YOU LOSE", "ODDS", "RELIABILITY",
             "YOUR FORCE", "THEIR FORCE", "fall back", "Without support 1"]
    positions = [panel.index(marker) for marker in order]
    assert positions == sorted(positions)


def test_falter_is_always_shown_and_bombardment_says_why() -> None:
    bombard = spec(unit(BATTERY), unit(RIFLES), kind=t.Kind.BOMBARDMENT)
    panel = render_panel(preview(bombard))
    assert "no falter check" in panel and "NO BREAK CHECK" in panel
    assert "0‰" not in panel.split("NO BREAK CHECK")[1].split("\n")[1]


def test_fog_lines(worked_spec: ClashSpec) -> None:
    fog = preview_under_fog(worked_spec, [FogField.GRADE, FogField.SUPPLY_TIER])
    panel = render_panel(fog.nominal, fog)
    assert "PROVISIONAL" in panel and "they break 44–1000‰" in panel
    assert ("veteran 885‰, elite 125‰ — the verdict changes at veteran (they break — "
            "likely)." in panel)
    assert "full 1000‰ — does not change the verdict." in panel
    assert "not their nerve" in panel


def test_chance_words() -> None:
    assert [chance_words(p) for p in (0, 1, 150, 500, 700, 950, 1000)] == [
        "never", "remote", "unlikely", "a coin toss", "likely", "very likely", "certain"]


def test_panel_names_every_break_term(worked_spec: ClashSpec) -> None:
    """CB-2410: flankers and each shock and resolve term are listed with their source
    (section 23, Steps 4 and 7: resolve 40 + 15 - 15 - 11 = 29 and 40 + 12 - 10 - 4 = 38;
    shock 8 from one flanker, 6 from Advance, 10 from Entrench)."""
    panel = _squeeze(render_panel(preview(worked_spec)))
    assert "their shock loss +8 flanking (1 adjacent, 1 counted) +6 advance" in panel
    assert "their resolve 29 40 base +15 entrench −15 disorder −11 strength 78" in panel
    assert "your shock loss +10 entrench" in panel
    assert "your resolve 38 40 base +12 veteran −10 advance −4 strength 92" in panel
    crowded = worked_spec.model_copy(update={"flankers": 6})
    assert "+32 flanking (6 adjacent, 4 counted)" in _squeeze(render_panel(preview(crowded)))
    positions = [render_panel(preview(worked_spec)).index(marker)
                 for marker in ("THEIR FORCE", "BREAK CHECKS", "fall back")]
    assert positions == sorted(positions)
    worn = worked_spec.model_copy(
        update={"defender": worked_spec.defender.model_copy(update={"disorder": 90})})
    assert "their resolve 5 40 base +15 entrench −90 disorder −11 strength 78 (held within 5–95)" \
        in _squeeze(render_panel(preview(worn)))


def test_consequence_says_an_entrenched_lead_does_not_take_the_tile(
        worked_spec: ClashSpec) -> None:
    """CB-1080, CB-2390 item 5: whether you take the tile, with the reason when you do not."""
    entrenched = worked_spec.model_copy(
        update={"lead": worked_spec.lead.model_copy(update={"stance": t.Stance.ENTRENCH})})
    panel = _squeeze(render_panel(preview(entrenched, capture_possible=True)))
    assert "a lead in entrench does not advance, so you do not take it" in panel
    assert "You take the tile: 1000‰" in _squeeze(
        render_panel(preview(worked_spec, capture_possible=True)))


def test_fog_marks_the_verdict_and_bands_provisional(worked_spec: ClashSpec) -> None:
    """Under fog the top of the panel never states a certainty the fog block contradicts."""
    fog = preview_under_fog(worked_spec, [FogField.GRADE, FogField.SUPPLY_TIER])
    lines = render_panel(fog.nominal, fog).splitlines()
    verdict = next(line for line in lines if "THEY BREAK" in line or "THEY HOLD" in line)
    assert "PROVISIONAL: 44–1000‰" in verdict
    assert any(line.startswith("  THEY LOSE (provisional)") for line in lines)
    assert any(line.startswith("  YOU LOSE (provisional)") for line in lines)
    clear = render_panel(preview(worked_spec))
    assert "provisional" not in clear.lower()


def test_panel_lists_supporter_losses(worked_spec: ClashSpec) -> None:
    """Section 23: the lead loses 14-25, so the supporter (strength 100) loses
    floor(14 x 400 / 1000) = 5 to floor(25 x 400 / 1000) = 10 [CB-900]."""
    panel = _squeeze(render_panel(preview(worked_spec)))
    assert "SUPPORT 1 loses 5–10 → 100 drops to 90–95" in panel
