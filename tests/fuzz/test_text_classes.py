"""Every file-reading command fed the text classes of the third round: lone surrogates (alone
and inside a real file), nesting 10,000 deep in each form JSON and YAML allow, and a million
and one tiny lines. Each is exit 2 with one line that says which rule the file broke."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz.conftest import assert_refused, invoke
from tests.fuzz.test_files import BALLOT_LINE, READERS

Maker = Callable[[bytes], bytes]


def _with_surrogate(valid: bytes) -> bytes:
    """A real file with one more field holding a lone surrogate (at its top, JSON or YAML)."""
    if valid.lstrip()[:1] == b"{":
        start = valid.index(b"{") + 1
        return valid[:start] + b'"zz": "\\ud800", ' + valid[start:]
    return b'zz: "\\ud800"\n' + valid


KINDS: dict[str, tuple[Maker, str]] = {
    "surrogate-alone": (lambda _: b'{"name": "\\ud800"}\n', "lone surrogate"),
    "surrogate-low": (lambda _: b'{"name": "a\\uDC00b"}\n', "lone surrogate"),
    "surrogate-key": (lambda _: b'{"\\ud800": 1}\n', "lone surrogate"),
    "surrogate-in-file": (_with_surrogate, "lone surrogate"),
    "deep-json-arrays": (lambda _: b"[" * 10_000 + b"]" * 10_000, "nested"),
    "deep-json-objects": (lambda _: b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "nested"),
    "deep-yaml-flow": (lambda _: b"a: " + b"[" * 10_000 + b"]" * 10_000 + b"\n", "nested"),
    "deep-yaml-mixed": (lambda _: b"a: " + b"{b: [" * 5_000 + b"]}" * 5_000 + b"\n", "nested"),
    "deep-yaml-dashes": (lambda _: b"- " * 10_000 + b"1\n", "nested"),
    "deep-yaml-indent": (lambda _: b"".join(b" " * n + b"k:\n" for n in range(1_000)), "nested"),
    "many-tiny-lines": (lambda _: b"{}\n" * 1_000_001, ""),
}
"""Each kind: how to make the file from a valid one, and a word its refusal must hold."""
JSON_ONLY = {"clash resolve", "clash preview", "clash preview fog", "conquest map-stats",
             "conquest new --map", "clash replay", "clash board", "clash turn", "ballot replay",
             "warscore verify"}
"""Readers of JSON: YAML-only forms are a syntax error there (still exit 2, any wording)."""


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_refuses_the_text_classes(reader: str, kind: str, tmp_path: Path) -> None:
    valid_source, args = READERS[reader]
    valid = valid_source.read_bytes() if valid_source else BALLOT_LINE
    bad = tmp_path / f"bad{valid_source.suffix if valid_source else '.jsonl'}"
    make, word = KINDS[kind]
    bad.write_bytes(make(valid))
    line = assert_refused(invoke(*args(bad, tmp_path)), codes=(2,))
    if kind.startswith("deep-yaml") and reader in JSON_ONLY:
        return
    if word == "lone surrogate" and reader not in JSON_ONLY:
        word = "Unicode"   # libyaml refuses the escape itself: "invalid Unicode character"
    assert word in line
