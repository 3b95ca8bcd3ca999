"""The ballot ruleset."""
