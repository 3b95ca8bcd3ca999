"""The text rule's cases for the shared table (tests/conquest/log_cases.py).

Every file a verifier reads is UTF-8 text without a leading byte-order mark, and every key and
string in it is Unicode text: a JSON escape of half a UTF-16 pair alone (`"\\ud800"`) is
refused, naming the file, the line and the escape. A whole pair written as two escapes is an
ordinary character. docs/conquest.md states the rule.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fairfight.conquest.rules import tables
from fairfight.core.records import BYTE_ORDER_MARK, BYTE_ORDER_MARK_RULE
from tests.conquest.helpers import reseal
from tests.conquest.log_archive import LoggedSeason, write_archive
from tests.conquest.log_cases import Case

__all__ = ["text_cases"]

LoneSurrogate = "holds a lone surrogate ({}), which is not Unicode text"
"""The refusal's words after `file: line n: `, with the escape named."""
MANIFEST = tables.MANIFEST


def _saved(folder: Path, name: str, value: Any, opening: bytes = b"") -> Path:
    """A saved file written as `json.dumps` writes it: every non-ASCII character escaped."""
    path = folder / name
    path.write_bytes(opening + json.dumps(value, indent=2).encode("ascii"))
    return path


def _changed(root: Path, name: str, season: LoggedSeason, change: Callable[[Path], None]) -> Path:
    """The honest archive with `change(folder)` applied and its manifest resealed."""
    folder = write_archive(season, root / name)
    change(folder)
    reseal(folder)
    return folder


def _edit(path: Path, edit: Callable[[str], str]) -> None:
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")


def _second_line_faction(text: str) -> str:
    lines = text.split("\n")
    lines[1] = lines[1].replace('"faction":"', '"faction":"\\udfff', 1)
    return "\n".join(lines)


def _cases_of_saved_files(honest: LoggedSeason, saved: Path, good: Path) -> list[Case]:
    lone = copy.deepcopy(honest.receipts[0])
    lone["entry"]["faction"] = "ZZ-\ud800"
    paired = copy.deepcopy(honest.receipts[0])
    paired["entry"]["faction"] = "ZZ-\U0001f600"  # written as the pair \ud83d\ude00
    head_key = {**honest.heads[2], "\udc00": 1}
    receipt = honest.receipts[0]
    return [
        Case(
            "a receipt holding an escaped lone surrogate",
            good,
            [_saved(saved, "lone.json", lone)],
            [],
            "lone.json: line 1: " + LoneSurrogate.format("\\ud800"),
        ),
        Case(
            "a head with a lone low surrogate as a key",
            good,
            [],
            [_saved(saved, "lone-key.json", head_key)],
            "lone-key.json: line 1: " + LoneSurrogate.format("\\udc00"),
        ),
        Case(
            "a receipt holding a whole pair of escapes is read as text (and this one is forged)",
            good,
            [_saved(saved, "pair.json", paired)],
            [],
            "receipt pair.json: its inclusion proof does not lead from leaf 1",
        ),
        Case(
            "a receipt that starts with a byte-order mark",
            good,
            [_saved(saved, "bom-receipt.json", receipt, BYTE_ORDER_MARK)],
            [],
            f"bom-receipt.json: {BYTE_ORDER_MARK_RULE}",
        ),
        Case(
            "a head that starts with a byte-order mark",
            good,
            [],
            [_saved(saved, "bom-head.json", honest.heads[-1], BYTE_ORDER_MARK)],
            f"bom-head.json: {BYTE_ORDER_MARK_RULE}",
        ),
    ]


def text_cases(root: Path, honest: LoggedSeason, saved: Path, good: Path) -> list[Case]:
    """The text rule's cases: saved files beside the honest archive `good`, and archives under
    `root` whose record files break the rule (each resealed, so the rule is what refuses it)."""
    header, ledger, seed = (tables.RECORD_FILES[k] for k in ("header", "ledger", "seed"))

    def header_surrogate(folder: Path) -> None:
        _edit(folder / header, lambda t: t.replace('"conquest"', '"conquest\\ud800"', 1))

    def ledger_surrogate(folder: Path) -> None:
        _edit(folder / ledger, _second_line_faction)

    def with_mark(name: str) -> Callable[[Path], None]:
        def change(folder: Path) -> None:
            path = folder / name
            path.write_bytes(BYTE_ORDER_MARK + path.read_bytes())

        return change

    manifest_marked = write_archive(honest, root / "manifest-with-mark")
    with_mark(MANIFEST)(manifest_marked)
    return [
        *_cases_of_saved_files(honest, saved, good),
        Case(
            "a header holding an escaped lone surrogate",
            _changed(root, "header-surrogate", honest, header_surrogate),
            [],
            [],
            f"{header}: line 1: " + LoneSurrogate.format("\\ud800"),
        ),
        Case(
            "a ledger line holding an escaped lone surrogate",
            _changed(root, "ledger-surrogate", honest, ledger_surrogate),
            [],
            [],
            f"{ledger}: line 2: " + LoneSurrogate.format("\\udfff"),
        ),
        Case(
            "a header that starts with a byte-order mark",
            _changed(root, "header-with-mark", honest, with_mark(header)),
            [],
            [],
            f"{header}: {BYTE_ORDER_MARK_RULE}",
        ),
        Case(
            "a seed that starts with a byte-order mark",
            _changed(root, "seed-with-mark", honest, with_mark(seed)),
            [],
            [],
            f"{seed}: {BYTE_ORDER_MARK_RULE}",
        ),
        Case(
            "a manifest that starts with a byte-order mark",
            manifest_marked,
            [],
            [],
            f"{MANIFEST}: {BYTE_ORDER_MARK_RULE}",
        ),
    ]
