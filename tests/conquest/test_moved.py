"""The flat module names of before the wings still import, as the very same module objects."""

from __future__ import annotations

import importlib
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import fairfight.conquest
from fairfight.conquest import _moved

SOURCE = Path(fairfight.conquest.__file__).parent


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_name_is_the_new_module_itself(old: str) -> None:
    new = importlib.import_module(f"fairfight.conquest.{_moved.MOVED[old]}")
    assert importlib.import_module(f"fairfight.conquest.{old}") is new
    assert sys.modules[f"fairfight.conquest.{old}"] is new
    assert new.__spec__ is not None and new.__spec__.name == new.__name__  # its own spec


def test_every_new_name_is_a_file_and_no_old_file_is_left() -> None:
    for old, new in _moved.MOVED.items():
        assert (SOURCE / Path(*new.split("."))).with_suffix(".py").is_file(), new
        assert not (SOURCE / f"{old}.py").exists(), old


def test_names_import_from_an_old_path() -> None:
    from fairfight.conquest.engine import ReplayMismatch, play_step
    from fairfight.conquest.tables import ENGINE_VERSION as old_version

    from fairfight.conquest.rules import engine
    from fairfight.conquest.rules.tables import ENGINE_VERSION

    assert play_step is engine.play_step and ReplayMismatch is engine.ReplayMismatch
    assert old_version == ENGINE_VERSION


def test_the_old_packages_names_still_answer() -> None:
    """`store`, `forecast`, `cli` and `rules` were modules; the packages of those names offer
    what the modules did."""
    from fairfight.conquest.cli import app
    from fairfight.conquest.cli.season_cli import app as new_app
    from fairfight.conquest.forecast import Forecast, forecast, title_odds
    from fairfight.conquest.rules import multiplier, rules_page
    from fairfight.conquest.rules_page import rules_page as page
    from fairfight.conquest.store import SeasonStore
    from fairfight.conquest.store.season_store import SeasonStore as new_store

    assert app is new_app and SeasonStore is new_store and rules_page is page
    assert forecast is title_odds.forecast and Forecast is title_odds.Forecast
    assert multiplier(Fraction(28, 25)) == "×1.12"


def test_an_unknown_name_is_still_unknown() -> None:
    assert _moved.new_name("fairfight.conquest.no_such_module") is None
    assert _moved.new_name("fairfight.clash.engine") is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("fairfight.conquest.no_such_module")


def test_an_old_name_imported_first_is_still_one_module_with_its_own_name() -> None:
    """In a fresh interpreter the old name comes first: the new one is then the same object."""
    program = (
        "import sys; import fairfight.conquest.season as old; "
        "import fairfight.conquest.store.season as new; "
        "print(old is new, old.__name__, old.__spec__.name, "
        "sum(m is new for m in sys.modules.values()))"
    )
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == [
        "True", "fairfight.conquest.store.season", "fairfight.conquest.store.season", "2"
    ]


def test_python_dash_m_runs_a_module_by_its_old_name(tmp_path: Path) -> None:
    """`python -m fairfight.conquest.verifier verify DIR` runs the moved verifier, as before."""
    run = subprocess.run(
        [sys.executable, "-m", "fairfight.conquest.verifier", "verify", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip() == f"no such folder or file: {tmp_path / 'none'}"
