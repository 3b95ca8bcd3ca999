"""The warscore ruleset."""
