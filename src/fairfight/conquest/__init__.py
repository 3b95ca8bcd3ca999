"""The conquest ruleset."""
