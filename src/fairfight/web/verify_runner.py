"""Verify an uploaded season archive in a child process with CPU-time, memory and wall limits.

The verifier replays a whole season; on a hostile archive that can mean minutes of CPU or a
gigabyte of memory. Run in the service's own process it would freeze the event loop and grow
the server, so the service runs it here instead: `python -m fairfight.web.verify_runner`, which
sets its own limits with `resource.setrlimit` before it reads anything, a wall timeout in the
parent, and the verdict sent back as one JSON line. `run_verifier` is an ordinary blocking call,
so a caller can put it behind whatever worker pool bounds how many run at once.
"""

from __future__ import annotations

import enum
import errno
import json
import logging
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "Limits",
    "Outcome",
    "VERIFY_CPU_SECONDS",
    "VERIFY_MEMORY_BYTES",
    "VERIFY_OUTPUT_BYTES",
    "VERIFY_WALL_SECONDS",
    "Verdict",
    "Witnessed",
    "main",
    "run_verifier",
]

VERIFY_CPU_SECONDS = 60
"""CPU seconds one verification may use: a long real season replays in a few seconds; a
million-contribution ledger fits; a forged season of endless work is stopped."""
VERIFY_WALL_SECONDS = 120
"""Wall seconds before the child is killed: twice its CPU budget, for a busy machine."""
VERIFY_MEMORY_BYTES = 1024 * 1024 * 1024
"""Address space of the child: the interpreter, the archive's files (at most
`records.MAX_ARCHIVE_BYTES`) and the replay's state, with room to spare."""
VERIFY_OUTPUT_BYTES = 256 * 1024
"""Most bytes of the child's answer read back (notes and one mismatch line are a few KB)."""
_log = logging.getLogger("fairfight.web")


class Outcome(enum.StrEnum):
    """How a verification ended, as the route maps it to a status."""

    VERIFIED = "verified"
    """The record replays exactly: 200 with the notes."""
    MISMATCH = "mismatch"
    """The verifier named a first difference: 200 with it (the verdict is the answer)."""
    REFUSED = "refused"
    """The input itself was refused (a bad file, not a record): 422."""
    TOO_COSTLY = "too-costly"
    """The child ran out of its CPU or memory budget: 413, verify it on your own computer."""
    TIMED_OUT = "timed-out"
    """The child ran out of wall time (a busy machine): 503, try again later."""
    BROKEN = "broken"
    """The child stopped without a verdict (a fault of the verifier, logged): 422."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the child reported (or what became of it)."""

    outcome: Outcome
    place: str = ""
    detail: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Limits:
    """The budget of one verification (the defaults above; tests pass smaller ones)."""

    cpu_seconds: int = VERIFY_CPU_SECONDS
    memory_bytes: int = VERIFY_MEMORY_BYTES
    wall_seconds: float = VERIFY_WALL_SECONDS


def _limit_child(cpu_seconds: int, memory_bytes: int) -> None:
    """The child's own CPU time and address space, set before it reads the archive (set by the
    child itself rather than by `preexec_fn`, which is unsafe in a threaded server)."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


@dataclass(frozen=True)
class Witnessed:
    """Saved checkpoints and what they must carry: cosignatures by `quorum` of `witnesses`."""

    checkpoints: Sequence[Path] = ()
    witnesses: Sequence[str] = ()
    quorum: int = 0


def _command(archive: Path, receipts: Sequence[Path], heads: Sequence[Path],
             limits: Limits, witnessed: Witnessed) -> list[str]:
    options = [item for path in receipts for item in ("--receipt", str(path))]
    options += [item for path in heads for item in ("--head", str(path))]
    options += [item for path in witnessed.checkpoints for item in ("--checkpoint", str(path))]
    options += [item for vkey in witnessed.witnesses for item in ("--witness", vkey)]
    options += ["--quorum", str(witnessed.quorum)]
    return [sys.executable, "-m", "fairfight.web.verify_runner", str(limits.cpu_seconds),
            str(limits.memory_bytes), str(archive), *options]


_OUT_OF_MEMORY = 3
"""The child's exit status when a MemoryError stopped it."""


