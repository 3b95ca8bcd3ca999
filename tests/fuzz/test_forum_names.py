"""Names in war-score files never forge a line or a BBCode tag in a post: they are refused.

A name is printed verbatim into the text and BBCode posts, so `[url=javascript:...]` or a
name carrying `\\n- Result: 999% Total Victory` would rewrite the post a forum shows. Every
name field (nation, battle, war, approver) refuses line breaks, control characters and
square brackets with one line naming the field.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.fuzz.conftest import assert_refused, invoke

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "warscore"
FORGERIES = {
    "bbcode link": "Gondor [url=javascript:alert(1)]click[/url]",
    "forged result line": "Gondor\n- Result: 999% Total Victory",
    "carriage return": "Gondor\r[b]won[/b]",
    "line separator": "Gondor\u2028- Result: 999%",
    "control character": "Gon\x1bdor",
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
@pytest.mark.parametrize("field", ["battle", "attacker.nation", "defender.nation"])
@pytest.mark.parametrize("output", ["text", "bbcode", "json"])
def test_a_forged_name_is_refused_in_every_output(
    tmp_path: Path, forgery: str, field: str, output: str
) -> None:
    data = yaml.safe_load((EXAMPLES / "demonstration.yaml").read_text(encoding="utf-8"))
    *parents, last = field.split(".")
    holder = data
    for part in parents:
        holder = holder[part]
    holder[last] = FORGERIES[forgery]
    path = tmp_path / "battle.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = invoke("warscore", "battle", path, "--format", output)
    line = assert_refused(result, codes=(2,), given=FORGERIES[forgery])
    assert field in line and "square brackets" in line
    assert "999%" not in result.stdout and "[url" not in result.stdout


def test_an_honest_name_with_accents_and_punctuation_still_passes(tmp_path: Path) -> None:
    data = yaml.safe_load((EXAMPLES / "demonstration.yaml").read_text(encoding="utf-8"))
    data["battle"] = "Bataille de Minas Tirith — l'assaut (2e jour)"
    path = tmp_path / "battle.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    result = invoke("warscore", "battle", path, "--format", "bbcode")
    assert result.exit_code == 0, result.stderr
    assert "[b]Bataille de Minas Tirith — l'assaut (2e jour) (3019)[/b]" in result.stdout
