"""The docstring under each enum member is what rules pages print beside it."""

from __future__ import annotations

import enum

from fairfight.core.enumdocs import member_docs


class Weather(enum.Enum):
    RAIN = "rain"
    """Water falls."""
    SUN = "sun"
    FOG = "fog"
    """Nobody sees far."""


def test_each_member_gets_the_string_under_it_in_declaration_order() -> None:
    docs = member_docs(Weather)
    assert list(docs) == [Weather.RAIN, Weather.SUN, Weather.FOG]
    assert docs[Weather.RAIN] == "Water falls."
    assert docs[Weather.FOG] == "Nobody sees far."


def test_a_member_without_a_docstring_gets_an_empty_one() -> None:
    assert member_docs(Weather)[Weather.SUN] == ""
