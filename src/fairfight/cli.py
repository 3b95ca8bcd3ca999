"""The root command: `fairfight <ruleset> <verb>`."""

from __future__ import annotations

import typer

from fairfight import __version__
from fairfight.ballot.cli import app as ballot_app
from fairfight.clash.cli import app as clash_app
from fairfight.conquest.cli import app as conquest_app
from fairfight.warscore.cli import app as warscore_app

app = typer.Typer(
    name="fairfight",
    help="Exact, reproducible and verifiable battles for strategy games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(warscore_app, name="warscore")
app.add_typer(clash_app, name="clash")
app.add_typer(conquest_app, name="conquest")
app.add_typer(ballot_app, name="ballot")


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
) -> None:
    """Serve the web pages and the JSON API."""
    from fairfight.web.serve import run_server

    run_server(db, host, port)


def main() -> None:
    """Console-script entry point."""
    app()
