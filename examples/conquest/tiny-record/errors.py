"""The errors every ruleset raises, each rendered as one line naming the field and the rule."""

from __future__ import annotations

import json

__all__ = ["NOTHING_GIVEN", "SHOWN_VALUE_CHARACTERS", "InputError", "RuleError",
           "VerificationError", "shown_value"]

SHOWN_VALUE_CHARACTERS = 40
"""Longest value quoted back in a refusal; a longer one is cut and ends with an ellipsis."""


class _NothingGiven:
    """The value of a refusal that quotes nothing back (a missing field, a rule of the game)."""

    def __repr__(self) -> str:
        return "NOTHING_GIVEN"


NOTHING_GIVEN = _NothingGiven()


def shown_value(value: object) -> str:
    """A value as a refusal quotes it: JSON-like (`"1"`, `true`, `1.0`), on one line, any lone
    surrogate escaped (so the line can always be printed or sent), cut past
    `SHOWN_VALUE_CHARACTERS`."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    text = " ".join(text.split())
    if len(text) > SHOWN_VALUE_CHARACTERS:
        text = text[: SHOWN_VALUE_CHARACTERS - 1] + "…"
    return text


class InputError(ValueError):
    """Input that breaks a rule of the format or of the game; the command line exits 2.

    `value` is what was given, quoted back in the message when known (`NOTHING_GIVEN`: not)."""

    def __init__(self, field: str, rule: str, value: object = NOTHING_GIVEN) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule
        self.value = value

    @property
    def given(self) -> str | None:
        """The value given as quoted back (shortened), or None when none is known."""
        return None if self.value is NOTHING_GIVEN else shown_value(self.value)

    def one_line(self) -> str:
        """The message as printed: `InputError: field: rule` on a single line, then the value
        given when known."""
        given = "" if self.given is None else f" (given {self.given})"
        return f"{type(self).__name__}: {self.field}: {' '.join(self.rule.split())}{given}"


class RuleError(InputError):
    """A well-formed request the rules refuse (a spent pool, a season already over)."""


class VerificationError(Exception):
    """A replay or a published record that does not match; the command line exits 1."""

    def __init__(self, place: str, detail: str) -> None:
        super().__init__(f"{place}: {detail}")
        self.place = place
        self.detail = detail
