"""The ballot command line: odds, rules, play, replay, simulate and a human seat."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from fairfight.ballot.rules_page import rules_context
from fairfight.cli import app
from tests.ballot.scripted import human_script
from tests.ballot.test_dice import SOURCE_GENERAL, SOURCE_PRIMARY, brute_force

runner = CliRunner()
BOTS = "pollster,machine,pollster,machine"


def run(*args: str, stdin: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["ballot", *args], input=stdin)


def test_odds_json_general_and_primary() -> None:
    for kind, expected, dice in (("general", SOURCE_GENERAL, 3), ("primary", SOURCE_PRIMARY, 2)):
        result = run("odds", "--kind", kind, "--json")
        assert result.exit_code == 0
        rows = json.loads(result.stdout)
        assert [row["edge"] for row in rows] == list(range(9))
        assert [row["percent"] for row in rows] == expected
        for row in rows:
            assert row["fraction"] == str(brute_force(dice, row["edge"]))
    first = json.loads(run("odds", "--kind", "general", "--json").stdout)[1]
    assert first == {"edge": 1, "percent": "59.2", "fraction": "18403/31104", "certain": False}


def test_odds_never_rounds_an_uncertain_edge_to_certainty() -> None:
    """Table G is certain from +16 and table P from +11 [12.4]; below that, a chance that
    rounds to 100.0 prints "> 99.9", and its fraction stays below 1."""
    for kind, certain_from, dice in (("general", 16, 3), ("primary", 11, 2)):
        rows = json.loads(run("odds", "--kind", kind, "--max-edge", "20", "--json").stdout)
        for row in rows:
            exact = brute_force(dice, row["edge"])
            assert row["fraction"] == str(exact)
            assert row["certain"] is (row["edge"] >= certain_from)
            assert (row["percent"] == "100.0") is (row["edge"] >= certain_from)
            if exact > Fraction(9995, 10000) and exact < 1:
                assert row["percent"] == "> 99.9"
    text = run("odds", "--max-edge", "16").stdout
    assert "> 99.9%" in text and "100.0% (certain)" in text
    assert text.count("(certain)") == 1


def test_odds_bad_input_is_one_line_exit_2() -> None:
    result = run("odds", "--kind", "tertiary")
    assert result.exit_code == 2
    assert "InputError: kind:" in result.output and "Traceback" not in result.output
    assert run("odds", "--max-edge", "-1").exit_code == 2


def test_rules_page_shows_every_computed_number() -> None:
    result = run("rules")
    assert result.exit_code == 0
    page = result.stdout
    for figure in ("218", "60", "290", "67", "34", "38", "13", "535", "268", "481", "504"):
        assert figure in page
    assert "House 228 D / 207 R, Senate 46 D / 54 R, governors 25 D / 25 R" in page
    assert "| 2029 | 2 |" in page and "| 2031 | 3 |" in page
    assert "66.7%" in page and "9.3%" in page and "11.3%" in page
    context = rules_context()
    for row in context["general"] + context["primary"]:
        assert f"| +{row['edge']} | {row['percent']}% | {row['fraction']} |" in page
    for state in context["states"]:
        assert f"| {state['code']} | {state['house']} | {state['ev']} | {state['base']} |" in page
    for label, points in context["score_rows"]:
        assert f"| {label} | {points} |" in page
    for mode in context["victory_modes"]:
        assert f"| `{mode}` |" in page
    assert f"+{context['certain_general']}" in page and f"+{context['largest_general']}" in page
    for row in context["lean_push"]:
        assert f"| {row['margins']} | {row['push']} |" in page
    for row in context["races"]:
        assert f"| {row['year']} | {row['races']} |" in page
    config = context["config"]
    echoes = [
        f"keeps at most {config.hand_limit} in hand",
        f"drafts\n{config.picks} cards from packs of {config.pack_size}",
        f"within ±{config.lean_cap}",
        f"decays {config.lean_decay} pip",
        f"a {config.honeymoon}-pip honeymoon",
        f"bill target is {config.bill_target}",
        f"books for {config.bill_life} scorings",
        f"has {config.amend_tags} tags",
        f"({config.year_cap} years)",
        "194 cards: 144 candidate cards",
        "12 with modifier 0, 24 with 1, 24 with 2 and 12 with 3) and 50 district",
    ]
    for echo in echoes:
        assert echo in page, echo


def test_bot_game_plays_to_the_end() -> None:
    result = run("play", "--players", BOTS, "--seed", "1000", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["over"] and data["winners"]
    assert data["years"][0]["year"] == 2028
    table = run("play", "--players", BOTS, "--seed", "1000")
    assert "winner" in table.stdout and "2028" in table.stdout


def test_records_are_deterministic_and_replay(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert (
            run("play", "--players", BOTS, "--seed", "4242", "--record", str(path)).exit_code == 0
        )
    assert first.read_bytes() == second.read_bytes()
    header = json.loads(first.read_bytes().splitlines()[0])
    assert header["config"]["victory"] == "amendment" and len(header["commitment"]) == 64
    verified = run("replay", str(first))
    assert verified.exit_code == 0, verified.output


def test_changing_one_die_fails_replay_naming_the_event(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    run("play", "--players", BOTS, "--seed", "4242", "--record", str(path))
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"event":"race"' in line)
    event = json.loads(lines[number])
    event["sides"]["R"]["candidate"] = event["sides"]["R"]["candidate"] % 6 + 1
    lines[number] = json.dumps(event, separators=(",", ":"), sort_keys=True)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    result = run("replay", str(tampered))
    assert result.exit_code == 1
    assert f"line {number + 1} (race" in result.output
    assert "sides.R.candidate" in result.output
    assert "Traceback" not in result.output


def test_play_bad_input_is_one_line_exit_2() -> None:
    for args, field in (
        (["--players", "pollster,wizard"], "players[1]"),
        (["--players", "pollster"], "players"),
        (["--human", "7"], "human"),
        (["--seed", "not-a-seed"], "seed"),
        (["--victory", "landslide"], "victory"),
        (["--config", "nope"], "config"),
    ):
        result = run("play", *args)
        assert result.exit_code == 2, args
        assert f"InputError: {field}:" in result.output
        assert "Traceback" not in result.output


def test_replay_of_a_missing_file_is_bad_input(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "nothing.jsonl")).exit_code == 2


def test_simulate_json_is_the_same_with_two_jobs() -> None:
    args = ["simulate", "--games", "2", "--players", BOTS, "--victory", "points", "--json"]
    one = run(*args, "--jobs", "1")
    two = run(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)
    metrics = json.loads(one.stdout)[0]
    assert metrics["games"] == 2 and metrics["mode"] == "points"


def test_human_seat_plays_a_year_from_the_terminal() -> None:
    lines, _ = human_script()
    result = run(
        "play",
        "--players",
        "pollster,machine",
        "--human",
        "0",
        "--seed",
        "1000",
        "--years",
        "1",
        stdin="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Not understood: 'abc' is not a card or bill number" in result.output
    assert "Not accepted: card 999 is not in the pack" in result.output
    assert "Not accepted: H-ZZ-1: that race does not come up" in result.output
    assert "Your hand (" in result.output and "Draft pick 1 of 4" in result.output
    assert "win chance" in result.output
    assert "Strongest choices, one card each (10; no district card):" in result.output
    assert "Scores after 2028" in result.output
    assert "Stopped after 1 year(s)" in result.output
