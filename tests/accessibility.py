"""Accessibility checks of a page in a real browser, with axe-core served from this machine.

A page passes when axe-core finds no violation of impact "serious" or "critical"; the test
fails naming each rule and the elements it found, so the fix can be found from the message.
"""

from __future__ import annotations

from typing import Any

from tests.system import axe_script

__all__ = ["BLOCKING_IMPACTS", "assert_accessible", "serious_violations"]

BLOCKING_IMPACTS = ("serious", "critical")


_SETTLED = """async () => {
  const ending = document.getAnimations().filter(
    (a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity);
  await Promise.all(ending.map((a) => a.finished.catch(() => null)));
}"""
"""Waits for every animation that ends (a step fading in): colours measured halfway through a
fade are not the page's colours, and axe-core would report their contrast."""


def serious_violations(page: Any) -> list[str]:
    """Run axe-core in `page` (a Playwright page) and describe each blocking violation."""
    # Evaluated through the browser's debugging channel, so the page's CSP (no inline script)
    # stays on and is checked as served; a script tag would be blocked by it.
    page.evaluate(axe_script())
    page.evaluate(_SETTLED)
    result = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] in BLOCKING_IMPACTS:
            targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
            found.append(
                f"{violation['id']} ({violation['impact']}): {violation['help']} at {targets}")
    return found


def assert_accessible(page: Any) -> None:
    """Fail with every serious or critical violation axe-core reports on the page."""
    found = serious_violations(page)
    assert not found, "axe-core: " + "; ".join(found)
