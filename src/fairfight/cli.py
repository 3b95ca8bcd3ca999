"""The root command: `fairfight <ruleset> <verb>`.

Each ruleset's command line is imported only when that ruleset is asked for, so
`fairfight --help` starts without numpy, SQLAlchemy or any ruleset. Every error the command
line itself finds (a mistyped option, a value that is not a whole number) is one line and
exit 2, like the errors the rulesets raise.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import typer
from typer._click import Context as ClickContext
from typer.core import TyperGroup

from fairfight import __version__
from fairfight.clitypes import click_errors, lazy_flag, strict_integers
from fairfight.console import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    guarded,
    keep_interrupts,
    report_unexpected,
    say_error,
)
from fairfight.core.errors import InputError

__all__ = [
    "RULESETS",
    "TOOLS",
    "app",
    "db_app",
    "db_current",
    "db_upgrade",
    "examples",
    "main",
    "root",
    "serve",
    "version",
]

RULESETS = {
    "ballot": "The election card game: exact race odds, bot and human games, replays.",
    "clash": "Deterministic integer combat: resolve a clash, preview its exact odds.",
    "conquest": "A season-long battle show: run a season, publish it, verify it.",
    "warscore": "The forum war algorithm: score a battle or a war for the forum.",
}
"""Each ruleset's one-line help, shown by `fairfight --help` without importing it."""
TOOLS = {
    "witness": "A transparency-log witness: check each new checkpoint of the logs it follows "
               "and cosign it.",
}
"""Services beside the rulesets, loaded as lazily: `fairfight.<name>.cli`'s app."""
_LAZY = {**RULESETS, **TOOLS}


_BUILT_RULESETS: dict[str, Any] = {}
"""A ruleset's command group, built once per process: a process running several command lines
(a test runner's in-process invocations, which build the root anew each time) builds each
group once (about 20 ms of a 2.0 GHz core) instead of once per command line."""


