"""The seat page's map and its declarations to pick: the tile grid holds every state once on an
11 × 8 grid, a tile says its lean in words and marks the viewer's seats, the declare step
offers every card of the viewer's under either party in each race it lists (the suggestion
picked), nothing of another seat's, and a picked declaration posts as the rules read it."""

from __future__ import annotations

import pytest

from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import Event
from fairfight.ballot.geo import game_map
from fairfight.ballot.seat_view import seat_view
from fairfight.ballot.state import NO_CARD, Declarations, GameState, Holding, Phase
from fairfight.ballot.tables import Party
from fairfight.core.errors import InputError
from fairfight.web.ballot.forms import decision_from_form
from fairfight.web.ballot.seat_choices import (
    SHOWN,
    declaration_choices,
    suggested_declarations,
    with_race_opened,
)
from fairfight.web.ballot.seat_map import MAP_COLUMNS, MAP_ROWS, TILE_GRID, map_tiles
from tests.ballot.test_seat_view import sampled

ROW_SIZES = [2, 2, 11, 10, 10, 7, 5, 3]
"""Tiles in each row of the layout, counted by hand from NPR's grid (DC's tile, row 5, left out)."""


def declaring() -> tuple[GameState, tuple[Event, ...]]:
    """The first state of the sampled game that asks for declarations (year 2028)."""
    return next((s, e) for s, e in sampled() if s.phase is Phase.DECLARE)


def test_the_tile_grid_holds_every_state_once_on_eleven_by_eight() -> None:
    assert set(TILE_GRID) == {state.code for state in game_map().states}
    assert len(set(TILE_GRID.values())) == 50
    assert all(0 <= x < MAP_COLUMNS and 0 <= y < MAP_ROWS for x, y in TILE_GRID.values())
    assert [sum(1 for _, y in TILE_GRID.values() if y == row) for row in range(8)] == ROW_SIZES
    # a few neighbours as on any map of the country: west to east, north to south
    assert TILE_GRID["WA"][0] < TILE_GRID["MT"][0] < TILE_GRID["MN"][0] < TILE_GRID["NY"][0]
    assert TILE_GRID["ND"][1] < TILE_GRID["SD"][1] < TILE_GRID["NE"][1] < TILE_GRID["KS"][1]
    assert TILE_GRID["OK"][1] < TILE_GRID["TX"][1]


def test_a_tile_says_its_lean_and_marks_the_viewers_seats() -> None:
    state, events = declaring()
    seats = list(state.seats)
    race = game_map().state_seats[game_map().state_by_code["OH"]][-1]  # its governorship
    seats[race] = Holding(holder=1, party=Party.D, card=3)
    lean = list(state.lean)
    lean[game_map().state_by_code["OH"]] = -2
    lean[game_map().state_by_code["CA"]] = 3
    changed = state.with_changes(seats=tuple(seats), lean=tuple(lean))
    tiles = {t.code: t for t in map_tiles(seat_view(changed, events, 1, True).board)}
    assert tiles["OH"].lean == "-2" and tiles["OH"].tone == "r" and tiles["OH"].mine
    assert game_map().seats[race].race_id in tiles["OH"].title
    assert tiles["CA"].lean == "+3" and tiles["CA"].tone == "d strong" and not tiles["CA"].mine
    others = {t.code: t for t in map_tiles(seat_view(changed, events, 0, True).board)}
    assert not others["OH"].mine and "your seats" not in others["OH"].title


def test_every_card_under_either_party_in_each_race_listed_the_suggestion_first() -> None:
    """A listed race carries its suggestion and strongest options and counts the rest; the
    race opened (listed or not) carries every card of the hand under either party, and a
    suggestion with a district card besides (this sample's advice runs one)."""
    state, events = declaring()
    view = seat_view(state, events, 0, True)
    cards = build_cards(state.key)
    in_hand = [c for c in state.hands[0] if cards[c].is_candidate]
    every = sorted(f"{card}:{party}" for card in in_hand for party in "DR")
    picked = suggested_declarations(view)
    assert picked and picked == view.advised   # the advice's set for the year
    with_district = {s.race: [f"{s.card}:{s.party}:{s.district_card}"]
                     for s in picked if s.district_card != NO_CARD}
    assert with_district

    def offered(race: str) -> list[str]:
        return sorted(every + with_district.get(race, []))

    listed = declaration_choices(state, view)
    assert {r.race for r in listed} >= {s.race for s in picked}
    assert all(len(r.options) == SHOWN and r.more == len(offered(r.race)) - SHOWN
               for r in listed)
    assert not any(r.opened for r in listed)
    unlisted = next(race for race in view.races_up if race not in {r.race for r in listed})
    races = []
    for race in [r.race for r in listed] + [unlisted]:
        opened = with_race_opened(state, 0, listed, view.declarable, picked, race)
        assert [r.race for r in opened] == [r.race for r in listed] + (
            [unlisted] if race == unlisted else [])
        chosen = next(r for r in opened if r.race == race)
        assert chosen.opened and chosen.more == 0
        shown = next((r for r in listed if r.race == race), None)
        assert shown is None or chosen.options[:SHOWN] == shown.options
        races.append(chosen)
    for choices in races:
        assert sorted(o.value for o in choices.options) == offered(choices.race)
        suggested = [o for o in choices.options if o.suggested]
        assert len(suggested) == (1 if choices.suggested else 0)
        if suggested:
            assert choices.options[0] is suggested[0]
        percents = [float(o.chance.percent) for o in choices.options[1:]]
        assert percents == sorted(percents, reverse=True)
    others = {c for seat, hand in enumerate(state.hands) if seat != 0 for c in hand}
    assert not others & {o.card.id for r in races for o in r.options}


def test_a_picked_declaration_posts_as_the_rules_read_it() -> None:
    state, _ = declaring()
    cards = build_cards(state.key)
    first, second = [c for c in state.hands[0] if cards[c].is_candidate][:2]
    up = [game_map().seats[i].race_id for i in game_map().races_in(state.year)]
    form = {f"pick_{up[0]}": f"{first}:R", f"pick_{up[1]}": "none", f"pick_{up[2]}": f"{second}:D"}
    decision = decision_from_form(state, 0, form)
    assert isinstance(decision, Declarations)
    assert [(e.race, e.card, e.party, e.district_card) for e in decision.entries] == [
        (up[0], first, Party.R, NO_CARD), (up[2], second, Party.D, NO_CARD)]
    with pytest.raises(InputError) as twice:
        decision_from_form(state, 0, form | {f"pick_{up[1]}": f"{first}:D"})
    assert twice.value.field == f"pick_{up[1]}" and "already chosen" in twice.value.rule
    with pytest.raises(InputError) as typed:
        decision_from_form(state, 0, {f"pick_{up[0]}": "H-OH-3"})
    assert typed.value.field == f"pick_{up[0]}"
    beside = decision_from_form(state, 0, {f"pick_{up[0]}": f"{first}:R:190"})
    assert isinstance(beside, Declarations)
    assert [(e.card, e.party, e.district_card) for e in beside.entries] == [(first, Party.R, 190)]
    for bad in (f"{first}:R:x", f"{first}:R:190:3", f"{first}:R:"):
        with pytest.raises(InputError) as wrong:
            decision_from_form(state, 0, {f"pick_{up[0]}": bad})
        assert wrong.value.field == f"pick_{up[0]}"
