"""The bounds of the foresight tools (plan odds), in a module of their own so the rules page
and the docs can state them without loading the counting machinery."""

from __future__ import annotations

__all__ = ["GROUP_REACH", "JOINT_LIMIT", "MAX_PLAN_OUTCOMES"]

MAX_PLAN_OUTCOMES = 400
"""The most exchange outcomes (a state before an exchange times a distinct result of it) the
count of a plan's odds may visit; past it the plan is refused, never sampled."""
GROUP_REACH = 3
"""Orders whose tiles are all further apart than this share no unit: an exchange reads and
changes tiles at most one step from its own, so two such orders cannot touch each other."""
JOINT_LIMIT = 16
"""The joint distribution of the objectives is given when it has at most this many rows."""
