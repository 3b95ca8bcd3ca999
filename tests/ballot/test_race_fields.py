"""The fields kept per board for the declare step's ranking, and the withdraw step's kept counts:
the same choices and chances as the straightforward computation, shared by the seats of a
table without any seat's cards in them, and never found for another board."""

from __future__ import annotations

from functools import cache

import pytest

from fairfight.ballot import race_fields, revealed
from fairfight.ballot.advice import strongest_declarations
from fairfight.ballot.bots import make_bots
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.hidden import visible_state
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.state import GameState, Phase
from fairfight.ballot.tables import named_config
from fairfight.web.ballot.seat_page import view_page
from tests.ballot.test_advice import every_new_declaration

SEATS = ("pollster", "machine", "pollster", "pollster")


@cache
def steps_of(key: str, phase: Phase, years: int) -> tuple[GameState, ...]:
    """The `phase` step of the first `years` years of a bot game of `key`."""
    bots = make_bots(SEATS)
    state, _ = new_game(named_config("as-written-plus"), key, len(SEATS))
    found: list[GameState] = []
    while state.phase is not Phase.OVER and len(found) < years:
        if state.phase is phase:
            found.append(state)
        state, _ = advance(state, {s: bots[s].decide(state, s) for s in requested_seats(state)})
    return tuple(found)


def straightforward_strongest(state: GameState, seat: int) -> list[tuple[str, int, str]]:
    """Every new declaration priced one by one, then the greedy pick the page describes: the
    highest chance first (ties: lower card, then the race's place on the map, then D)."""
    place = game_map().seat_by_id
    left = sorted(every_new_declaration(state, seat), key=lambda d: (
        -d.chance, d.declaration.card, place[d.declaration.race], d.declaration.party.value))
    picks: list[tuple[str, int, str]] = []
    for priced in left:
        entry = priced.declaration
        if len(picks) == 10:
            break
        if all(entry.card != card and entry.race != race for race, card, _ in picks):
            picks.append((entry.race, entry.card, entry.party.value))
    return picks


@pytest.mark.parametrize("key", ["1003", "1004"])
def test_the_ranking_picks_what_pricing_every_declaration_picks(key: str) -> None:
    """Over the declare steps of two games (presidential years and midterms, seats holding
    races of their own), every seat's strongest declarations are the straightforward ones."""
    for state in steps_of(key, Phase.DECLARE, 4):
        for seat in range(len(SEATS)):
            known = visible_state(state, seat)
            shown = [(p.declaration.race, p.declaration.card, p.declaration.party.value)
                     for p in strongest_declarations(known, seat)]
            assert shown == straightforward_strongest(known, seat), (state.year, seat)


def test_the_seats_of_a_board_share_its_fields_which_read_no_hand() -> None:
    state = steps_of("1003", Phase.DECLARE, 2)[1]
    race_fields.clear_cache()
    kept = race_fields.board_fields(visible_state(state, 0))
    assert all(race_fields.board_fields(visible_state(state, seat)) is kept
               for seat in range(len(SEATS)))
    race_fields.clear_cache()
    no_cards = state.with_changes(hands=tuple(() for _ in state.hands),
                                  packs=tuple(() for _ in state.packs))
    blind = race_fields.board_fields(no_cards)
    assert blind is not kept
    assert (blind.by_race, blind.groups, blind.held) == (kept.by_race, kept.groups, kept.held)


def test_another_board_never_reads_kept_fields() -> None:
    """A board is found by its own tuples: the next step's board, or the same board rebuilt
    elsewhere (as a process rebuilds a table another process played on), gets its own."""
    first, second = steps_of("1003", Phase.DECLARE, 2)
    kept = race_fields.board_fields(first)
    assert race_fields.board_fields(second) is not kept
    rebuilt = first.with_changes(seats=tuple(list(first.seats)), lean=tuple(list(first.lean)),
                                 honeymoon=tuple(list(first.honeymoon)))
    assert rebuilt.seats == first.seats and rebuilt.seats is not first.seats
    again = race_fields.board_fields(rebuilt)
    assert again is not kept
    assert again.by_race == kept.by_race


def test_revealed_chances_are_the_same_warm_or_cold() -> None:
    """The withdraw step's kept counts give every seat the chances a cold process counts."""
    for state in steps_of("1004", Phase.WITHDRAW, 3):
        warm = [revealed_chance(state, decl) for decl in state.declarations]
        cold = []
        for decl in reversed(state.declarations):
            revealed._over_pairings.cache_clear()
            cold.append(revealed_chance(state, decl))
        assert warm == cold[::-1]


@pytest.mark.parametrize("phase", [Phase.DECLARE, Phase.WITHDRAW])
def test_every_seat_page_is_the_same_whichever_seat_came_first(phase: Phase) -> None:
    """A page built after the other seats' pages filled the kept fields and counts is the
    page a cold process builds for that seat alone."""
    state = steps_of("1004", phase, 2)[1]
    names = list(SEATS)

    def page(seat: int) -> str:
        return view_page("t", state, [], names, seat, True).model_dump_json()

    warm = [page(seat) for seat in range(len(SEATS))]
    for seat in reversed(range(len(SEATS))):
        race_fields.clear_cache()
        revealed._over_pairings.cache_clear()
        assert page(seat) == warm[seat]
