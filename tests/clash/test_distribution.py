"""The whole distribution of strength after a clash, exact over the 1000 draws, on the panel.

The brute force resolves the clash at every one of the 1000 draws and counts; the panel's
bars, its falling-below chances and the text readout must show exactly those counts.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from fairfight.clash import tables as t
from fairfight.clash.distribution import StrengthAfter, draw_classes, strength_after
from fairfight.clash.evaluation import evaluate
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.fog import FogRequest
from fairfight.clash.readout import format_panel
from fairfight.clash.spec import ClashSpec, parse_spec

from .factories import ARMOUR, BATTERY, RIFLES, SCOUTS, spec, unit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "clash"


def _example(name: str) -> ClashSpec:
    return parse_spec(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))


CASES = [
    _example("worked-example.json"),
    _example("siege-bombardment.json"),
    _example("reaction-ambush.json"),
    spec(unit(ARMOUR, grade=t.Grade.ELITE), unit(SCOUTS, strength=12), encircled=True),
    spec(unit(RIFLES, strength=9), unit(ARMOUR, stance=t.Stance.ENTRENCH)),
    spec(unit(BATTERY), unit(RIFLES, strength=3), kind=t.Kind.BOMBARDMENT),
]


def brute(chosen: ClashSpec) -> tuple[Counter[int], Counter[int]]:
    """Strength after the clash of the defender and of the lead, at every draw."""
    outcomes = [resolve_exchange(chosen, r) for r in range(t.DRAWS)]
    return (Counter(o.defender.strength for o in outcomes),
            Counter(o.lead.strength for o in outcomes))


@pytest.mark.parametrize("chosen", CASES)
def test_the_distribution_is_the_count_at_every_draw(chosen: ClashSpec) -> None:
    defender, lead = brute(chosen)
    after = strength_after(chosen)
    assert after.defender == tuple(sorted(defender.items()))
    assert after.lead == tuple(sorted(lead.items()))
    for mark in (1, 25, 50, 75, 101):
        assert after.defender_below(mark) == sum(n for s, n in defender.items() if s < mark)
        assert after.lead_below(mark) == sum(n for s, n in lead.items() if s < mark)


def test_a_routed_defender_is_left_at_nothing() -> None:
    """Encircled, a breaking scout is destroyed with its stack (CB-1420): strength 0."""
    after = strength_after(CASES[3])
    assert dict(after.defender).get(0, 0) == sum(
        resolve_exchange(CASES[3], r).fate.value in ("routed", "destroyed")
        for r in range(t.DRAWS))
    assert after.defender_below(1) > 0


def test_the_classes_cover_every_draw_once() -> None:
    for classes in draw_classes(CASES):
        assert sum(draws for _, draws in classes) == t.DRAWS
        firsts = [r for r, _ in classes]
        assert firsts == sorted(firsts) and firsts[0] == 0


def test_below_counts_strictly_below() -> None:
    counts = ((10, 300), (20, 700))
    assert [StrengthAfter.below(counts, x) for x in (10, 11, 20, 21)] == [0, 300, 300, 1000]


def test_the_panel_carries_both_distributions_and_the_readout_shows_them() -> None:
    worked = CASES[0]
    panel = evaluate(worked, FogRequest(())).panel
    defender, lead = brute(worked)
    theirs, yours = panel.their_strength_after, panel.your_strength_after
    assert [(bar.strength, bar.draws) for bar in theirs.after] == sorted(defender.items())
    assert [(bar.strength, bar.draws) for bar in yours.after] == sorted(lead.items())
    assert (theirs.side, theirs.before, yours.side, yours.before) == ("they", 78, "you", 92)
    assert [b.below for b in theirs.falls_below] == [75, 50, 25, 1]
    below_50 = sum(n for s, n in defender.items() if s < 50)
    assert theirs.falls_below[1].permille == below_50
    assert theirs.falls_below[1].text == f"below 50: likely ({below_50}‰)"
    text = format_panel(panel)
    assert "STRENGTH AFTER THE CLASH, draws out of 1000" in text
    assert f"52 ({defender[52]}‰)" in text and f"below 50: likely ({below_50}‰)" in text
    # the JSON twin has the same integers
    data = panel.model_dump(mode="json")
    assert sum(bar["draws"] for bar in data["their_strength_after"]["after"]) == t.DRAWS


def test_marks_above_the_strength_before_are_left_out() -> None:
    panel = evaluate(CASES[4], FogRequest(())).panel
    assert [b.below for b in panel.your_strength_after.falls_below] == [1]
