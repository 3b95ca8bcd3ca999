"""Every file-reading command of the four rulesets fed every kind of the generated corpus."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz.conftest import assert_refused, invoke
from tests.fuzz.corpus import KINDS

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RECORD = EXAMPLES / "conquest" / "tiny-record"
SCENARIO = sorted((EXAMPLES / "clash" / "scenarios").iterdir())[0]
Args = Callable[[Path, Path], list[object]]
"""args(bad_path, scratch_folder): the command line reading the bad file."""

READERS: dict[str, tuple[Path | None, Args]] = {
    "clash resolve": (EXAMPLES / "clash" / "worked-example.json",
                      lambda bad, _: ["clash", "resolve", bad, "--r", "617"]),
    "clash preview": (EXAMPLES / "clash" / "worked-example.json",
                      lambda bad, _: ["clash", "preview", bad]),
    "clash preview fog": (EXAMPLES / "clash" / "worked-example.json",
                          lambda bad, _: ["clash", "preview", bad, "--unobserved", "stance"]),
    "clash play scenario": (SCENARIO, lambda bad, tmp: ["clash", "play", bad, "--record",
                                                         tmp / "game.jsonl"]),
    "clash board": (None, lambda bad, _: ["clash", "board", bad]),
    "clash replay": (None, lambda bad, _: ["clash", "replay", bad]),
    "clash turn": (None, lambda bad, _: ["clash", "turn", bad]),
    "conquest map-stats": (RECORD / "map.json",
                           lambda bad, _: ["conquest", "map-stats", "--map", bad]),
    "conquest new --map": (RECORD / "map.json",
                           lambda bad, tmp: ["conquest", "new", tmp / "s.db", "--map", bad]),
    "ballot replay": (None, lambda bad, _: ["ballot", "replay", bad]),
    "warscore battle": (EXAMPLES / "warscore" / "demonstration.yaml",
                        lambda bad, _: ["warscore", "battle", bad]),
    "warscore war": (EXAMPLES / "warscore" / "war_of_the_ring.yaml",
                     lambda bad, _: ["warscore", "war", bad]),
    "warscore verify": (EXAMPLES / "warscore" / "published-result.json",
                        lambda bad, _: ["warscore", "verify", bad]),
}
SEASON_VERBS: dict[str, list[object]] = {
    "show": ["show"], "show --battle": ["show", "--battle", "1"], "next": ["next"],
    "odds": ["odds", "AA", "BB"], "contribute": ["contribute", "AA", "5"],
    "beacon": ["beacon", "--randomness", "ab" * 32], "reveal": ["reveal"],
    "export": ["export"],
}
RECORD_FILES = sorted(path.name for path in RECORD.iterdir())
BALLOT_LINE = b'{"event":"header","format":"fairfight-ballot"}\n'


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_refuses_bad_file(reader: str, kind: str, tmp_path: Path) -> None:
    valid_source, args = READERS[reader]
    valid = valid_source.read_bytes() if valid_source else BALLOT_LINE
    suffix = valid_source.suffix if valid_source else ".jsonl"
    bad = tmp_path / f"bad{suffix}"
    KINDS[kind](bad, valid)
    assert_refused(invoke(*args(bad, tmp_path)))


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", RECORD_FILES)
def test_conquest_verify_refuses_a_bad_record_file(name: str, kind: str, tmp_path: Path) -> None:
    folder = tmp_path / "record"
    shutil.copytree(RECORD, folder)
    target = folder / name
    valid = target.read_bytes()
    target.unlink()
    KINDS[kind](target, valid)
    assert_refused(invoke("conquest", "verify", folder))


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("verb", sorted(SEASON_VERBS))
def test_season_commands_refuse_a_bad_season_file(verb: str, kind: str, tmp_path: Path) -> None:
    season = tmp_path / "season.db"
    KINDS[kind](season, b"SQLite format 3\x00")
    words = SEASON_VERBS[verb]
    extra = [tmp_path / "out"] if verb == "export" else []
    assert_refused(invoke("conquest", words[0], season, *words[1:], *extra))


def test_the_corpus_has_at_least_fifteen_kinds() -> None:
    assert len(KINDS) >= 15
