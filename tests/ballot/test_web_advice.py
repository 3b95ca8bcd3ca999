"""The seat page shows the advice when the seat is asked: the same sentence as its JSON twin
and as `advisor.advise` on the seat's own view, with what the advice optimises once."""

from __future__ import annotations

import html
from pathlib import Path

from fairfight.ballot.advisor import ADVICE_OPTIMISES
from tests.ballot.test_tables import make_app
from tests.ballot.test_web import to_declare


def test_the_declare_page_shows_the_advice_and_what_it_optimises(tmp_path: Path) -> None:
    table, person, view = to_declare(make_app(tmp_path))
    advice = view["game"]["advice"]
    assert advice.startswith(("Run ", "Re-run ", "Declare nothing"))
    assert view["game"]["advice_optimises"] == ADVICE_OPTIMISES
    page = person.get(f"/ballot/tables/{table}/seats/0").text
    assert 'id="advice"' in page
    text = html.unescape(page)
    assert f"Advice: {advice}" in text.replace("<strong>Advice:</strong>", "Advice:")
    assert text.count(ADVICE_OPTIMISES) == 1
