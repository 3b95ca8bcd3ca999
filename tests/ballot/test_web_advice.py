"""The seat page shows the advice when the seat is asked: the same sentence as its JSON twin
and as `advisor.advise` on the seat's own view, with what the advice optimises once."""

from __future__ import annotations

import html
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

from fairfight.ballot.advice import declaration_chance
from fairfight.ballot.advisor import ADVICE_OPTIMISES, advise
from fairfight.ballot.state import NO_CARD, Declarations, decision_from_data
from fairfight.ballot.store import BallotStore
from fairfight.ballot.tables import Party, named_config
from fairfight.web.ballot.service import CONFIG_NAME
from tests.ballot.test_tables import make_app, seat_view, seated, simple_answer
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


DISTRICT_KEY = "0" * 63 + "1"
"""A deal whose advice runs a race with a district card: seats human, machine and pollster, one
year, the person drafting the first card of each pack, then asked to declare in 2028. Found by
dealing keys 0, 1, 2, ... (as 64 hex digits) and asking `advise` for seat 0 at its declare
step until an advised declaration carried a district card; this key's advice runs S-AR-III
with card #116 as R and the Arkansas district card #147 beside it."""
DISTRICT_RACE = "S-AR-III"


class _Form(HTMLParser):
    """The fields a browser would post from the page's move form: hidden inputs, checked
    radios, and each select's selected option (its first when none is)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.inside = False
        self.select = ""
        self.texted = ""
        """The field an option without a value attribute fills with its text."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.inside = at.get("id") == "move"
        if not self.inside:
            return
        if tag == "input" and (at.get("type") == "hidden" or "checked" in at):
            self.fields[at["name"]] = at["value"]
        elif tag == "select":
            self.select = at["name"]
        elif tag == "option" and self.select and (
            "selected" in at or self.select not in self.fields
        ):
            self.fields[self.select] = at.get("value", "")
            self.texted = "" if "value" in at else self.select

    def handle_endtag(self, tag: str) -> None:
        self.inside = self.inside and tag != "form"
        self.select = "" if tag == "select" else self.select
        self.texted = ""

    def handle_data(self, data: str) -> None:
        if self.texted:
            self.fields[self.texted] += data.strip()


def _posted_form(page: str) -> dict[str, str]:
    parser = _Form()
    parser.feed(page)
    return parser.fields


def test_taking_the_advice_declares_its_district_card_at_its_chance(tmp_path: Path) -> None:
    """The advice runs a race with a district card: the page picks that declaration with the
    district card, priced with it (HTML and JSON twin), and its pre-filled form, posted as it
    stands, records exactly the advice's declarations."""
    app = make_app(tmp_path)
    store: BallotStore = app.state.ballot_store
    config = named_config(CONFIG_NAME, "points").model_copy(update={"year_cap": 1})
    table, _, tokens = store.create(config, ["human", "machine", "pollster"], client="test",
                                    key=DISTRICT_KEY)
    person = seated(app, {"id": table, "seats": [{"seat": 0, "token": tokens[0]}]})[0]
    url = f"/ballot/tables/{table}/seats/0"
    view = seat_view(person, table, 0)
    while view["game"]["phase"] != "declare":
        move = {"version": view["version"], "decision": simple_answer(view["game"])}
        assert person.post(f"/api{url}/move", json=move).status_code == 200
        view = seat_view(person, table, 0)
    row = store.load(table)
    assert row is not None and (game := row.game()) is not None
    state = game.state
    advice = advise(state, 0)
    assert isinstance(advice.choice, Declarations)
    entry = next(e for e in advice.choice.entries if e.district_card != NO_CARD)
    assert (entry.race, entry.card, entry.party, entry.district_card) == (
        DISTRICT_RACE, 116, Party.R, 147)
    priced = declaration_chance(state, entry)
    bare = declaration_chance(state, replace(entry, district_card=NO_CARD))
    assert priced.chance != bare.chance  # the district card is part of what is priced
    advised = next(a for a in view["game"]["advised"] if a["race"] == DISTRICT_RACE)
    assert (advised["district_card"], advised["percent"]) == (147, priced.percent())
    value = "116:R:147"
    race = next(r for r in view["game"]["choices"] if r["race"] == DISTRICT_RACE)
    option = next(o for o in race["options"] if o["suggested"])
    assert option["value"] == value
    assert (option["district"]["id"], option["district"]["state"]) == (147, "AR")
    assert option["chance"]["district_card"] == 147
    assert option["chance"]["percent"] == priced.percent()
    assert option["chance"]["fraction"] == (str(priced.chance) if priced.exact else "")
    page = person.get(url).text
    label = page[page.index(f'name="pick_{DISTRICT_RACE}" value="{value}" checked'):]
    label = html.unescape(label[:label.index("</label>")])
    assert "with district card #147 (AR)" in label and f"{priced.percent()}%" in label
    form = _posted_form(page)
    assert form[f"pick_{DISTRICT_RACE}"] == value
    steps = len(row.steps)
    review = person.post(f"{url}/move", data=form)
    assert review.status_code == 200 and "Confirm your move" in review.text
    done = person.post(f"{url}/move", data=form | {"confirm": "1"}, follow_redirects=False)
    assert done.status_code == 303
    after = store.load(table)
    assert after is not None and len(after.steps) > steps
    recorded = decision_from_data(after.steps[steps]["0"])
    assert isinstance(recorded, Declarations)
    assert sorted(recorded.entries, key=str) == sorted(advice.choice.entries, key=str)