def _budget_spent(returncode: int) -> bool:
    """A child stopped by its CPU limit (SIGXCPU, then SIGKILL) or that ran out of memory."""
    return returncode in (-signal.SIGXCPU, -signal.SIGKILL, _OUT_OF_MEMORY)


def run_verifier(
    archive: Path, receipts: Sequence[Path] = (), heads: Sequence[Path] = (),
    limits: Limits = Limits(), witnessed: Witnessed = Witnessed(),
) -> Verdict:
    """Verify a season archive (and saved receipts, heads and checkpoints, the checkpoints held
    to the witness quorum asked for) in a limited child process."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        child = subprocess.run(
            _command(archive, receipts, heads, limits, witnessed), capture_output=True, check=False,
            timeout=limits.wall_seconds, env=environment,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return Verdict(Outcome.TIMED_OUT, "archive",
                       f"verification took longer than {limits.wall_seconds:g} s; "
                       "try again later")
    if _budget_spent(child.returncode):
        return Verdict(Outcome.TOO_COSTLY, "archive",
                       f"verifying it needs more than {limits.cpu_seconds} CPU seconds or "
                       f"{limits.memory_bytes // 2**20} MB here; verify it on your own computer "
                       "with the verifier.py it carries")
    try:
        answer = json.loads(child.stdout[:VERIFY_OUTPUT_BYTES])
        verdict = Verdict(Outcome(answer["outcome"]), answer.get("place", ""),
                          answer.get("detail", ""), list(answer.get("notes", [])))
    except (ValueError, KeyError, TypeError):
        _log.error("the verifier child stopped with status %s: %s", child.returncode,
                   child.stderr[-2000:].decode("utf-8", errors="replace"))
        return Verdict(Outcome.BROKEN, "archive", "the verifier stopped without a verdict")
    return verdict if _all_text(verdict) else Verdict(
        Outcome.REFUSED, verdict.place if _is_text(verdict.place) else "archive",
        "holds text that is not valid Unicode (a lone surrogate such as \\ud800)")


def _is_text(value: object) -> bool:
    """Whether a value is a string UTF-8 can carry (no lone surrogate, which a JSON escape
    such as `\\ud800` in an archive's file can make)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _all_text(verdict: Verdict) -> bool:
    """Whether every text of a verdict can be sent on a page or in JSON as it stands."""
    return all(_is_text(text) for text in (verdict.place, verdict.detail, *verdict.notes))


def _answer(verdict: Verdict) -> int:
    print(json.dumps({"outcome": verdict.outcome, "place": verdict.place,
                      "detail": verdict.detail, "notes": verdict.notes}))
    return 0


def main(arguments: list[str]) -> int:
    """The child: `CPU_SECONDS MEMORY_BYTES ARCHIVE [--receipt FILE]... [--head FILE]...
    [--checkpoint FILE]... [--witness VKEY]... --quorum K`; verify within those limits and
    print the verdict as one JSON line."""
    _limit_child(int(arguments[0]), int(arguments[1]))
    try:
        from fairfight.conquest.record.folder_check import verify_folder
        from fairfight.core.errors import InputError, VerificationError
    except MemoryError:
        return _OUT_OF_MEMORY
    except OSError as error:  # the import system's own reads fail with ENOMEM under the limit
        if error.errno == errno.ENOMEM:
            return _OUT_OF_MEMORY
        raise
    archive, options = Path(arguments[2]), list(zip(arguments[3::2], arguments[4::2], strict=False))
    receipts = [Path(value) for flag, value in options if flag == "--receipt"]
    heads = [Path(value) for flag, value in options if flag == "--head"]
    checkpoints = [Path(value) for flag, value in options if flag == "--checkpoint"]
    witnesses = [value for flag, value in options if flag == "--witness"]
    quorum = int(dict(options).get("--quorum", "0"))
    try:
        notes = verify_folder(archive, receipts, heads, checkpoints, witnesses, quorum)
    except VerificationError as failure:
        return _answer(Verdict(Outcome.MISMATCH, failure.place, failure.detail))
    except InputError as error:
        return _answer(Verdict(Outcome.REFUSED, error.field, error.rule))
    except MemoryError:
        return _OUT_OF_MEMORY
    return _answer(Verdict(Outcome.VERIFIED, notes=notes))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
