"""start-up: `fairfight --help` and `fairfight <ruleset> --help` against a minimal typer app
printing its help, each the best of several fresh interpreter runs (target: within 1.5x), in
wall time and in CPU time (the child's user and system seconds): on a machine shared with
other work the wall figures swing with the load, the CPU figures much less."""

from __future__ import annotations

import resource
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


def _best(arguments: list[str]) -> tuple[float, float]:
    """The least wall seconds and the least CPU seconds over REPEATS runs."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(REPEATS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, *arguments], capture_output=True, check=True)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best_cpu = min(best_cpu, after.ru_utime + after.ru_stime
                       - before.ru_utime - before.ru_stime)
    return best, best_cpu


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        minimal = Path(scratch) / "minimal_app.py"
        minimal.write_text(MINIMAL_APP, encoding="utf-8")
        baseline, baseline_cpu = _best([str(minimal), "--help"])
    print(f"{'minimal typer app --help (baseline)':<48} {baseline * 1000:>10,.0f} ms "
          f"({baseline_cpu * 1000:,.0f} ms of CPU)", flush=True)
    for words in ([], ["clash"], ["conquest"], ["ballot"], ["warscore"]):
        seconds, cpu = _best(["-m", "fairfight", *words, "--help"])
        label = " ".join(["fairfight", *words, "--help"])
        print(f"{label:<48} {seconds * 1000:>10,.0f} ms  ({seconds / baseline:.2f}x baseline; "
              f"CPU {cpu * 1000:,.0f} ms, {cpu / baseline_cpu:.2f}x)", flush=True)


if __name__ == "__main__":
    main()
