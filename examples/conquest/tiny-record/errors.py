"""The errors every ruleset raises, each rendered as one line naming the field and the rule."""

from __future__ import annotations

__all__ = ["InputError", "RuleError", "VerificationError"]


class InputError(ValueError):
    """Input that breaks a rule of the format or of the game; the command line exits 2."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule

    def one_line(self) -> str:
        """The message as printed: `InputError: field: rule` on a single line."""
        return f"{type(self).__name__}: {self.field}: {' '.join(self.rule.split())}"


class RuleError(InputError):
    """A well-formed request the rules refuse (a spent pool, a season already over)."""


class VerificationError(Exception):
    """A replay or a published record that does not match; the command line exits 1."""

    def __init__(self, place: str, detail: str) -> None:
        super().__init__(f"{place}: {detail}")
        self.place = place
        self.detail = detail
