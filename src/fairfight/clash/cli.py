"""Command line of the clash ruleset: resolve, preview, rules, sweep, oracle, draw."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from fairfight.clash import tables as t
from fairfight.console import (
    console,
    emit_json,
    error_console,
    guarded,
)
from fairfight.core.errors import InputError, VerificationError
from fairfight.core.validation import is_plain_digits
from fairfight.inputs import load_json
from fairfight.luck_cli import luck_command
from fairfight.rules_cli import rules_command

if TYPE_CHECKING:  # the engine (and numpy) is imported only when a command runs
    from fairfight.clash.fog import FogRequest
    from fairfight.clash.spec import ClashSpec

__all__ = [
    "FOG_FIELDS",
    "SAMPLE_STRIDE",
    "app",
    "draw",
    "luck",
    "oracle",
    "preview_command",
    "resolve",
    "rules",
    "sweep",
]

app = typer.Typer(
    help="Deterministic integer combat: resolve a clash, preview its exact odds, check the rules.",
    no_args_is_help=True, add_completion=False,
)

SAMPLE_STRIDE = 41
"""The default sweep takes every 41st clash of the reference sweep (2,098 clashes)."""


FOG_FIELDS = ("strength", "disorder", "stance", "dig_in", "works")
"""The defender fields `--unobserved` takes (the values of `FogField`; a test keeps them equal)."""


def _load_spec(path: Path) -> ClashSpec:
    from fairfight.clash.spec import parse_spec

    return parse_spec(load_json(path))


def _print_json(value: Any) -> None:
    emit_json(value)


@contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr; yields a callback taking the count done so far."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=error_console, transient=False,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _parse_range(text: str | None, name: str) -> tuple[int, int] | None:
    if text is None:
        return None
    low, _, high = text.partition("-")
    if not (is_plain_digits(low) and is_plain_digits(high)):
        raise InputError(name, "write the range as LOW-HIGH, for example 40-100", text)
    return int(low), int(high)


def _fog_request(unobserved: str, strength_range: str | None,
                 disorder_range: str | None) -> FogRequest:
    from fairfight.clash.fog import FogRequest, parse_fog_fields

    return FogRequest(parse_fog_fields(unobserved.split(","), "--unobserved"),
                      _parse_range(strength_range, "--strength-range"),
                      _parse_range(disorder_range, "--disorder-range"))


def _resolution_text(outcome_json: dict[str, Any]) -> str:
    o = outcome_json
    after = o["after"]
    lines = [
        f"draw r = {o['r']}   contributions lead {o['contributions']['lead']}, supporters "
        f"{o['contributions']['supporters']}, defender {o['contributions']['defender']}",
        f"A {o['a']} : D {o['d']}   volatility {o['volatility']}   reliability "
        f"±{o['reliability']}‰",
        f"resolve: attacker {o['resolve_attacker']}, defender {o['resolve_defender']}",
        f"s {o['s']}   A_eff {o['a_eff']}   D_eff {o['d_eff']}   share {o['share_a']} / "
        f"{o['share_d']}",
        f"losses: defender {o['ld']}, lead {o['la']}",
        f"shock: defender {o['shock_defender']} (flank {o['flank_shock']}, stance "
        f"{o['stance_shock_to_defender']}), attacker {o['shock_attacker']}",
        f"defender breaks: {'yes' if o['defender_breaks'] else 'no'}   attacker falters: "
        f"{'yes' if o['attacker_falters'] else 'no'}   defender {o['fate']}",
        f"after: lead {after['lead']['strength']} strength / {after['lead']['disorder']} "
        f"disorder; defender {after['defender']['strength']} / "
        f"{after['defender']['disorder']}",
    ]
    for index, unit in enumerate(after["supporters"], start=1):
        lines.append(f"       support {index} {unit['strength']} / {unit['disorder']}")
    return "\n".join(lines)


@app.command()
@guarded
def resolve(
    spec_file: Path = typer.Argument(..., help="Clash specification (JSON)."),
    r: int = typer.Option(..., "--r", help="The draw, 0..999."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Resolve one clash at a given draw and show every intermediate quantity."""
    from fairfight.clash.exchange import check_draw, resolve_exchange
    from fairfight.clash.panel import reconcile
    from fairfight.clash.preview import preview

    spec = _load_spec(spec_file)
    resolved = resolve_exchange(spec, check_draw(r))
    outcome = resolved.to_json()
    if as_json:
        _print_json(outcome)
    else:
        console.print(_resolution_text(outcome), markup=False)
        console.print(reconcile(preview(spec), resolved).text, markup=False)


@app.command("preview")
@guarded
def preview_command(
    spec_file: Path = typer.Argument(..., help="Clash specification (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    unobserved: str = typer.Option(
        "", help="Defender fields not observed, comma-separated: "
        + ",".join(FOG_FIELDS)),
    strength_range: str = typer.Option(None, help="Possible defender strengths, LOW-HIGH."),
    disorder_range: str = typer.Option(None, help="Possible defender disorder, LOW-HIGH."),
    capture: bool = typer.Option(False, "--capture",
                                 help="The lead has a movement point and room to advance."),
) -> None:
    """The exact preview: the attack panel, or its figures as JSON."""
    from fairfight.clash.evaluation import evaluate
    from fairfight.clash.readout import format_panel

    evaluated = evaluate(_load_spec(spec_file),
                         _fog_request(unobserved, strength_range, disorder_range),
                         capture_possible=capture)
    if as_json:
        _print_json(evaluated.fog.to_json() if evaluated.fog else evaluated.preview.to_json())
    else:
        console.print(format_panel(evaluated.panel), markup=False, end="")


