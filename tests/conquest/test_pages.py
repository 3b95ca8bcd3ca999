"""Episodes, the rules page and the package surface."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from fairfight.conquest.cli.demo_run import run_demo
from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import engine, episodes, tables
from fairfight.conquest.rules_page import (
    docs_by_value,
    multiplier,
    rules_context,
    rules_page,
    share_percent,
)
from tests.conquest.helpers import SEED, pair_map, play, seed_number, star_map


def test_episode_shows_what_the_show_promises() -> None:
    _, history, _ = play(star_map(), SEED, {1: [("AB", 25)]}, stop_after=2)
    entry = history[0]
    text = episodes.render_episode(entry)
    assert f"Battle 1: {entry['attacker']} attacks {entry['defender']}" in text
    assert f"{entry['border']['kind']} border" in text
    for draw in entry["draws"][3:]:
        assert episodes.round_draw(draw["value"]) in text
    for field in ("before", "after"):
        assert episodes.percent(entry["battle_chance"][field]) in text
    assert f"RESULT: {entry['winner']} wins" in text and "morale after" in text
    assert entry["reason"] in text
    assert text.count("attacker") >= 1 and "changed hands" in text


def test_episode_marks_secured_clash_upset_and_rebellion() -> None:
    _, history, _ = play(pair_map(), SEED, {1: [("AA", 50), ("AB", 50)]}, stop_after=1)
    assert "FAN CLASH" in episodes.render_episode(history[0])
    _, history, _ = play(pair_map(), SEED, {1: [("AA", 50)]}, stop_after=1)
    assert "SECURED" in episodes.render_episode(history[0])
    for i in range(40):
        _, history, _ = play(star_map(), seed_number(i))
        upsets = [e for e in history if e["upset"]]
        if upsets:
            assert "UPSET" in episodes.render_episode(upsets[0])
            assert "UPSET" in episodes.headline(upsets[0])
            break
    else:
        raise AssertionError("no upset found")


def test_markdown_episode_has_the_same_rows_as_text() -> None:
    _, history, _ = play(star_map(), SEED, {1: [("AB", 25)]}, stop_after=1)
    entry = history[0]
    markdown = episodes.render_markdown(entry)
    view = episodes.episode_view(entry)
    assert markdown.startswith(f"### {view.title}")
    for label, attacker, defender in view.sides:
        assert f"| {label} | {attacker} | {defender} |" in markdown
    for label, cells in view.rounds[1:]:
        assert f"| {label} | " + " | ".join(cells) + " |" in markdown
    assert f"**{view.odds}**" in markdown


def test_percent_and_draw_formatting() -> None:
    assert episodes.percent(Fraction(1, 3)) == "33.33%"
    assert episodes.round_draw(2**63) == "0.5000"
    assert episodes.morale_text(1110) == "+11.10%"


def _walk(value: object) -> list[str]:
    """Every leaf of the rules context, as text."""
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _walk(item)]
    if isinstance(value, list | tuple):
        return [leaf for item in value for leaf in _walk(item)]
    return [str(value)]


def test_rules_page_shows_every_constant() -> None:
    page = rules_page()
    for leaf in _walk(rules_context()):
        assert leaf in page, leaf
    for expected in (
        multiplier(tables.HOME_BONUS),
        multiplier(tables.SEA_FACTOR),
        multiplier(tables.COUNTER_BONUS),
        multiplier(tables.SPECIAL_BONUS),
        multiplier(tables.MORALE_DECAY),
        share_percent(tables.UPSET_BELOW),
        f"${tables.POOL_CAP}",
        f"${tables.POOL_STEP}",
    ):
        assert expected in page
    for weight in tables.RATING_WEIGHTS.values():
        assert f"| {weight} |" in page
    for kind in tables.FactionType:
        assert f"| {kind.value} | {tables.COUNTERS[kind].value} |" in page
    assert "×1.12" in page and "×0.8" in page and "18.9%" in page and "81.1%" in page
    assert "filled by fans after the conquest" in page


def test_member_docs_reads_each_enum_member_docstring() -> None:
    docs = docs_by_value(tables.Reason)
    assert set(docs) == {r.value for r in tables.Reason}
    assert all(docs.values())


def test_rules_command_prints_the_page() -> None:
    result = CliRunner().invoke(app, ["rules"])
    assert result.exit_code == 0 and result.output == rules_page()


def test_demo_runs_a_whole_season_and_verifies(tmp_path: Path) -> None:
    result = run_demo(tmp_path / "demo.db", map_data=synthetic_map(40, 50, 30), seed=SEED)
    assert result.battles >= 39
    assert result.rebellions == 1
    assert any("final map matches" in note for note in result.verification)
    assert (tmp_path / "demo.db").exists()


def _percent(value: Fraction) -> str:
    return f"{float(value * 100):.4f}".rstrip("0").rstrip(".") + "%"


def _times(value: Fraction) -> str:
    return f"×{float(value):g}"


def _page_forms() -> dict[str, list[str]]:
    """How each engine constant shows on the rules page, formatted here from its value."""
    e = tables
    full_after = (e.INTEGRATION_DENOMINATOR - e.INTEGRATION_START) // e.INTEGRATION_STEP + 1
    return {
        "BASIS_POINTS": [f"1/{e.BASIS_POINTS}"],
        "BEACON_LEAD_SECONDS": [f"less than {e.BEACON_LEAD_SECONDS} s after its publication"],
        "BORDER_KINDS": list(e.BORDER_KINDS),
        "CATEGORIES": [f"| {c.value}: " for c in e.CATEGORIES],
        "CATEGORY_TYPES": [
            f"| {e.RATING_WEIGHTS[c]} | {t.value} |" for c, t in e.CATEGORY_TYPES.items()
        ],
        "CLAMP_PER_MILLE": [
            _percent(Fraction(e.CLAMP_PER_MILLE, 1000)),
            _percent(1 - Fraction(e.CLAMP_PER_MILLE, 1000)),
        ],
        "COUNTERS": [f"| {a.value} | {b.value} |" for a, b in e.COUNTERS.items()],
        "COUNTER_BONUS": [f"| counter | {_times(e.COUNTER_BONUS)} |"],
        "COUNTER_CIRCLE": [f"| {t.value} |" for t in e.COUNTER_CIRCLE],
        "DRAWS_PER_BATTLE": [f"{e.DRAWS_PER_BATTLE}(n − 1)"],
        "DRAW_ROLES": [f"{i}. {role}" for i, role in enumerate(e.DRAW_ROLES)],
        "ENGINE_FILES": [f"`{name}`" for name in e.ENGINE_FILES],
        "ENGINE_VERSION": [e.ENGINE_VERSION],
        "GUIDE": [f"a guide, `{e.GUIDE}`"],
        "FAN_BOOST_AT_CAP": [f"1 + {_percent(e.FAN_BOOST_AT_CAP)} × pool ÷ ${e.POOL_CAP}"],
        "HOME_BONUS": [f"| home | {_times(e.HOME_BONUS)} |"],
        "INTEGRATION_DENOMINATOR": [f"| {full_after} and later | 100% |"],
        "INTEGRATION_START": [
            f"| 1 | {_percent(Fraction(e.INTEGRATION_START, e.INTEGRATION_DENOMINATOR))} |"
        ],
        "INTEGRATION_STEP": [
            f"adding {_percent(Fraction(e.INTEGRATION_STEP, e.INTEGRATION_DENOMINATOR))}"
        ],
        "LAND": [f"{e.LAND} fight"],
        "LEGACY_ENGINE_FILES": [
            "carries " + ", ".join(f"`{name}`" for name in e.LEGACY_ENGINE_FILES) + " instead"
        ],
        "LOG_KEY": [f"(`{e.LOG_KEY}`, the public half of a signing key)"],
        "LOG_RECORD_FILES": [
            ", ".join(f"`{name}` ({role})" for role, name in e.LOG_RECORD_FILES.items()) + "."
        ],
        "MANIFEST": [f"and `{e.MANIFEST}`, the SHA-256"],
        "BEFORE_LUCK_ENGINE_FILES": [
            "carries " + " ".join(f"`{name}`," for name in e.BEFORE_LUCK_ENGINE_FILES)[:-1]
            + " instead, and"
        ],
        "BEFORE_WITNESS_ENGINE_FILES": [
            "carries " + " ".join(f"`{name}`," for name in e.BEFORE_WITNESS_ENGINE_FILES)[:-1]
            + " instead: all"
        ],
        "LUCK_ENGINE_FILE": [f"header names `{e.LUCK_ENGINE_FILE}`, which recomputes"],
        "LUCK_FORMAT": [f"the luck (`{e.LUCK_FORMAT}`)"],
        "PREVIOUS_ENGINE_FILES": [
            "carries " + " ".join(f"`{name}`," for name in e.PREVIOUS_ENGINE_FILES)[:-1]
            + " instead, one"
        ],
        "MORALE_CAP_BP": [f"never exceeds {_percent(Fraction(e.MORALE_CAP_BP, e.BASIS_POINTS))}"],
        "MORALE_DECAY": [f"decays {_times(e.MORALE_DECAY)}"],
        "MORALE_UPSET_BP": [f"or {_percent(Fraction(e.MORALE_UPSET_BP, e.BASIS_POINTS))}"],
        "MORALE_WIN_BP": [f"adds {_percent(Fraction(e.MORALE_WIN_BP, e.BASIS_POINTS))}"],
        "POOL_CAP": [f"up to ${e.POOL_CAP}"],
        "POOL_STEP": [f"add ${e.POOL_STEP} at a time"],
        "POWER_EXPONENT": [
            f"N^{float(e.POWER_EXPONENT):g}",
            f"{e.POWER_EXPONENT.numerator}/{e.POWER_EXPONENT.denominator}",
        ],
        "POWER_SCALE": [f"1/{e.POWER_SCALE:,}"],
        "QUICKNET": [
            f"drand {e.QUICKNET['name']} (chain hash `{e.QUICKNET['chain_hash']}`)",
            f"(unix {e.QUICKNET['genesis']}) plus {e.QUICKNET['period_seconds']} s",
        ],
        "RATING_MAX": [f"from {e.RATING_MIN} to {e.RATING_MAX}"],
        "RATING_MIN": [f"from {e.RATING_MIN} to {e.RATING_MAX}"],
        "RATING_WEIGHTS": [f"| {w} |" for w in e.RATING_WEIGHTS.values()],
        "RECORD_FILES": [f"`{name}`" for name in e.RECORD_FILES.values()],
        "ROUNDS_TO_WIN": [f"first to {e.ROUNDS_TO_WIN}"],
        "ROUND_BITS": [f"2^{e.ROUND_BITS}", f"top {e.ROUND_BITS} bits"],
        "ROUND_CEILING": [f"and {e.ROUND_CEILING} out of"],
        "ROUND_FLOOR": [f"({e.ROUND_FLOOR} and"],
        "ROUND_SCALE": [f"out of 2^{e.ROUND_SCALE.bit_length() - 1}"],
        "SEA": [f"{e.SEA} border"],
        "SEA_FACTOR": [f"| sea | {_times(e.SEA_FACTOR)} |"],
        "SHOWN_LENGTH": [f"cut to {e.SHOWN_LENGTH} characters"],
        "SPECIAL_BONUS": [f"| special | {_times(e.SPECIAL_BONUS)} |"],
        "STRENGTH_FACTORS": [f"| {name} |" for name in e.STRENGTH_FACTORS],
        "UPSET_BELOW": [f"under {_percent(e.UPSET_BELOW)}"],
    }


def test_rules_page_shows_every_engine_constant() -> None:
    """Walk the tables' constants themselves, so a new one cannot be left off the page."""
    constants = {
        name
        for name, value in vars(tables).items()
        if name.isupper() and not name.startswith("_") and not isinstance(value, type)
    }
    forms = _page_forms()
    assert set(forms) == constants
    page = " ".join(rules_page().split())
    for name, texts in forms.items():
        for text in texts:
            assert " ".join(text.split()) in page, (name, text)


