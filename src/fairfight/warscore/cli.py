"""Command line of the warscore ruleset: score a battle, a war, or print the rules page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from fairfight.console import emit_json, guarded
from fairfight.core.errors import InputError, VerificationError
from fairfight.rules_cli import rules_command

app = typer.Typer(help="The warscore ruleset.", no_args_is_help=True, add_completion=False)

FORMATS = ("text", "bbcode", "json")
FORMAT_HELP = "Output: text (flat forum list), bbcode (forum lists) or json."


def _format(chosen: str, as_json: bool) -> str:
    """The output format; `--json` is shorthand for `--format json`."""
    if chosen not in FORMATS:
        raise InputError("--format", f"must be one of {', '.join(FORMATS)}", chosen)
    if as_json and chosen not in ("text", "json"):
        raise InputError("--json", f"conflicts with --format {chosen}; give one of the two")
    if as_json:
        return "json"
    if chosen not in FORMATS:
        raise InputError("--format", f"must be one of {', '.join(FORMATS)}", chosen)
    return chosen


def _emit_json(value: Any) -> None:
    emit_json(value)


@app.command()
@guarded
def battle(
    file: Path = typer.Argument(..., help="A battle file (YAML)."),
    output: str = typer.Option("text", "--format", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
) -> None:
    """Score one battle and print its forum post."""
    from fairfight.warscore.export import battle_json
    from fairfight.warscore.files import load_battle
    from fairfight.warscore.forum import PostFormat, battle_post
    from fairfight.warscore.score import score_battle

    chosen = _format(output, as_json)
    parsed = load_battle(file)
    result = score_battle(parsed, parsed.year)
    if chosen == "json":
        _emit_json(battle_json(result))
    else:
        typer.echo(battle_post(result, PostFormat(chosen)), nl=False)


@app.command()
@guarded
def war(
    file: Path = typer.Argument(..., help="A war file (YAML)."),
    year: int | None = typer.Option(None, "--year", help="Show only this year."),
    output: str = typer.Option("text", "--format", help=FORMAT_HELP),
    as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
) -> None:
    """Score a war year by year: each nation's NWS, then each battle."""
    from fairfight.warscore.export import war_json
    from fairfight.warscore.files import load_war
    from fairfight.warscore.forum import PostFormat, war_post
    from fairfight.warscore.war import score_war, select_year

    chosen = _format(output, as_json)
    report = score_war(load_war(file))
    if year is not None:
        report = select_year(report, year)
    if chosen == "json":
        _emit_json(war_json(report))
    else:
        typer.echo(war_post(report, PostFormat(chosen)), nl=False)


@app.command("discord-commands")
@guarded
def discord_commands(
    as_json: bool = typer.Option(True, "--json", help="JSON (the only output; accepted as "
                                 "by every command)."),
) -> None:
    """Print the Discord slash commands to register (JSON), for /discord/interactions."""
    from fairfight.warscore.discord import command_definitions

    _emit_json(command_definitions())


@app.command()
@guarded
def verify(
    file: Path = typer.Argument(..., help="A published result (the JSON of /warscore/r/DIGEST)."),
    as_json: bool = typer.Option(False, "--json", help="Print the checks as JSON."),
) -> None:
    """Score a published result again from its sealed sheets and check every figure; exit 1
    when anything differs."""
    from fairfight.inputs import load_json
    from fairfight.warscore.published import verify_published

    checks = verify_published(load_json(file))
    passed = all(check.ok for check in checks)
    if as_json:
        _emit_json({"verified": passed, "checks": [
            {"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks]})
    else:
        for check in checks:
            typer.echo(f"{'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}")
        typer.echo("verified: every figure follows from the sealed sheets" if passed
                   else "NOT verified")
    if not passed:
        first = next(check for check in checks if not check.ok)
        raise VerificationError(first.name, first.detail)


rules = rules_command(app, "warscore", "fairfight.warscore.rules_page:rules_page")

__all__ = [
    "FORMATS",
    "FORMAT_HELP",
    "app",
    "battle",
    "discord_commands",
    "rules",
    "verify",
    "war",
]
