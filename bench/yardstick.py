"""Build and run the C yardsticks in `bench/c/` (when gcc is present), for same-run ratios."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

SOURCES = Path(__file__).parent / "c"
_BUILD = Path(tempfile.gettempdir()) / "fairfight-bench-c"


def build(source: str, output: str, *flags: str) -> Path | None:
    """Compile bench/c/`source` to an executable (None when gcc is missing or fails)."""
    compiler = shutil.which("gcc")
    if compiler is None:
        return None
    _BUILD.mkdir(exist_ok=True)
    target = _BUILD / output
    command = [compiler, "-O2", "-march=native", *flags, "-o", str(target),
               str(SOURCES / source), "-lm"]
    if subprocess.run(command, capture_output=True, check=False).returncode != 0:
        return None
    return target


def run(program: Path, *arguments: str | int | Path) -> str:
    """The program's standard output."""
    done = subprocess.run([str(program), *map(str, arguments)], capture_output=True, text=True,
                          check=True)
    return done.stdout


def number_after(text: str, label: str) -> float:
    """The number that follows `label` in a yardstick's output."""
    found = re.search(re.escape(label) + r"\s*([0-9.]+)", text)
    if found is None:
        raise ValueError(f"no {label!r} in the yardstick's output: {text[:200]}")
    return float(found.group(1))