class _RootGroup(TyperGroup):
    """Loads a ruleset's commands on first use; turns command-line errors into one line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        strict_integers(self)  # the root's own commands (serve --port, ...)

    def get_params(self, ctx: ClickContext) -> list[Any]:
        """The root's options, its help and completion flags among them (typer adds those
        after the group is built): every flag's coercion waits for a value needing one."""
        params = super().get_params(ctx)
        for param in params:
            lazy_flag(param)
        return params

    def list_commands(self, ctx: ClickContext) -> list[str]:
        return [*_LAZY, *super().list_commands(ctx)]

    def _load(self, name: str) -> Any:
        if name not in _BUILT_RULESETS:
            module = importlib.import_module(f"fairfight.{name}.cli")
            command = typer.main.get_command(module.app)
            command.name = name
            command.help = _LAZY[name]  # one home for the line both help pages show
            strict_integers(command)
            _BUILT_RULESETS[name] = command
        return _BUILT_RULESETS[name]

    def get_command(self, ctx: ClickContext, cmd_name: str) -> Any | None:
        if cmd_name in _BUILT_RULESETS:
            return _BUILT_RULESETS[cmd_name]
        if cmd_name in _LAZY:  # listed in the help: a placeholder carrying the help line
            return TyperGroup(name=cmd_name, help=_LAZY[cmd_name])
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: ClickContext, args: list[str]
    ) -> tuple[str | None, Any | None, list[str]]:
        if args and args[0] in _LAZY:
            self._load(args[0])
        return super().resolve_command(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run, printing every command-line error as one line instead of a usage box."""
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except click_errors.NoArgsIsHelpError as shown:  # a bare group: its help
            typer.echo(shown.ctx.get_help() if shown.ctx else "", nl=False)
            sys.exit(0)
        except click_errors.UsageError as error:
            say_error(f"InputError: {' '.join(error.format_message().split())}")
            sys.exit(EXIT_BAD_INPUT)
        except click_errors.ClickException as error:
            say_error(f"InputError: {' '.join(error.format_message().split())}")
            sys.exit(error.exit_code)
        except typer.Abort:
            say_error("interrupted")
            sys.exit(EXIT_INTERRUPTED)
        except Exception as error:  # the last guard: one line, never a traceback
            sys.exit(report_unexpected(error))
        sys.exit(code if isinstance(code, int) else 0)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


app = typer.Typer(
    name="fairfight",
    cls=_RootGroup,
    help="Exact, reproducible and verifiable battles for strategy games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def root(
    show_version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True,
        help="Print the fairfight version and exit."),
) -> None:
    """Exact, reproducible and verifiable battles for strategy games."""


@app.command()
def version() -> None:
    """Print the fairfight version."""
    typer.echo(__version__)


@app.command()
def serve(
    db: str = typer.Option(
        None, "--db", help="Database: a SQLite file path or a SQLAlchemy URL "
        "(postgresql+psycopg://...). Default: FAIRFIGHT_DATABASE_URL or sqlite:///fairfight.db."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=1, max=65535, help="Port to listen on."),
    workers: int = typer.Option(1, "--workers", min=1, max=64,
                                help="Worker processes sharing the port (one by default)."),
    forwarded_allow_ips: str = typer.Option(
        None, "--forwarded-allow-ips", help="Proxies whose X-Forwarded-For is believed: "
        "addresses or networks, comma-separated, or '*'. Default: none."),
) -> None:
    """Serve the web pages and the JSON API (docs/operations.md: workers, limits, logs).

    The stores' schemas are brought to this release's head first, once, under the migration
    lock (`fairfight db upgrade`); a database made by a newer release is refused (exit 2)
    before any worker starts."""
    from fairfight.web.serve import run_server

    guarded(_upgrade_stores)(db, err=True)
    run_server(db, host, port, workers=workers, forwarded_allow_ips=forwarded_allow_ips)


db_app = typer.Typer(
    name="db", help="The service's database schema: see where it stands, upgrade it.",
    no_args_is_help=True, pretty_exceptions_enable=False)
app.add_typer(db_app)
_URL_HELP = ("The service's database: a SQLite file path or a SQLAlchemy URL. Default: "
             "FAIRFIGHT_DATABASE_URL or sqlite:///fairfight.db (the clash and ballot stores "
             "are found beside it, as the service finds them).")


def _store_urls(url: str | None) -> tuple[str, str | None]:
    from fairfight.web.serve import database_url_for
    from fairfight.web.settings import settings_from_environment

    settings = settings_from_environment()
    return database_url_for(url) or settings.database_url, settings.clash_database_url


def _upgrade_stores(url: str | None, err: bool = False) -> None:
    from fairfight.web.migrations import upgrade

    for state in upgrade(*_store_urls(url)):
        typer.echo(state.line(), err=err)


@db_app.command("upgrade")
@guarded
def db_upgrade(url: str = typer.Option(None, "--url", help=_URL_HELP)) -> None:
    """Bring every store's schema to this release's head (once, under a lock); a database
    made by a newer release is refused and left alone."""
    _upgrade_stores(url)


@db_app.command("current")
@guarded
def db_current(url: str = typer.Option(None, "--url", help=_URL_HELP)) -> None:
    """Print each store's schema revision; exit 1 when one is behind this release's head, 2
    when a version table is damaged or names a revision this release does not know."""
    from fairfight.web.migrations import current

    states = current(*_store_urls(url))
    for state in states:
        typer.echo(state.line())
    if any(state.status == "behind" for state in states):
        raise typer.Exit(1)


@app.command()
@guarded
def examples(
    folder: Path = typer.Argument(..., help="Folder to copy the example files into (created)."),
) -> None:
    """Copy the example files of every ruleset into FOLDER, to try the commands on."""
    import shutil

    from fairfight.inputs import check_output_folder

    check_output_folder(folder)
    shipped = _shipped_examples()
    if shipped is None:
        raise InputError("examples", "the example files are not installed with this copy")
    for item in sorted(shipped.rglob("*")):
        target = folder / item.relative_to(shipped)
        if item.is_file() and target.exists():
            raise InputError(str(target), "already exists; choose an empty folder")
    shutil.copytree(shipped, folder, dirs_exist_ok=True)
    typer.echo(f"examples copied to {folder}")


def _shipped_examples() -> Path | None:
    """The examples inside an installed wheel, or beside the sources in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "examples", here.parents[1] / "examples"):
        if candidate.is_dir():
            return candidate
    return None


def main() -> None:
    """Console-script entry point."""
    keep_interrupts()
    app()
