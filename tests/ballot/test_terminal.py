"""The terminal's words and its pause: who holds a seat, results winner first, plurals, and
Ctrl-C saving a record that `play --resume` continues to the same finished game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from fairfight.ballot.engine import new_game
from fairfight.ballot.narration import card_count, holder_text, narrate
from fairfight.ballot.state import Holding, Phase
from fairfight.ballot.tables import BOARD, named_config
from fairfight.cli import app
from tests.ballot.scripted import human_script

runner = CliRunner()
KEY = "1005"
OTHERS = ("pollster", "machine", "machine")
PLAYERS = ",".join(("pollster", *OTHERS))


def test_the_open_presidency_is_called_open_not_held_by_the_board() -> None:
    state, _ = new_game(named_config("as-written-plus"), KEY, 4)
    assert holder_text(state, 0, 0) == "open: no holder before the first presidential election"
    assert holder_text(state, 1, 0).startswith("held by the board (")
    seated = state.with_changes(
        year=state.year + 1, seats=(Holding(2, state.seats[0].party, 5), *state.seats[1:])
    )
    assert holder_text(seated, 0, 0) == f"held by seat 2 ({state.seats[0].party.value})"
    assert holder_text(seated, 0, 2).startswith("held by you")
    # after the first election, in the same year, the seat is no longer open
    assert holder_text(state.with_changes(phase=Phase.AUTHOR), 0).startswith("held by")


def test_the_presidency_result_reads_the_winners_count_first() -> None:
    event: dict[str, Any] = {
        "event": "presidency",
        "primaries": [],
        "electoral_votes": {"D": 208, "R": 327},
        "nominees": {"D": 0, "R": BOARD},
        "winner": "R",
        "holder": BOARD,
    }
    (line,) = narrate(event, 0)
    assert line.startswith("President: R wins 327-208 electoral votes (R 327, D 208;")
    assert "208-327" not in line


def test_counts_take_the_right_number() -> None:
    assert card_count(1) == "1 card"
    assert card_count(2) == "2 cards"
    assert card_count(0) == "0 cards"


def _play(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["ballot", "play", *args], input=stdin)


def test_ctrl_c_saves_a_record_that_resume_plays_to_the_same_finished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, _ = human_script(KEY, OTHERS, years=None)
    seat = ["--players", PLAYERS, "--human", "0", "--seed", KEY]
    whole = tmp_path / "whole.jsonl"
    assert _play(*seat, "--record", str(whole), stdin="\n".join(lines) + "\n").exit_code == 0

    # Ctrl-C at the 9th draft question (year 3's first pick): the typed answers so far are
    # used, the question being asked is not.
    answers = iter(lines)
    used = 0
    drafts = 0

    def typing(text: str, **_: Any) -> str:
        nonlocal used, drafts
        if text == "Pick a card id":
            drafts += 1
            if drafts == 9 and used >= 3:
                raise KeyboardInterrupt
        used += 1
        return next(answers)

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(typer, "prompt", typing)
    stopped = _play(*seat)
    monkeypatch.undo()
    assert stopped.exit_code == 130
    said = [line for line in stopped.output.splitlines() if "interrupted" in line]
    assert len(said) == 1 and "--resume" in said[0]
    saved = next(tmp_path.glob("ballot-*.jsonl"))
    assert saved.name in said[0]
    pause = json.loads(saved.read_text().splitlines()[-1])
    assert pause["event"] == "pause" and pause["key"] == KEY

    rest = "\n".join(lines[used:]) + "\n"
    resumed = _play("--resume", str(saved), stdin=rest)
    assert resumed.exit_code == 0, resumed.output[-2000:]
    assert "Game over in 2034: winner seat" in resumed.output
    assert "An amendment was ratified, which ends the game at the end of that year" in " ".join(
        resumed.output.split())  # the reason in words, however the terminal wraps it
    assert saved.read_bytes() == whole.read_bytes()
    replayed = runner.invoke(app, ["ballot", "replay", str(saved)])
    assert replayed.exit_code == 0 and "Record verified" in replayed.output


def test_resume_refuses_a_finished_game_and_a_seed(tmp_path: Path) -> None:
    done = tmp_path / "done.jsonl"
    assert _play("--seed", "7", "--record", str(done)).exit_code == 0
    refused = _play("--resume", str(done))
    assert refused.exit_code == 2 and "this game is over" in refused.output
    assert _play("--resume", str(done), "--seed", "7").exit_code == 2