def test_rules_template_types_no_number_by_hand() -> None:
    """Outside `{{ ... }}` the only digits are notation: list markers, SHA-256, battle 1,
    the 1 of `1/unit` and `1 + x`, the base of `2^bits` and the n − 1 of the draw formula."""
    template = Path(engine.__file__).parents[2] / "docs" / "templates" / "conquest.md.j2"
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", template.read_text(encoding="utf-8"), flags=re.S)
    for notation in (r"(?m)^\d\. ", "SHA-256", "battle 1", r"\b1/", r"\b1 \+ ", "2\\^", "n − 1"):
        text = re.sub(notation, "", text)
    assert re.findall(r"\d", text) == []


def test_the_running_score_counts_each_round_and_marks_the_third_win() -> None:
    # by hand: D A A D A gives 0-1, 1-1, 2-1, 2-2, then 3-2 (the attacker's third win)
    rounds = [{"winner": w} for w in ("defender", "attacker", "attacker", "defender",
                                      "attacker")]
    assert episodes.running_score({"rounds": rounds}) == [
        (0, 1, False), (1, 1, False), (2, 1, False), (2, 2, False), (3, 2, True)]
    # A A A D D: settled after the third round, the last two are played out
    rounds = [{"winner": w} for w in ("attacker",) * 3 + ("defender",) * 2]
    assert [settled for *_, settled in episodes.running_score({"rounds": rounds})] == [
        False, False, True, True, True]


def test_a_draw_falls_on_the_chance_bar_in_whole_per_mille() -> None:
    # u = x / 2**64: 0 -> 0, one below a half -> 499, a half -> 500, the largest -> 999
    assert episodes.draw_permille(0) == 0
    assert episodes.draw_permille(2**63 - 1) == 499
    assert episodes.draw_permille(2**63) == 500
    assert episodes.draw_permille(2**64 - 1) == 999
