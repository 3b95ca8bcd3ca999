"""What a seat's page says beside a question: a chance is an exact fraction only when the engine
counted it exactly (an estimate is labelled with its method), the withdraw step is priced against
the rivals now visible and lists them, the presidency is exact, the declare form explains card
labels, the author form projects each tag pair's yes votes, and an amendment vote warns a seat
that ratifying would end the game while it trails."""

from __future__ import annotations

from typing import Any

from markupsafe import escape
from starlette.requests import Request

from fairfight.ballot.advice import presidency_chance, strongest_declarations
from fairfight.ballot.deck import build_cards
from fairfight.ballot.engine import requested_seats
from fairfight.ballot.geo import PRESIDENCY_ID, game_map
from fairfight.ballot.guidance import (
    card_glossary,
    projected_votes,
    ratifying_ends_game_while_trailing,
)
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.scoring import scores
from fairfight.ballot.state import Amendment, Declaration, Declarations, GameState, Phase
from fairfight.ballot.tables import TAGS, Party
from fairfight.web.ballot.forms import describe
from fairfight.web.ballot.seat_page import RATIFY_WARNING, GamePage, view_page
from fairfight.web.ballot.tables import TablePage
from fairfight.web.templating import templates
from tests.ballot.test_guidance import _play_until
from tests.ballot.test_revealed import _withdraw_steps
from tests.ballot.test_web import app, to_declare

__all__ = ["app"]

NAMES = ["seat 0", "seat 1", "seat 2", "seat 3"]


def rendered(app: Any, game: GamePage) -> str:
    """The seat page's HTML for a page model, as the route renders it."""
    page = TablePage(
        id="t", status="playing", listed=False, mode=game.victory, years=1, version=0,
        commitment="0" * 64, key=None, rules_version="", clock="no clock", you=game.you,
        host=False, seats=[], waiting_for=[], answered=False, game=game,
    )
    request = Request({"type": "http", "app": app, "method": "GET", "path": "/", "headers": []})
    context = {"request": request, "page": page, "form": {}, "errors": {}, "notice": "",
               "rows": len(game.declarable)}
    return templates.get_template("ballot/table.html").render(context)


def test_a_presidential_year_shows_no_fraction_beside_an_estimate(app: Any) -> None:
    table, person, view = to_declare(app)
    state = app.state.ballot_store.load(table).game().state
    assert 0 in game_map().races_in(state.year)  # a presidential year
    page = person.get(f"/ballot/tables/{table}/seats/0").text
    priced = strongest_declarations(state, 0)
    estimates = [p for p in priced if not p.exact]
    assert estimates, "a presidential year prices its down-ballot races as estimates"
    for suggestion, engine in zip(view["game"]["suggestions"], priced, strict=True):
        assert suggestion["exact"] is engine.exact
        if engine.exact:
            assert suggestion["fraction"] == str(engine.chance)
        else:
            assert suggestion["fraction"] == "" and str(engine.chance) not in page
            assert suggestion["method"].startswith("estimate: ")
            assert suggestion["text"] == f"about {engine.percent()}% ({engine.method})"
    assert str(escape(estimates[0].method)) in page
    # the confirmation page prices the presidency exactly and the other race as an estimate
    card = next(c for c in state.hands[0] if build_cards(state.key)[c].is_candidate)
    race = next(game_map().seats[i].race_id for i in game_map().races_in(state.year) if i)
    other = next(c for c in state.hands[0] if build_cards(state.key)[c].is_candidate and c != card)
    entries = (Declaration(0, PRESIDENCY_ID, card, Party.D), Declaration(0, race, other, Party.R))
    (_, president), (_, down) = describe(state, Declarations(entries))
    exact = presidency_chance(state, entries[0])
    assert exact.exact and president is not None and president.exact
    assert president.fraction == str(exact.chance)
    assert down is not None and not down.exact and down.fraction == ""
    assert "estimate" in down.method


