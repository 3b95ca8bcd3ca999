"""The wording of the verdict line, the first thing the attack panel says [CB-2390].

One home for it, because more than the panels read it: a fog pivot's threshold is the first
value at which this wording changes [CB-2340], so the text panel, the web panel and the pivot
analysis must all word a break chance the same way.
"""

from __future__ import annotations

from fairfight.clash import tables as t

__all__ = [
    "CHANCE_WORDS",
    "NO_BREAK_CHECK",
    "chance_words",
    "verdict_breaks",
    "verdict_text",
    "verdict_words",
]

NO_BREAK_CHECK = "No break check"
"""A bombardment's verdict: it has no break checks [CB-1020]."""

CHANCE_WORDS = (
    (0, "never"), (99, "remote"), (399, "unlikely"), (599, "a coin toss"),
    (899, "likely"), (999, "very likely"), (t.DRAWS, "certain"),
)
"""Plain words for a per-mille chance: the first row whose bound is not below it."""


def chance_words(permille: int) -> str:
    """A chance in plain words, for the verdict and falter lines."""
    return next(words for bound, words in CHANCE_WORDS if permille <= bound)


def verdict_breaks(break_permille: int) -> bool:
    """Whether the verdict says "they break": from an even chance up."""
    return break_permille * 2 >= t.DRAWS


def verdict_words(break_permille: int) -> tuple[str, str]:
    """The verdict on a break chance: who gives way ("they break" from an even chance up,
    else "they hold") and how sure that is, in words."""
    words = chance_words(break_permille)
    if verdict_breaks(break_permille):
        return "they break", words
    return "they hold", f"a break is {words}"


def verdict_text(break_permille: int, *, checked: bool = True) -> str:
    """The verdict line's wording as a sentence head, e.g. "They break — certain" (for a
    clash without break checks, `NO_BREAK_CHECK`)."""
    if not checked:
        return NO_BREAK_CHECK
    side, sureness = verdict_words(break_permille)
    return f"{side.capitalize()} — {sureness}"