rules = rules_command(app, "clash", "fairfight.clash.rules_page:rules_page")
luck = luck_command(app, "fairfight.clash.luck:record_report")


@app.command()
@guarded
def sweep(
    full: bool = typer.Option(False, "--full", help="All 86,016 clashes x 1000 draws."),
    workers: int = typer.Option(2, "--jobs", "--workers", min=1, max=64,
                                help="Processes to use (--workers is the older name)."),
    scheduler: str | None = typer.Option(
        None, "--scheduler", help="A dask.distributed scheduler address (tcp://host:8786)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check that every exchange quantity is monotone in the draw (CB-2150, CB-2670)."""
    import numpy as np

    from fairfight.clash.corpus import SWEEP_SIZE
    from fairfight.clash.invariants import run_sweep
    from fairfight.core.executor import executor_for

    executor = executor_for(1, scheduler) if scheduler is not None else None
    indices = np.arange(0, SWEEP_SIZE, 1 if full else SAMPLE_STRIDE, dtype=np.int64)
    started = time.perf_counter_ns()
    with _progress("monotonicity sweep", int(indices.shape[0])) as progress:
        report = run_sweep(indices, workers=workers, progress=progress, executor=executor)
    elapsed_ms = (time.perf_counter_ns() - started) // 1_000_000
    summary = {"clashes": report.clashes, "evaluations": report.evaluations,
               "violations": report.violations, "elapsed_ms": elapsed_ms,
               "passed": report.passed}
    if as_json:
        _print_json(summary)
    else:
        console.print(f"{report.clashes:,} clashes × {t.DRAWS} draws = "
                      f"{report.evaluations:,} evaluations in {elapsed_ms:,} ms; "
                      f"violations: {sum(report.violations.values())}", markup=False)
    if not report.passed:
        raise VerificationError("sweep", f"monotonicity violated: {report.violations}")


@app.command()
@guarded
def oracle(
    consequences: int | None = typer.Option(
        None, "--consequences", min=1, max=10_000_000,
        help="Instead: compare the preview's consequences (fates, capture, advance) with "
             "the resolution's at all 1000 draws on this many random clashes."),
    seed: int = typer.Option(0, "--seed", min=0, help="Seed of the random clashes."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Check the bisection preview against brute force over all 1000 draws (CB-2690)."""
    if consequences is not None:
        _consequence_oracle(consequences, seed, as_json)
        return
    from fairfight.clash.corpus import oracle_specs
    from fairfight.clash.invariants import run_oracle

    specs = oracle_specs()
    with _progress("oracle corpus", len(specs)) as progress:
        report = run_oracle(specs, progress=progress)
    summary = {"cases": report.cases, "mismatches": len(report.mismatches),
               "most_evaluations": report.most_evaluations, "passed": report.passed,
               "first_mismatches": [list(item) for item in report.mismatches[:10]]}
    if as_json:
        _print_json(summary)
    else:
        console.print(f"{report.cases:,} specifications: {len(report.mismatches)} mismatches; "
                      f"at most {report.most_evaluations} evaluations per preview",
                      markup=False)
    if not report.passed:
        raise VerificationError("oracle", f"{len(report.mismatches)} mismatches")


def _consequence_oracle(n: int, seed: int, as_json: bool) -> None:
    from fairfight.clash.consequence_oracle import run_consequence_oracle

    started = time.perf_counter_ns()
    with _progress("consequences oracle", n) as progress:
        report = run_consequence_oracle(n, seed, progress=progress)
    elapsed_ms = (time.perf_counter_ns() - started) // 1_000_000
    summary = {"cases": report.cases, "by_kind": report.by_kind, "seed": seed,
               "differences": len(report.differences), "elapsed_ms": elapsed_ms,
               "passed": report.passed,
               "first_differences": [
                   {"case": case, "resolution": truth.to_json(), "preview": shown.to_json()}
                   for case, truth, shown in report.differences[:10]]}
    if as_json:
        _print_json(summary)
    else:
        kinds = ", ".join(f"{count:,} {kind}" for kind, count in report.by_kind.items())
        console.print(f"{report.cases:,} random clashes ({kinds}), each at all {t.DRAWS} "
                      f"draws: {len(report.differences)} differences between the preview's "
                      f"consequences and the resolution's", markup=False)
    if not report.passed:
        raise VerificationError("oracle", f"{len(report.differences)} differences")


@app.command()
@guarded
def draw(
    key: str = typer.Argument(..., help="The game's seed key."),
    turn: int = typer.Argument(..., min=0, help="The turn number, from 0."),
    initiator: int = typer.Argument(..., min=0, help="Creation sequence of the initiator."),
    ordinal: int = typer.Argument(..., min=0, help="Clashes it already resolved this turn."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Print the draw r of one engagement (CB-800)."""
    from fairfight.clash.draws import draw_r

    try:
        value = draw_r(key, turn, initiator, ordinal)
    except ValueError as error:
        raise InputError("key", str(error)) from None
    if as_json:
        emit_json({"r": value})
    else:
        typer.echo(str(value))


from fairfight.clash.world_cli import register as _register_world  # noqa: E402

_register_world(app)