def _withdraw_with_rivals() -> tuple[GameState, Declaration]:
    for state in _withdraw_steps("1000", 2):
        for decl in state.declarations:
            if any(e.race == decl.race and e.player != decl.player for e in state.declarations):
                return state, decl
    raise AssertionError("no contested race at a withdraw step")


def test_the_withdraw_step_prices_against_the_visible_rivals_and_lists_them(app: Any) -> None:
    state, decl = _withdraw_with_rivals()
    page = view_page("t", state, [], NAMES, decl.player, True)
    shown = next(d for d in page.my_declarations if d.race == decl.race)
    engine = revealed_chance(state, decl)
    assert shown.percent == engine.percent() and shown.exact is engine.exact
    assert shown.fraction == (str(engine.chance) if engine.exact else "")
    assert shown.how == engine.how
    cards = build_cards(state.key)
    rivals = [e for e in state.declarations if e.race == decl.race and e.player != decl.player]
    assert len(shown.rivals) == len(rivals)
    for line, rival in zip(shown.rivals, rivals, strict=True):
        assert f"seat {rival.player}" in line and cards[rival.card].label() in line
    text = rendered(app, page)
    parties = {"D": "Democrat", "R": "Republican"}
    for rival in rivals:  # each rival as a card, said in words: never a code like `#137 R m3 []`
        assert f"Seat {rival.player}, running as {parties[rival.party.value]}" in text
        assert f'data-card="{rival.card}"' in text
        assert str(escape(cards[rival.card].label())) not in text
    if shown.exact:  # the percentage marked exact, the fraction folded beneath it
        assert f'<strong>{escape(shown.percent)}%</strong> <span class="exact">exact</span>' in text
        assert f"<summary>fraction</summary><code>{shown.fraction}</code>" in text
    else:
        assert f"about {escape(shown.percent)}%" in text


def test_the_declare_form_explains_card_labels(app: Any) -> None:
    table, person, _ = to_declare(app)
    page = person.get(f"/ballot/tables/{table}/seats/0").text
    assert 'id="glossary"' in page
    for entry in card_glossary():
        assert str(escape(entry.meaning)) in page, entry.term


def test_the_author_form_projects_every_tag_pairs_yes_votes(app: Any) -> None:
    state = _play_until("1000", Phase.AUTHOR)
    author = requested_seats(state)[0]
    page = view_page("t", state, [], NAMES, author, True)
    pairs = [(a, b) for n, a in enumerate(TAGS) for b in TAGS[n + 1:]]
    assert [tuple(p.tags) for p in page.projections] == pairs
    for row in page.projections:
        votes = projected_votes(state, author, (row.tags[0], row.tags[1]))
        assert (row.house_own, row.senate_own) == votes.with_own()
        assert (row.house_all, row.senate_all) == votes.with_everyone()
        assert row.passes_with_own is votes.passes_with_own()
    assert page.needed == [votes.needed_house, votes.needed_senate]
    text = rendered(app, page)
    assert 'id="projections"' in text and text.count("<tr><td>") >= len(pairs)
    assert not view_page("t", state, [], NAMES, author, False).projections


def test_an_amendment_vote_warns_when_ratifying_ends_the_game_while_you_trail(app: Any) -> None:
    state = _play_until("1000", Phase.AUTHOR)
    pending = Amendment(state.amendments_created, state.year - 1, ("catholic", "jewish"), 0)
    voting = state.with_changes(phase=Phase.AMEND_VOTE, pending_amendment=pending)
    totals = scores(voting)
    for seat in range(4):
        page = view_page("t", voting, [], NAMES, seat, True)
        expected = ratifying_ends_game_while_trailing(voting, seat)
        assert (page.warning == RATIFY_WARNING) is expected
        assert ('id="ratify-warning"' in rendered(app, page)) is expected
    trailing = min(range(4), key=lambda seat: totals[seat])
    assert view_page("t", voting, [], NAMES, trailing, True).warning == RATIFY_WARNING
