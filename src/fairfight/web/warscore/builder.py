"""The war score builder: form data to a battle file, validated and scored by the ruleset.

The form is only another way to write the battle file the command line reads: its values are
put into the file's nested shape, checked by the same pydantic models and `check_battle`, and
scored by `score_battle`. Uploaded or typed YAML goes through the command line's own readers.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits
from fairfight.warscore import (
    BattleInput,
    NwsInput,
    PostFormat,
    WarInput,
    battle_json,
    battle_post,
    load_battle,
    load_war,
    load_yaml_strict,
    nws_json,
    score_battle,
    score_nws,
    score_war,
    war_json,
    war_post,
)
from fairfight.warscore.forum import nws_lines, render
from fairfight.web.warscore.fields import NWS_FORM, SIDES, FieldSpec, all_fields

__all__ = [
    "FieldError",
    "FormValues",
    "Outcome",
    "REQUIRED_BLOCKS",
    "YAML_NAME",
    "battle_to_values",
    "check_battle_data",
    "check_nws",
    "check_war_text",
    "read_battle_or_war",
    "values_from_form",
    "values_of",
    "values_to_data",
    "yaml_of",
]

FormValues = dict[str, Any]
"""Form input name -> its value: a string, a list of strings (checkboxes) or a bool."""
YAML_NAME = "upload.yaml"
REQUIRED_BLOCKS = ("support", "technology")


@dataclass(frozen=True, slots=True)
class FieldError:
    """A refusal as the form shows it: the field's dotted path and the rule it broke."""

    field: str
    message: str


@dataclass(slots=True)
class Outcome:
    """What checking a battle or war gives: refusals, or the result and both posts."""

    errors: list[FieldError] = field(default_factory=list)
    result: dict[str, Any] | None = None
    text: str = ""
    bbcode: str = ""
    model: BaseModel | None = None

    @property
    def valid(self) -> bool:
        """No refusal: the result and posts are filled in."""
        return not self.errors

    def to_json(self) -> dict[str, Any]:
        """The JSON the builder's live validation reads."""
        return {"valid": self.valid,
                "errors": [{"field": e.field, "message": e.message} for e in self.errors],
                "result": self.result, "text": self.text, "bbcode": self.bbcode}


