"""What the advice optimises, in words built from the bot's own constants.

Apart from `advisor` so the rules page can say it without importing the advice (which reads
the rules page's number formatting), and so the sentence can never drift from the numbers.
"""

from __future__ import annotations

from fairfight.ballot.botkit import CARD_COST, OFFICE_VALUE
from fairfight.ballot.pollster import RERUN_FLOOR, RESERVE, TAKE_FLOOR

__all__ = ["ADVICE_OPTIMISES"]


def _office_points() -> str:
    parts = [f"{office.value} {points}" for office, points in OFFICE_VALUE.items()]
    return ", ".join(parts[:-1]) + f" and {parts[-1]}"


ADVICE_OPTIMISES = (
    "The advice plays your seat as the Pollster bot would, for the most expected points: it "
    "weighs each race by its chance, read from the exact dice tables, times the points the "
    f"seat is worth ({_office_points()}; a House seat more when it would win the Speaker's "
    f"chair), less the {CARD_COST} point a card scores in hand. It re-runs a seat it holds when "
    f"the chance against a board candidate is at least {RERUN_FLOOR:.0%}, declares only where "
    f"that expected value reaches {TAKE_FLOOR} points, and keeps {RESERVE} cards in reserve for "
    "later years; once the field is revealed it withdraws a declaration worth less than its "
    "card; it votes for a bill it wrote, one whose seat would go to it, or one on its tags "
    "whose seat would not go to the leader. It sees only what your seat sees."
)
"""What the advice optimises: shown once on the seat page, at the terminal and on the rules
page."""
