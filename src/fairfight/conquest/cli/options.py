"""The arguments every conquest verb shares: the season's address and `--json`.

One home for `cli` and the verb modules it registers (`battles_cli`, `archive_cli`), which
cannot import `cli` (it imports them).
"""

from __future__ import annotations

import typer

__all__ = ["AsJson", "SeasonFile"]

SeasonFile = typer.Argument(
    ..., help="The season's SQLite file, or a server database's season as URL#ID."
)
AsJson = typer.Option(False, "--json", help="Machine output (canonical JSON).")
