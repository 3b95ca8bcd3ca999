"""No module in src/ is over 600 lines: a longer one holds more than one idea and is split.

Two exceptions: `conquest/record/engine.js`, because the browser verifier ships as a single script,
and `conquest/rules/engine.py`, whose rules (a battle, the ledger, rebellions, the board) call one
another on every step and are read as one by anyone verifying a season; it is held to 1,000.
"""

from __future__ import annotations

from pathlib import Path

import fairfight

SOURCE = Path(fairfight.__file__).parent
MOST_LINES = 600
EXCEPTIONS = {Path("conquest/record/engine.js"): None, Path("conquest/rules/engine.py"): 1_000}
"""Module -> its own limit (None: no limit)."""


def line_counts() -> dict[Path, int]:
    """Lines of every Python and JavaScript module under src/fairfight, by relative path."""
    return {
        path.relative_to(SOURCE): len(path.read_text(encoding="utf-8").splitlines())
        for suffix in ("*.py", "*.js")
        for path in SOURCE.rglob(suffix)
    }


def test_no_module_is_over_600_lines() -> None:
    too_long = {
        str(path): n
        for path, n in line_counts().items()
        if (limit := EXCEPTIONS.get(path, MOST_LINES)) is not None and n > limit
    }
    assert not too_long, f"modules over their limit ({MOST_LINES} lines): {too_long}"


def test_the_count_covers_the_tree() -> None:
    counts = line_counts()
    assert Path("ballot/human.py") in counts and Path("conquest/record/engine.js") in counts
    assert all(n > 0 for path, n in counts.items() if path.name != "__init__.py")