def _location(loc: Iterable[int | str]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "input"


def _errors_of(error: ValidationError, prefix: str = "") -> list[FieldError]:
    """Every problem pydantic found, one per field, first message kept."""
    found: dict[str, str] = {}
    for item in error.errors():
        where = _location(item["loc"])
        where = f"{prefix}.{where}" if prefix else where
        message = str(item["msg"]).removeprefix("Value error, ")
        found.setdefault(where, message)
    return [FieldError(where, message) for where, message in found.items()]


def _int_or_text(raw: str) -> int | str:
    """A whole number when the text is one; otherwise the text, for the model to refuse."""
    text = raw.strip().replace(",", "").replace("_", "")
    return int(text) if is_plain_digits(text.removeprefix("-")) else raw


def values_from_form(items: Iterable[tuple[str, Any]]) -> FormValues:
    """Read the known inputs out of posted form items (unknown names are ignored)."""
    posted: dict[str, list[str]] = {}
    for name, value in items:
        if isinstance(value, str):
            posted.setdefault(name, []).append(value)
    values: FormValues = {}
    for name, spec in all_fields():
        given = posted.get(name, [])
        if spec.kind == "multi":
            values[name] = [value for value in given if value]
        elif spec.kind == "bool":
            values[name] = any(value not in ("", "0", "false", "off") for value in given)
        else:
            values[name] = given[0].strip() if given else ""
    return values


def _put(target: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, leaf = dotted.split(".")
    for part in parents:
        target = target.setdefault(part, {})
    target[leaf] = value


def _converted(spec: FieldSpec, value: Any) -> Any:
    if spec.kind == "int":
        return _int_or_text(value)
    return value


def values_to_data(values: FormValues) -> dict[str, Any]:
    """The battle file's nested shape; empty inputs are left out so defaults apply.

    The blocks every army must have are always present, so a missing choice is reported at
    its own field (`defender.support.race`), never at the block that holds it.
    """
    data: dict[str, Any] = {}
    for name, spec in all_fields():
        value = values.get(name)
        if value in (None, "", [], False):
            continue
        _put(data, name, _converted(spec, value))
    for side in SIDES:
        army = data.setdefault(side, {})
        for block in REQUIRED_BLOCKS:
            army.setdefault(block, {})
    return data


def battle_to_values(battle: BattleInput) -> FormValues:
    """A validated battle as form values (to fill the form after an upload)."""
    data = battle.model_dump(mode="json")
    values: FormValues = {}
    for name, spec in all_fields():
        node: Any = data
        for part in name.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if spec.kind == "multi":
            values[name] = list(node or [])
        elif spec.kind == "bool":
            values[name] = bool(node)
        else:
            values[name] = "" if node is None else str(node)
    return values


def _scored_battle(battle: BattleInput) -> Outcome:
    result = score_battle(battle, battle.year)
    return Outcome(result=battle_json(result), text=battle_post(result, PostFormat.TEXT),
                   bbcode=battle_post(result, PostFormat.BBCODE), model=battle)


def check_battle_data(data: Any) -> Outcome:
    """Validate and score a battle given as plain data; every refusal is a field error."""
    try:
        battle = BattleInput.model_validate(data)
    except ValidationError as error:
        return Outcome(errors=_errors_of(error))
    try:
        return _scored_battle(battle)
    except InputError as error:
        return Outcome(errors=[FieldError(error.field, error.rule)])


def _scored_war(war: WarInput) -> Outcome:
    report = score_war(war)
    return Outcome(result=war_json(report), text=war_post(report, PostFormat.TEXT),
                   bbcode=war_post(report, PostFormat.BBCODE), model=war)


def read_battle_or_war(text: str, name: str = YAML_NAME) -> Outcome:
    """Read YAML text with the command line's readers (a battle or a war file) and score it.

    The text is written to a private temporary file so that `load_battle` / `load_war` read
    it exactly as they read a file named on the command line.
    """
    safe_name = Path(name).name or YAML_NAME
    try:
        with tempfile.TemporaryDirectory(prefix="fairfight-upload-") as folder:
            path = Path(folder) / YAML_NAME
            path.write_text(text, encoding="utf-8")
            try:
                data = load_yaml_strict(path)
                if isinstance(data, dict) and "war" in data and "battle" not in data:
                    return _scored_war(load_war(path))
                return _scored_battle(load_battle(path))
            except InputError as error:
                where = safe_name if error.field == str(path) else error.field
                return Outcome(errors=[FieldError(where, error.rule)])
    except RecursionError:
        return Outcome(errors=[FieldError(safe_name, "nested too deeply to be a war file")])


def check_war_text(text: str) -> Outcome:
    """A war file typed or pasted as YAML: read, validated and scored like the CLI's."""
    return read_battle_or_war(text, "war file")


def check_nws(values: FormValues) -> Outcome:
    """One nation's NWS for one year from the NWS form: every refusal by field, or its score,
    its post block and the war-file lines to paste under that year's `nws:`."""
    data = {spec.path: _converted(spec, values.get(spec.path, "")) for spec in NWS_FORM
            if values.get(spec.path, "") != ""}
    nation, year = data.pop("nation", None), data.pop("year", None)
    errors = [] if nation else [FieldError("nation", "Field required")]
    if not isinstance(year, int):
        errors.append(FieldError("year", "Field required" if year is None
                                 else "must be a whole number"))
    try:
        nws = NwsInput.model_validate(data)
    except ValidationError as error:
        errors += _errors_of(error)
    if errors or not isinstance(year, int):
        return Outcome(errors=errors)
    score = score_nws(str(nation), year, nws)
    block = [nws_lines(score)]
    snippet = yaml.safe_dump({str(nation): nws.model_dump(mode="json")}, sort_keys=False,
                             allow_unicode=True)
    return Outcome(result={**nws_json(score), "yaml": snippet},
                   text=render(block, PostFormat.TEXT), bbcode=render(block, PostFormat.BBCODE))


def values_of(items: Iterable[tuple[str, Any]], specs: Iterable[FieldSpec]) -> FormValues:
    """The posted values of a flat form (the NWS form) by field path."""
    posted = {name: value for name, value in items if isinstance(value, str)}
    return {spec.path: posted.get(spec.path, "").strip() for spec in specs}


def yaml_of(values: FormValues, problem: FieldError | None = None) -> str:
    """The form as a battle file (the format `fairfight warscore battle` reads)."""
    data = values_to_data(values)
    head = "# A battle file for `fairfight warscore battle`.\n"
    if problem is not None:
        head += f"# Not accepted yet: {problem.field}: {problem.message}\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
