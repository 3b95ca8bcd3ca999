"""start-up: `fairfight --help` and `fairfight <ruleset> --help` against a minimal typer app
printing its help, each the best of several fresh interpreter runs (target: within 1.5x)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

MINIMAL_APP = '''
import typer

app = typer.Typer()


@app.command()
def hello(name: str = "world", times: int = 1) -> None:
    """Say hello."""
    typer.echo(name)


app()
'''
REPEATS = 5


def _best(arguments: list[str]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run([sys.executable, *arguments], capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        minimal = Path(scratch) / "minimal_app.py"
        minimal.write_text(MINIMAL_APP, encoding="utf-8")
        baseline = _best([str(minimal), "--help"])
    print(f"{'minimal typer app --help (baseline)':<48} {baseline * 1000:>10,.0f} ms", flush=True)
    for words in ([], ["clash"], ["conquest"], ["ballot"], ["warscore"]):
        seconds = _best(["-m", "fairfight", *words, "--help"])
        label = " ".join(["fairfight", *words, "--help"])
        print(f"{label:<48} {seconds * 1000:>10,.0f} ms  ({seconds / baseline:.2f}x baseline)",
              flush=True)


if __name__ == "__main__":
    main()
