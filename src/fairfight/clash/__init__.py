"""The clash ruleset."""
