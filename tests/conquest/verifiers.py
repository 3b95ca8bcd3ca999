"""Both season verifiers on the same folders: the standard-library engine and engine.js."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from fairfight.conquest.record import verifier
from fairfight.conquest.rules import engine
from tests.system import node_path

__all__ = ["ENGINE_JS", "javascript_verdicts", "python_verdict"]

ENGINE_JS = Path(engine.__file__).parents[1] / "record" / "engine.js"
_DRIVER = """
const engine = require(process.argv[2]);
(async () => {
  for (const path of process.argv.slice(3)) {
    const result = await engine.verifyPath(path);
    process.stdout.write(JSON.stringify({ path, ok: result.ok, message: result.message || null,
      notes: result.notes || null }) + "\\n");
  }
})();
"""


def python_verdict(folder: Path) -> tuple[bool, str | None, list[str] | None]:
    """(passed, the first difference, the notes) from the standard-library verifier."""
    try:
        notes = verifier.verify_record(verifier.load_record(folder))
    except engine.ReplayMismatch as mismatch:
        return False, str(mismatch), None
    return True, None, notes


def javascript_verdicts(folders: list[Path], tmp: Path) -> dict[str, dict[str, Any]]:
    """Every folder verified by engine.js in one Node process."""
    driver = tmp / "driver.js"
    driver.write_text(_DRIVER, encoding="utf-8")
    run = subprocess.run(
        [node_path(), str(driver), str(ENGINE_JS), *map(str, folders)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    results = [json.loads(line) for line in run.stdout.splitlines()]
    return {result["path"]: result for result in results}
