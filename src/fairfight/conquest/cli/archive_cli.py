"""`conquest export`, `backup`, `restore` and `verify`: a season's archive and its copies.

The verbs that write a season out (the published archive, a backup) or take one in (a restore,
a verification), apart from `cli`, which registers them in its own order of verbs.
"""

from __future__ import annotations

from pathlib import Path

import typer

from fairfight.conquest.cli.options import AsJson, SeasonFile
from fairfight.console import console, emit_json, guarded
from fairfight.inputs import check_output_file, check_output_folder

__all__ = ["backup", "export", "restore", "verify"]


@guarded
def export(
    season_file: str = SeasonFile,
    folder: Path = typer.Argument(..., help="A folder, or a name ending .zip, for the archive."),
    as_json: bool = AsJson,
) -> None:
    """Write the season archive: record, verifiers, manifest (the seed only after the reveal)."""
    if folder.suffix == ".zip":
        check_output_file(folder)
    else:
        check_output_folder(folder)
    from fairfight.conquest.store import publication

    _report_files(publication.export_record(season_file, folder), as_json)


def _report_files(written: list[Path], as_json: bool) -> None:
    """List the files a command wrote: one per line, or as JSON."""
    if as_json:
        emit_json({"files": [str(path) for path in written]})
        return
    for path in written:
        console.print(str(path), markup=False)


@guarded
def backup(
    season_file: str = SeasonFile,
    folder: Path = typer.Argument(..., help="An existing folder for the copies."),
    as_json: bool = AsJson,
) -> None:
    """Copy the season file, its secret seed file and its key file, even while battles run
    (a server database's season is copied, from one snapshot, into a season file)."""
    from fairfight.conquest.store.backup import backup_season

    _report_files(backup_season(season_file, folder), as_json)


@guarded
def restore(
    backup_file: Path = typer.Argument(..., help="A season file made by `conquest backup`."),
    database: str = typer.Argument(..., help="A server database URL to add the season to."),
    as_json: bool = AsJson,
) -> None:
    """Add a backed-up season, with its seed and key, to a server database as its next
    season, and print its address (password hidden)."""
    from fairfight.conquest.store.backup import restore_season

    restored = restore_season(backup_file, database)
    if as_json:
        emit_json({"season": restored.shown})
        return
    console.print(restored.shown, markup=False)


@guarded
def verify(
    folder: Path = typer.Argument(..., help="A season archive: folder or .zip."),
    receipt: list[Path] = typer.Option(
        [], "--receipt", help="A contribution receipt you saved (repeatable)."
    ),
    head: list[Path] = typer.Option(
        [], "--head", help="A signed head of the season log you saved (repeatable)."
    ),
    beacon: str | None = typer.Option(
        None, help="The timelock's unlock round signature (hex): opens the seed when the "
        "archive holds none."),
    as_json: bool = AsJson,
) -> None:
    """Replay a published season and check its log against saved receipts and heads; exit 1
    naming the first battle and field, or the receipt or head, that differ."""
    from fairfight.conquest.store import publication

    notes = publication.verify_folder(folder, receipt, head, beacon)
    if as_json:
        emit_json({"verified": True, "notes": notes})
        return
    for note in notes:
        console.print(f"ok: {note}", markup=False)
