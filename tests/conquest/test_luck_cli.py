"""`fairfight conquest luck SEASON|ARCHIVE [--json]`: the same figures from a season and from its
archive, words for each faction, and one-line errors with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import season_luck
from fairfight.conquest.store import publication, season
from tests.conquest.helpers import SEED

runner = CliRunner()


def cli(*arguments: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in arguments])


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A finished season with a secured win, and its exported archive."""
    root = tmp_path_factory.mktemp("luck")
    path = root / "season.db"
    season.create_season(path, synthetic_map(9, 12, 3), "nine", seed=SEED)
    season.contribute(path, "ZZ-004", 50)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "record")
    return path, root / "record"


def test_season_and_archive_give_the_luck_json_of_the_archive(played: tuple[Path, Path]) -> None:
    path, folder = played
    from_season = cli("luck", path, "--json")
    from_archive = cli("luck", folder, "--json")
    assert from_season.exit_code == 0 and from_archive.exit_code == 0
    shipped = json.loads((folder / "luck.json").read_text(encoding="utf-8"))
    assert json.loads(from_season.stdout) == json.loads(from_archive.stdout) == shipped
    assert shipped["champion"] is not None and shipped["battles"] >= 1


def test_the_words_name_every_faction_the_champion_and_the_season(
        played: tuple[Path, Path]) -> None:
    path, folder = played
    result = cli("luck", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    luck = json.loads((folder / "luck.json").read_text(encoding="utf-8"))
    assert lines[0].startswith("The season: ") and "upset" in lines[0]
    assert ", the champion: won " in lines[1] and f"({luck['champion']['faction']})" in lines[1]
    assert len(lines) == 2 + len(luck["factions"])
    for line, (code, run) in zip(lines[2:], sorted(luck["factions"].items()), strict=True):
        assert f"({code}): won {run['observed']} of {run['battles']}; the chances said " in line
    secured = [code for code, run in luck["factions"].items() if run["secured"]]
    assert secured and any("its own full pool secured 1 win" in line for line in lines)


def test_a_season_before_its_end_has_no_champion_yet(tmp_path: Path) -> None:
    path = tmp_path / "running.db"
    season.create_season(path, synthetic_map(9, 12, 3), "nine", seed=SEED)
    list(season.fight(path, 2))
    result = cli("luck", path, "--json")
    assert result.exit_code == 0, result.output
    luck = json.loads(result.stdout)
    assert luck["champion"] is None and luck["battles"] == 2
    assert season_luck.tail_value(luck["season"]["at_most"]) > 0


@pytest.mark.parametrize(("name", "message"), [
    ("missing.zip", "no such folder or archive"),
    ("missing.db", "no season file here"),
])
def test_a_bad_source_is_one_line_and_exit_2(tmp_path: Path, name: str, message: str) -> None:
    result = cli("luck", tmp_path / name)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("InputError: ") and message in lines[0]
    assert "Traceback" not in result.output
