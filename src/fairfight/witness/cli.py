"""`fairfight witness`: make a witness key, check a configuration, serve the witness.

A thin layer: each verb reads its options, calls one function of the package and prints one
line. A bad configuration or key file is one line naming the field, and exit 2. The package's
parts are imported by the verbs that use them, so `fairfight witness --help` stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from fairfight.console import guarded
from fairfight.core.errors import InputError

if TYPE_CHECKING:
    from fairfight.witness.cosigner import Witness

__all__ = ["app", "check", "keygen", "open_witness", "serve"]

app = typer.Typer(
    name="witness", help="A transparency-log witness (docs/witness.md).", no_args_is_help=True,
    pretty_exceptions_enable=False)

_CONFIG = typer.Option(..., "--config", help="The witness's TOML (or .json) configuration.")


def open_witness(config_path: Path) -> Witness:
    """The witness a configuration file describes: its key read, its store opened."""
    from sqlalchemy.exc import ArgumentError, OperationalError

    from fairfight.witness.config import load_config, read_key_file
    from fairfight.witness.cosigner import Witness
    from fairfight.witness.store import WitnessStore

    config = load_config(config_path)
    identity = read_key_file(config.key_file, config.name)
    try:
        store = WitnessStore(config.database)
    except (ArgumentError, OperationalError, ImportError) as error:
        reason = " ".join(str(error).split())[:200]
        raise InputError("config.database", f"cannot open {config.database!r}: {reason}") from None
    return Witness(config, identity, store)


@app.command()
@guarded
def keygen(
    name: str = typer.Argument(..., help="The witness's name, e.g. witness.example.org/w1."),
    key_file: Path = typer.Option(Path("witness.key"), "--key-file",
                                  help="Where to write the key (never over a file)."),
) -> None:
    """Write a new witness key and print its public key (the vkey clients trust)."""
    from fairfight.witness.config import generate_key

    typer.echo(generate_key(name, key_file).vkey())


@app.command()
@guarded
def check(config: Path = _CONFIG) -> None:
    """Read the configuration, key and database, and print the witness's status line."""
    witness = open_witness(config)
    try:
        typer.echo(witness.status())
    finally:
        witness.store.close()


@app.command()
@guarded
def serve(
    config: Path = _CONFIG,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8080, "--port", min=1, max=65535, help="Port to listen on."),
) -> None:
    """Serve add-checkpoint (C2SP tlog-witness) for the logs the configuration names."""
    import uvicorn

    from fairfight.witness.service import create_app

    witness = open_witness(config)
    typer.echo(witness.status(), err=True)
    try:
        uvicorn.run(create_app(witness), host=host, port=port, log_level="warning")
    finally:
        witness.store.close()
