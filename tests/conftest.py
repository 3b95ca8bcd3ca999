"""Test-wide settings: a deterministic hypothesis profile so CI runs are repeatable."""

from hypothesis import settings

settings.register_profile("fairfight", derandomize=True, deadline=None, max_examples=60)
settings.load_profile("fairfight")
