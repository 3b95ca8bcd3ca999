"""Precise replay: a changed decision is reported at its own line, with the seat and the field.

A bot game is recorded once; each case changes one field of one decision (legal or not, of the
right type or not) and `verify_record` must name exactly that line.
"""

from __future__ import annotations

import copy
import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.ballot.bots import make_bots
from fairfight.ballot.geo import game_map
from fairfight.ballot.record import record_game, verify_record, write_record
from fairfight.ballot.tables import TAGS, AmendmentChoice, named_config
from fairfight.cli import app
from fairfight.core.errors import VerificationError

PLAYERS = ["pollster", "machine", "pollster", "machine"]
CHANGES = 20


@cache
def recorded() -> tuple[dict[str, Any], ...]:
    _, lines = record_game(named_config("as-written-plus"), "1000", make_bots(PLAYERS))
    return tuple(lines)


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every plain value inside a decision's choice (type names left alone)."""
    if isinstance(value, dict):
        return [p for k, v in value.items() if k != "type" for p in leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for n, v in enumerate(value) for p in leaves(v, (*path, n))]
    return [path]


def changed(value: Any, rng: random.Random, field: Any) -> Any:
    """Another value for a field: mostly of the same type, sometimes of a wrong one."""
    if rng.random() < 0.2:
        return str(value) if not isinstance(value, str) else 7
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-2, -1, 1, 2, 5, 40])
    if value in ("D", "R"):
        return "R" if value == "D" else "D"
    if value in TAGS:
        return rng.choice([tag for tag in TAGS if tag != value])
    if value in {c.value for c in AmendmentChoice}:
        return rng.choice([c.value for c in AmendmentChoice if c.value != value])
    if field == "race" or value in game_map().seat_by_id:
        return rng.choice([s.race_id for s in game_map().seats if s.race_id != value])
    return value + "x"


def set_path(target: Any, path: tuple[Any, ...], value: Any) -> None:
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


def get_path(target: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        target = target[step]
    return target


def cases() -> list[tuple[int, tuple[Any, ...], Any]]:
    """20 (line index, field path inside the choice, new value), drawn with a fixed seed:
    a phase, a decision of that phase, a field of the decision, a new value."""
    rng = random.Random(13)
    lines = recorded()
    by_phase: dict[str, list[int]] = {}
    for n, line in enumerate(lines):
        if line.get("event") == "decision" and leaves(line["choice"]):
            by_phase.setdefault(line["phase"], []).append(n)
    found = []
    while len(found) < CHANGES:
        number = rng.choice(
            by_phase[rng.choice(sorted(by_phase))]
        )  # every phase, not mostly drafts
        path = rng.choice(leaves(lines[number]["choice"]))
        old = get_path(lines[number]["choice"], path)
        new = changed(old, rng, path[-1])
        if new != old or type(new) is not type(old):
            found.append((number, path, new))
    return found


def test_the_unchanged_record_verifies() -> None:
    state = verify_record(list(recorded()))
    assert list(state.last_scores) == recorded()[-1]["scores"]


@pytest.mark.parametrize("number, path, new", cases())
def test_a_changed_decision_is_named_at_its_own_line(
    number: int, path: tuple[Any, ...], new: Any
) -> None:
    lines = copy.deepcopy(list(recorded()))
    seat = lines[number]["seat"]
    set_path(lines[number]["choice"], path, new)
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {number + 1}"  # file lines count from 1
    assert caught.value.detail.startswith(f"seat {seat}")
    field = "choice" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    detail = caught.value.detail
    assert field in detail or "illegal" in detail, detail


def test_wrong_value_types_are_refused_with_the_field() -> None:
    lines = copy.deepcopy(list(recorded()))
    vote = next(n for n, line in enumerate(lines) if line.get("choice", {}).get("type") == "YesNo")
    lines[vote]["choice"]["yes"] = "no"
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {vote + 1}"
    seat = lines[vote]["seat"]
    assert caught.value.detail == f"seat {seat}: choice.yes: expected true or false, found 'no'"


def test_a_legal_change_names_the_bot_and_both_values() -> None:
    lines = copy.deepcopy(list(recorded()))
    pick = next(n for n, line in enumerate(lines) if line.get("phase") == "draft")
    year = next(line for line in lines if line.get("event") == "year")
    seat = lines[pick]["seat"]
    pack = year["packs"][seat]
    chosen = lines[pick]["choice"]["card"]
    other = next(card for card in pack if card != chosen)
    lines[pick]["choice"]["card"] = other
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {pick + 1}"
    assert caught.value.detail == (
        f"seat {seat} ({PLAYERS[seat]}) would decide otherwise: "
        f"choice.card: recorded {other}, recomputed {chosen}"
    )


def test_an_illegal_decision_names_its_seat() -> None:
    lines = copy.deepcopy(list(recorded()))
    pick = next(n for n, line in enumerate(lines) if line.get("phase") == "draft")
    seat = lines[pick]["seat"]
    lines[pick]["choice"]["card"] = 9999
    with pytest.raises(VerificationError) as caught:
        verify_record(lines)
    assert caught.value.place == f"line {pick + 1}"
    assert re.match(
        rf"seat {seat}: illegal draft decision: draft.card: card 9999 ", caught.value.detail
    )


def test_header_players_are_checked() -> None:
    for players, detail in (
        (["pollster", "wizard", "pollster", "machine"], "players[1]: 'wizard' is not one of"),
        (["pollster", "machine", "pollster"], "scores: 4 for 3 seats"),
        (["machine", "pollster", "pollster", "machine"], "would decide otherwise"),
    ):
        lines = copy.deepcopy(list(recorded()))
        lines[0]["players"] = players
        with pytest.raises(VerificationError) as caught:
            verify_record(lines)
        assert detail in str(caught.value)


def test_replay_command_prints_the_line_and_exits_1(tmp_path: Path) -> None:
    lines = copy.deepcopy(list(recorded()))
    vote = next(n for n, line in enumerate(lines) if line.get("choice", {}).get("type") == "YesNo")
    lines[vote]["choice"]["yes"] = not lines[vote]["choice"]["yes"]
    path = tmp_path / "game.jsonl"
    write_record(path, lines)
    result = CliRunner().invoke(app, ["ballot", "replay", str(path)])
    assert result.exit_code == 1
    assert f"line {vote + 1}: seat {lines[vote]['seat']} (" in result.output
    assert "Traceback" not in result.output
    assert (
        json.loads(path.read_text().splitlines()[vote])["choice"]["yes"]
        is lines[vote]["choice"]["yes"]
    )
