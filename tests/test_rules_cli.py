"""The `rules` verb comes from one factory: a page given as "module:function" is imported only
when the verb runs, a page function's own options come before --format and --json, and the
rulesets' verbs are the factory's."""

from __future__ import annotations

import json
import sys

import typer
from typer.testing import CliRunner

from fairfight.rules_cli import RULES_SUMMARY, rules_command

runner = CliRunner()


def test_a_page_functions_options_become_the_verbs_options() -> None:
    app = typer.Typer()

    def page(size: int = typer.Option(2, help="how many")) -> str:
        return "# Page\n" + "x" * size + "\n"

    rules_command(app, "toy", page)
    app.command(name="other")(lambda: None)  # two commands, so `rules` is a verb by name
    shown = runner.invoke(app, ["rules", "--size", "3", "--json"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout) == {"ruleset": "toy", "format": "markdown",
                                        "page": "# Page\nxxx\n"}
    raw = runner.invoke(app, ["rules", "--format", "markdown"])
    assert raw.stdout == "# Page\nxx\n"
    refused = runner.invoke(app, ["rules", "--format", "html"])
    assert refused.exit_code == 2 and "--format" in refused.output
    assert RULES_SUMMARY in runner.invoke(app, ["rules", "--help"]).stdout


def test_a_named_page_is_imported_only_when_the_verb_runs() -> None:
    app = typer.Typer()
    name = "fairfight.warscore.rules_page"
    sys.modules.pop(name, None)
    rules_command(app, "warscore", f"{name}:rules_page")
    app.command(name="other")(lambda: None)
    assert name not in sys.modules
    shown = runner.invoke(app, ["rules", "--format", "markdown"])
    assert shown.exit_code == 0 and shown.stdout.startswith("# ")
    assert name in sys.modules


def test_every_rulesets_rules_verb_is_the_factorys() -> None:
    from fairfight.ballot import cli as ballot_cli
    from fairfight.clash import cli as clash_cli
    from fairfight.warscore import cli as warscore_cli

    for module in (ballot_cli, clash_cli, warscore_cli):
        assert module.rules.__doc__ == RULES_SUMMARY
