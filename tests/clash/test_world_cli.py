"""The world's commands: play, replay, board, turn, attack, schema; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fairfight.cli import app
from tests.clash.world_helpers import EXAMPLES

runner = CliRunner()
SIEGE = str(EXAMPLES / "siege.yaml")


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["clash", *args])
    return result.exit_code, result.stdout, result.stderr


def test_play_replay_and_board(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    code, out, _ = _run("play", SIEGE, "--turns", "2", "--ai", "p1", "--record", str(game))
    assert code == 0 and "recorded 2 turns" in out
    assert _run("replay", str(game))[:2] == (0, "replayed 2 turns: every event matches\n")
    code, out, _ = _run("board", str(game), "--player", "red", "--overlay")
    assert code == 0 and "as seen by red" in out and "overlay" in out


def test_turn_takes_orders_from_a_file(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    assert _run("play", SIEGE, "--turns", "0", "--ai", "none", "--record", str(game))[0] == 0
    orders = tmp_path / "orders.yaml"
    orders.write_text("player: blue\norders:\n  gun-1:\n    actions:\n"
                      "      - {do: bombard, target: [2, 2]}\n", encoding="utf-8")
    code, out, _ = _run("turn", str(game), "--orders", str(orders))
    assert code == 0 and "A 47 : D 117" in out
    lines = game.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["turn"] == 1


def test_attack_shows_the_panel(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    _run("play", str(EXAMPLES / "belvoir-wood.yaml"), "--turns", "0", "--ai", "none",
         "--record", str(game))
    code, out, _ = _run("attack", str(game), "--player", "blue", "--lead", "armour-2",
                        "--target", "1,1")
    assert code == 0 and "ODDS 97 : " in out and "Ford Seven" in out
    assert "PROVISIONAL — not observed: grade, supply_tier" in out   # L2: grade unknown


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed_key: k\nboard: {rows: ['. .']}\nplayers: [{id: a}, {id: b}]\n"
                   "units: [{id: u, player: a, class: rifle-company, at: [4, 0]}]\n",
                   encoding="utf-8")
    code, _, err = _run("play", str(bad), "--record", str(game))
    assert code == 2
    assert err.strip() == "InputError: units[0].at: [4, 0] is off the 2x1 map"
    assert not game.exists()
    _run("play", SIEGE, "--turns", "0", "--record", str(game))
    code, _, err = _run("play", SIEGE, "--record", str(game))
    assert code == 2 and "--record" in err and len(err.strip().splitlines()) == 1
    code, _, err = _run("play", SIEGE, "--ai", "green", "--record", str(tmp_path / "x"))
    assert code == 2 and err.startswith("InputError: --ai:")
    orders = tmp_path / "o.yaml"
    orders.write_text("orders: {gun-9: {}}\n", encoding="utf-8")
    code, _, err = _run("turn", str(game), "--orders", str(orders))
    assert code == 2 and err.strip() == "InputError: orders.gun-9: no unit 'gun-9' on the board"


def test_a_tampered_record_fails_replay_with_exit_1(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    _run("play", SIEGE, "--turns", "1", "--ai", "p1", "--record", str(game))
    text = game.read_text(encoding="utf-8").replace('"r":500', '"r":501', 1)
    game.write_text(text, encoding="utf-8")
    code, _, err = _run("replay", str(game))
    assert code == 1 and "event" in err and "r: recorded 501, replayed 500" in err


def test_schema_prints_the_published_schema() -> None:
    from fairfight.clash.scenario import scenario_schema
    code, out, _ = _run("schema")
    assert code == 0 and json.loads(out) == scenario_schema()


def test_turn_without_orders_plays_the_ai_alone(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    _run("play", SIEGE, "--turns", "1", "--ai", "all", "--record", str(game))
    code, out, _ = _run("turn", str(game))
    assert code == 0 and out.startswith("turn 2:")
    assert _run("replay", str(game))[:2] == (0, "replayed 2 turns: every event matches\n")


def test_board_json_has_one_shape_with_and_without_a_player(tmp_path: Path) -> None:
    game = tmp_path / "g.jsonl"
    assert _run("play", SIEGE, "--turns", "1", "--ai", "p1", "--record", str(game))[0] == 0
    code, truth, _ = _run("board", str(game), "--json")
    assert code == 0
    code, red, _ = _run("board", str(game), "--player", "red", "--json")
    assert code == 0
    truth_data, red_data = json.loads(truth), json.loads(red)
    assert set(truth_data) == set(red_data) == {"player", "turn", "width", "height",
                                                "cities", "units", "overlay"}
    assert truth_data["player"] is None and red_data["player"] == "red"
    assert {frozenset(u) for u in truth_data["units"]} == {frozenset(u) for u in
                                                           red_data["units"]}
    assert all(u["level"] == 3 and u["unobserved"] == [] for u in truth_data["units"])
    assert len(truth_data["units"]) >= len(red_data["units"])


def test_play_stops_at_the_scenario_end_and_turn_refuses_after_it(tmp_path: Path) -> None:
    """A one-turn limit: `play --turns 5` plays one turn and says who won (blue holds the one
    city, 1 to 0); `turn` then refuses in one line, exit 2."""
    scenario = tmp_path / "short.yaml"
    scenario.write_text(
        "seed_key: short\nboard: {rows: ['. . . . .'], tiles: [{at: [0, 0], city: "
        "{owner: blue}}]}\nplayers: [{id: blue}, {id: red}]\nvictory: {turn_limit: 1}\n"
        "units: [{id: b, player: blue, class: rifle-company, at: [0, 0]},\n"
        "        {id: r, player: red, class: rifle-company, at: [4, 0]}]\n", encoding="utf-8")
    game = tmp_path / "g.jsonl"
    code, out, _ = _run("play", str(scenario), "--turns", "5", "--ai", "none",
                        "--record", str(game))
    assert code == 0 and "recorded 1 turns" in out
    assert "game over after turn 1: blue wins: turn limit of 1 reached" in out
    code, _, err = _run("turn", str(game))
    assert code == 2 and "the game is over after turn 1" in err and len(err.splitlines()) == 1
