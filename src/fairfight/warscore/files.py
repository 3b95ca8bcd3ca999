"""Reading battle and war files: YAML syntax, repeated keys, then the pydantic models."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_yaml
from fairfight.warscore.model import BattleInput, WarInput, check_battle

DEMONSTRATION = "demonstration.yaml"
"""The source's worked example, shipped inside the package."""


def load_yaml_strict(path: Path) -> Any:
    """Parse a YAML file: syntax errors name the line, repeated keys and aliases are refused."""
    return load_yaml(path)


def _mapping(path: Path, data: Any, kind: str, other: str) -> dict[str, Any]:
    """The top of a battle or war file must be a mapping of the right kind."""
    if not isinstance(data, dict):
        raise InputError(str(path), f"must be a YAML mapping with a `{kind}:` key")
    if kind not in data and other in data:
        raise InputError(str(path), f"is a {other} file; use `fairfight warscore {other}`")
    return data


def load_battle(path: Path) -> BattleInput:
    """A battle file, validated field by field and then across fields."""
    data = _mapping(path, load_yaml_strict(path), "battle", "war")
    battle = parse_model(BattleInput, data)
    check_battle(battle)
    return battle


def load_war(path: Path) -> WarInput:
    """A war file, validated field by field (cross-field rules run when it is scored)."""
    return parse_model(WarInput, _mapping(path, load_yaml_strict(path), "war", "battle"))


def demonstration_battle() -> BattleInput:
    """The source's demonstration battle (Mordor attacks Gondor at a small fort)."""
    with as_file(files("fairfight.warscore") / "examples" / DEMONSTRATION) as path:
        return load_battle(path)


def demonstration_post() -> str:
    """The demonstration battle's forum post, as plain text."""
    from fairfight.warscore.forum import battle_post
    from fairfight.warscore.score import score_battle

    battle = demonstration_battle()
    return battle_post(score_battle(battle, battle.year))


__all__ = [
    "DEMONSTRATION",
    "demonstration_battle",
    "demonstration_post",
    "load_battle",
    "load_war",
    "load_yaml_strict",
]
