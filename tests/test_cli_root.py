"""The root command: fast start, version, -h, examples, conflicting flags, outputs checked first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight import __version__
from fairfight.cli import RULESETS, app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


@pytest.mark.parametrize(
    "words", [[], ["clash"], ["conquest"], ["ballot"], ["warscore"], ["witness"]])
def test_help_imports_no_engine(words: list[str]) -> None:
    probe = (
        "import sys\nfrom fairfight.cli import app\n"
        f"try:\n    app({[*words, '--help']!r})\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('numpy', 'pydantic', 'sqlalchemy', 'fairfight.clash.kernel',"
        " 'fairfight.conquest.rules.engine', 'fairfight.ballot.engine', 'fairfight.warscore.model')"
        " if m in sys.modules]\nprint(heavy, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=False)
    assert result.stderr.strip().splitlines()[-1] == "[]", result.stderr


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_root_and_ruleset_help_show_the_same_line(name: str) -> None:
    result = runner.invoke(app, [name, "--help"])
    assert result.exit_code == 0
    assert " ".join(RULESETS[name].split()[:4]) in " ".join(result.stdout.split())


def test_version_and_short_help() -> None:
    assert runner.invoke(app, ["--version"]).stdout.strip() == __version__
    short = runner.invoke(app, ["clash", "-h"])
    assert short.exit_code == 0 and "resolve" in short.stdout


def test_usage_errors_are_one_line() -> None:
    for words in (["nope"], ["clash", "resolve"], ["clash", "resolve", "x", "--r", "6_17"]):
        result = runner.invoke(app, words)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, result.stderr


def test_examples_are_copied_out(tmp_path: Path) -> None:
    result = runner.invoke(app, ["examples", str(tmp_path / "ex")])
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "ex" / "clash" / "worked-example.json").read_bytes() == (
        ROOT / "examples" / "clash" / "worked-example.json").read_bytes()
    again = runner.invoke(app, ["examples", str(tmp_path / "ex")])
    assert again.exit_code == 2 and "already exists" in again.stderr


def test_json_and_bbcode_conflict() -> None:
    battle = ROOT / "examples" / "warscore" / "demonstration.yaml"
    result = runner.invoke(app, ["warscore", "battle", str(battle), "--json", "--format",
                                 "bbcode"])
    assert result.exit_code == 2 and "--json" in result.stderr


def test_outputs_are_checked_before_any_work(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for words in (["ballot", "play", "--record", str(a_file / "game.jsonl")],
                  ["ballot", "play", "--record", str(tmp_path / "g.jsonl"), "--years", "1"],
                  ["conquest", "demo", "--db", str(a_file)],
                  ["conquest", "new", str(tmp_path / "missing" / "s.db")]):
        result = runner.invoke(app, words)
        assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1, words
        assert result.stdout == "", words  # refused before a single line of work


def test_conquest_demo_seed_must_be_hex() -> None:
    result = runner.invoke(app, ["conquest", "demo", "--seed", "xyz"])
    assert result.exit_code == 2 and "--seed" in result.stderr


def test_unexpected_failure_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import fairfight.clash.exchange as exchange

    def broken(*_: object) -> None:
        raise ZeroDivisionError("boom")

    spec = ROOT / "examples" / "clash" / "worked-example.json"
    # One real run first: modules that import the function on first use must bind the real
    # one, or the patched function would outlive this test inside them.
    assert runner.invoke(app, ["clash", "resolve", str(spec), "--r", "1"]).exit_code == 0
    monkeypatch.setattr(exchange, "resolve_exchange", broken)
    result = runner.invoke(app, ["clash", "resolve", str(spec), "--r", "1"])
    assert result.exit_code == 2 and "Traceback" not in result.stdout + result.stderr
    assert result.stderr.splitlines() == [
        "Error: unexpected failure (boom); rerun with FAIRFIGHT_DEBUG=1 to see where"]


def every_command() -> list[tuple[str, str, object]]:
    import importlib

    import typer

    from fairfight.clitypes import strict_integers

    found = []
    for name in sorted(RULESETS):
        group = typer.main.get_command(importlib.import_module(f"fairfight.{name}.cli").app)
        strict_integers(group)  # as the root command prepares each ruleset
        for verb, command in group.commands.items():
            nested = getattr(command, "commands", None)  # a group of verbs (`conquest map`)
            if nested:
                found += [(name, f"{verb} {sub}", leaf) for sub, leaf in nested.items()]
            else:
                found.append((name, verb, command))
    return found


@pytest.mark.parametrize(("ruleset", "verb", "command"), every_command(),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_help_is_written_for_users(ruleset: str, verb: str, command: object) -> None:
    texts = [getattr(command, "help", "") or ""]
    for param in getattr(command, "params", []):
        assert getattr(param, "help", None), f"{ruleset} {verb}: {param.name} has no help"
        texts.append(param.help)
    for text in texts:
        assert "CB-" not in text and "§" not in text, text


def test_requirement_ids_never_reach_an_error_line(tmp_path: Path) -> None:
    spec = (ROOT / "examples" / "clash" / "worked-example.json").read_text()
    bad = tmp_path / "march.json"
    bad.write_text(spec.replace('"stance": "advance"', '"stance": "march"', 1))
    result = runner.invoke(app, ["clash", "resolve", str(bad), "--r", "1"])
    assert result.exit_code == 2 and "march" in result.stderr
    assert "CB-" not in result.stderr


@pytest.mark.parametrize(("ruleset", "verb", "command"), every_command(),
                         ids=lambda value: value if isinstance(value, str) else "")
def test_every_verb_takes_json(ruleset: str, verb: str, command: object) -> None:
    options = {opt for param in getattr(command, "params", []) for opt in param.opts}
    assert "--json" in options, f"{ruleset} {verb}"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_rules_raw_rendered_and_json(ruleset: str) -> None:
    import json

    raw = runner.invoke(app, [ruleset, "rules", "--format", "markdown"])
    assert raw.exit_code == 0 and raw.stdout.startswith("# ")
    rendered = runner.invoke(app, [ruleset, "rules", "--format", "terminal"])
    assert rendered.exit_code == 0 and not rendered.stdout.startswith("# ")
    assert "\n## " not in rendered.stdout  # headings are rendered, not printed as Markdown
    page = json.loads(runner.invoke(app, [ruleset, "rules", "--json"]).stdout)
    assert page == {"ruleset": ruleset, "format": "markdown", "page": raw.stdout}
    both = runner.invoke(app, [ruleset, "rules", "--json", "--format", "markdown"])
    assert both.exit_code == 2


def test_json_is_one_style(tmp_path: Path) -> None:
    """Every --json output is one compact line with sorted keys."""
    import json

    spec = ROOT / "examples" / "clash" / "worked-example.json"
    battle = ROOT / "examples" / "warscore" / "demonstration.yaml"
    for words in (["clash", "resolve", str(spec), "--r", "617", "--json"],
                  ["clash", "draw", "game", "1", "2", "0", "--json"],
                  ["warscore", "battle", str(battle), "--json"],
                  ["ballot", "odds", "--json"],
                  ["conquest", "map-stats", "--json"]):
        out = runner.invoke(app, words).stdout
        assert out.count("\n") == 1, words
        value = json.loads(out)
        assert out.strip() == json.dumps(value, sort_keys=True, separators=(",", ":"),
                                         ensure_ascii=False), words


@pytest.mark.parametrize("players", ["pollster,,machine", "pollster,machine,", ",pollster,machine"])
def test_empty_seats_are_refused(players: str) -> None:
    result = runner.invoke(app, ["ballot", "play", "--players", players])
    assert result.exit_code == 2 and "is empty" in result.stderr


def test_a_flag_given_text_is_still_coerced_by_typer() -> None:
    """A yes/no flag's coercion is built only when a value is neither absent nor a bool; such
    a value (from a default map, say) is then read as typer reads it."""
    import typer as typer_module

    from fairfight.clitypes import click_errors, lazy_flag

    flagged = typer_module.Typer()

    @flagged.command()
    def show(loud: bool = typer_module.Option(False, "--loud")) -> None:
        """A command with one flag."""

    command = typer_module.main.get_command(flagged)
    (param,) = [p for p in command.params if p.name == "loud"]
    lazy_flag(param)
    context = command.make_context("show", [])
    assert param.process_value(context, None) is None
    assert param.process_value(context, True) is True
    assert param.process_value(context, "yes") is True
    assert param.process_value(context, "off") is False
    with pytest.raises(click_errors.BadParameter):
        param.process_value(context, "maybe")
