"""The shared core: positional draws, exact probability, canonical records, errors."""

from fairfight.core.errors import InputError, RuleError, VerificationError

__all__ = ["InputError", "RuleError", "VerificationError"]
