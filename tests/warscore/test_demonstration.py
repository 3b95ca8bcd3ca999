"""The source's worked example ("Demonstration battle"), recomputed by hand from its tables."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from fairfight.warscore import demonstration_post
from tests.warscore.conftest import DEMONSTRATION_FILE

# Hand arithmetic with the source's table values (seed 002, "Final Calculations and Example").
MORDOR = {
    "troops": Decimal("100.00"),  # 100,000 / 1,000
    "support": Decimal("1.00") + Decimal("0.20") - Decimal("0.30"),  # trolls, orc
    "morale": Decimal("1.00") - Decimal("0.05") + Decimal("0.20") + Decimal("0.10"),
    "technology": Decimal("1.00") + Decimal("0.10") - Decimal("0.10"),  # light, poorly made
}
GONDOR = {
    "troops": Decimal("43.14"),  # 43,142 / 1,000 rounded to hundredths
    "support": Decimal("1.00") + Decimal("0.20") + Decimal("0.00") + Decimal("0.10")
    + Decimal("0.10"),  # wizard, human, moderate ballista, moderate cavalry
    "morale": Decimal("1.00") + Decimal("0.05") - Decimal("0.20") + Decimal("0.20")
    + Decimal("0.50"),  # greater NWS, outnumbered, victorious, great leader
    "defensives": Decimal("1.25"),  # small fort
    "technology": Decimal("1.00") + Decimal("0.30") + Decimal("0.20"),  # partial plate, well made
}
MORDOR_TOTAL = MORDOR["troops"] * MORDOR["support"] * MORDOR["morale"] * MORDOR["technology"]
GONDOR_TOTAL = (
    GONDOR["troops"] * GONDOR["support"] * GONDOR["morale"] * GONDOR["defensives"]
    * GONDOR["technology"]
)


def two(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def test_hand_arithmetic_matches_the_source_figures() -> None:
    assert two(MORDOR_TOTAL) == "112.50"
    assert two(GONDOR_TOTAL) == "175.53"
    assert Decimal("175.525875") == GONDOR_TOTAL


def test_json_output(run: Any) -> None:
    result = run("battle", DEMONSTRATION_FILE, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {
        "battle", "year", "kind", "attacker", "defender", "percent", "tier", "winner", "outcome"
    }
    assert data["attacker"]["total"] == two(MORDOR_TOTAL) == "112.50"
    assert data["defender"]["total"] == two(GONDOR_TOTAL) == "175.53"
    assert data["percent"] == 156
    assert data["tier"] == "operational"
    assert data["winner"] == "defender"
    assert data["attacker"]["defensives"] is None
    for side, factors in (("attacker", MORDOR), ("defender", GONDOR)):
        assert set(data[side]) == {
            "nation", "troops", "support", "morale", "defensives", "technology", "total"
        }
        for name, value in factors.items():
            assert data[side][name] == two(value)
    assert data["battle"] == "Demonstration battle"
    assert data["year"] == 3019
    assert data["kind"] == "land"


def test_json_shorthand_flag(run: Any) -> None:
    assert json.loads(run("battle", DEMONSTRATION_FILE, "--json").stdout)["percent"] == 156


def _structure(text: str) -> list[tuple[str, str]]:
    """Each `- Name: value (notes)` line as (name, value); heading lines as (line, '')."""
    out = []
    for line in text.splitlines():
        assert line.startswith("- "), line
        body = line[2:]
        if ": " in body:
            name, rest = body.split(": ", 1)
            out.append((name, rest.split(" (")[0]))
        else:
            out.append((body, ""))
    return out


def test_text_follows_the_source_structure(run: Any) -> None:
    result = run("battle", DEMONSTRATION_FILE)
    assert result.exit_code == 0, result.output
    percent = (GONDOR_TOTAL / MORDOR_TOTAL * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP)
    expected = [
        ("Demonstration battle (3019)", ""),
        ("Attacker-Mordor", ""),
        ("Total", two(MORDOR_TOTAL)),
        ("Troops", two(MORDOR["troops"])),
        ("Support", two(MORDOR["support"])),
        ("Morale", two(MORDOR["morale"])),
        ("Defensives", "N/A"),
        ("Technology", two(MORDOR["technology"])),
        ("Defender-Gondor", ""),
        ("Total", two(GONDOR_TOTAL)),
        ("Troops", two(GONDOR["troops"])),
        ("Support", two(GONDOR["support"])),
        ("Morale", two(GONDOR["morale"])),
        ("Defensives", two(GONDOR["defensives"])),
        ("Technology", two(GONDOR["technology"])),
        ("Result", f"{percent}% Operational Victory for Gondor"),
    ]
    lines = _structure(result.stdout)
    assert [(name, value.split(":")[0]) for name, value in lines] == expected
    text = result.stdout
    assert "- Troops: 100.00 (100,000)" in text
    assert "- Troops: 43.14 (43,142)" in text
    assert "(Wizard, Human, Moderate Ballista, Moderate Cavalry)" in text
    assert "(Small Fort)" in text
    assert "Mordor is forced from the field and retreats in disorder" in text


def test_bbcode_nests_the_same_lines(run: Any) -> None:
    result = run("battle", DEMONSTRATION_FILE, "--format", "bbcode")
    assert result.exit_code == 0
    text = result.stdout
    assert text.startswith("[b]Demonstration battle (3019)[/b]\n[list]\n[*][b]Attacker-Mordor[/b]")
    assert text.count("[list]") == text.count("[/list]") == 3
    assert "[*]Total: 175.53" in text
    assert "[*]Defensives: N/A" in text


def test_demonstration_post_is_the_text_output(run: Any) -> None:
    assert demonstration_post() == run("battle", DEMONSTRATION_FILE).stdout


def test_shipped_copy_matches_the_example() -> None:
    from importlib.resources import files

    shipped = (files("fairfight.warscore") / "examples" / "demonstration.yaml").read_text("utf-8")
    assert shipped == DEMONSTRATION_FILE.read_text(encoding="utf-8")


def test_json_matches_the_figures_stated_in_the_source(run: Any) -> None:
    import yaml

    golden = yaml.safe_load((Path(__file__).parent / "golden" / "demonstration.yaml").read_text())
    data = json.loads(run("battle", DEMONSTRATION_FILE, "--json").stdout)
    for key, expected in golden.items():
        assert data[key] == expected, key


def test_broken_army_json_has_null_total_percent_and_tier(
    run: Any, demo: dict[str, Any], write_yaml: Callable[[Any], Path]
) -> None:
    # Mordor: 1 - 0.20 (half NWS) + 0.20 (outnumbering) - 0.20 (defeated) - 0.90 = -0.10
    demo["attacker"]["morale"].update(
        nws="less-than-half", previous="recently-defeated", positioning="surrounded-out-of-supply"
    )
    result = run("battle", write_yaml(demo), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["attacker"]["morale"] == "-0.10"
    assert data["attacker"]["total"] is None
    assert data["defender"]["total"] == "175.53"
    assert (data["percent"], data["tier"], data["winner"]) == (None, None, "defender")
    assert "disbands or surrenders" in data["outcome"]
