"""Make the shipped example season archive again, with this checkout's verifier files.

    python tools/conquest_example_archive.py [FOLDER]

Plays the tiny season of examples/conquest/README.md with the command line (this checkout's
`fairfight conquest` commands, run in this process) in a scratch folder and exports it to
FOLDER (default examples/conquest/tiny-record), replacing what was there. The season header
names the SHA-256 of every verifier file when the season is created, so an archive can only
carry the files of the release that made it: whenever a verifier file changes, run this again
(tests/conquest/test_examples.py fails until the shipped files are today's). The battles are
the same each time (the seed is fixed); the season log's key and times are new.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "conquest"
SEED = "7" * 64
STEPS = (
    ("new", "s.db", "--map", str(EXAMPLES / "tiny-map.json"), "--seed", SEED),
    ("contribute", "s.db", "ZZ-003", "25"),
    ("contribute", "s.db", "ZZ-005", "50"),
    ("next", "s.db", "--count", "2"),
    ("contribute", "s.db", "ZZ-000", "30"),  # ZZ-000 was absorbed in battle 2:
    ("contribute", "s.db", "ZZ-000", "20"),  # its rebellion fund is now full
    ("next", "s.db", "--to-end"),  # battle 3 is the rebellion
    ("reveal", "s.db"),
)
"""The `fairfight conquest` commands that play the example season, in order."""


def make_archive(target: Path) -> None:
    """Play the example season in a scratch folder and export its archive to `target`, with
    the command line of the `fairfight` this process imports."""
    from fairfight.cli import app

    with tempfile.TemporaryDirectory(prefix="fairfight-example-") as scratch:
        season = str(Path(scratch) / "s.db")
        exported = Path(scratch) / "archive"
        for verb, _, *rest in (*STEPS, ("export", "s.db", str(exported))):
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    app(["conquest", verb, season, *rest])
            except SystemExit as ended:  # the command line always ends with its exit code
                if ended.code not in (0, None):
                    raise SystemExit(f"fairfight conquest {verb} failed") from None
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(exported, target)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))  # this checkout's sources, not an installed copy
    make_archive(Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLES / "tiny-record")
