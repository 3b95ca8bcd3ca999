"""The exact presidential chance [5.8]: against every die enumerated on small electoral maps,
against the engine's own elections on the real map, and against a seeded simulation of the
rules, each within four standard errors."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import combinations, product
from math import sqrt
from typing import Any

import numpy as np
import pytest

from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.elections import YearWork, resolve_presidency, roll_year_dice
from fairfight.ballot.engine import new_game
from fairfight.ballot.geo import game_map
from fairfight.ballot.presidency import (
    AGAINST_BOARD_FILE,
    PresidentialSide,
    _below,
    _below_without,
    board_side,
    card_side,
    electoral_chance,
    face_key,
    map_fingerprint,
    national_differences,
    presidential_chance,
    state_edges,
)
from fairfight.ballot.state import Declaration, GameState
from fairfight.ballot.tables import Party, named_config


def brute_force(edges: tuple[tuple[int, int], ...], needed: int, sides: int) -> Fraction:
    """Roll every die: both national dice, then each state's two state and two candidate dice;
    a tied state goes either way with 1/2 (the recount), so every split of the ties counts."""
    wins = 0
    outcomes = 0
    whole = 2 ** len(edges)  # every roll weighs the same: a split of t ties weighs 1 / 2**t
    faces = range(1, sides + 1)
    for roll in product(faces, repeat=2 + 4 * len(edges)):
        national = roll[0] - roll[1]
        carried = 0
        tied: list[int] = []
        for index, (edge, votes) in enumerate(edges):
            sd, cd, sr, cr = roll[2 + 4 * index : 6 + 4 * index]
            d, r = national + sd + cd + edge, sr + cr
            if d > r:
                carried += votes
            elif d == r:
                tied.append(votes)
        share = whole // 2 ** len(tied)
        for size in range(len(tied) + 1):
            for chosen in combinations(tied, size):
                wins += share * (carried + sum(chosen) >= needed)
        outcomes += whole
    return Fraction(wins, outcomes)


SMALL_MAPS = [
    # (edges with votes, needed, die sides)
    (((0, 3),), 2, 6),
    (((2, 1),), 1, 6),
    (((-3, 5),), 3, 6),
    (((0, 3), (1, 4)), 4, 3),
    (((-1, 2), (2, 2)), 3, 3),  # an even map: a 2-2 split goes to R
    (((0, 1), (0, 2)), 2, 3),
    (((1, 3), (-1, 4), (0, 5)), 7, 2),
    (((0, 1), (0, 1), (3, 1)), 2, 2),
    (((-2, 2), (4, 1), (0, 6)), 5, 2),
]


@pytest.mark.parametrize(("edges", "needed", "sides"), SMALL_MAPS)
def test_exact_chance_equals_every_die_enumerated(
    edges: tuple[tuple[int, int], ...], needed: int, sides: int
) -> None:
    assert electoral_chance(edges, needed, sides) == brute_force(edges, needed, sides)


def test_the_pruned_count_equals_the_whole_convolution_on_the_real_map() -> None:
    """The count that drops settled totals as it goes (`electoral_chance`) against the whole
    convolution kept to the majority (`_below`, the honeymoon's), on faces of every strength,
    tags and orientation, and on thresholds near either end."""
    gmap = game_map()
    board = PresidentialSide(1)
    faces = [
        PresidentialSide(part, frozenset(tags))
        for part, tags in [(3, ()), (0, ("union", "rural", "farm")), (-1, ("black", "urban")),
                           (2, ("jewish",)), (1, ("cuban", "hispanic", "catholic"))]
    ]
    cases = [(state_edges(face, board), gmap.electoral_majority()) for face in faces]
    cases += [(state_edges(board, face), gmap.electoral_majority()) for face in faces[:3]]
    cases += [(state_edges(faces[1], board), 40), (state_edges(faces[2], board), 500)]
    for edges, needed in cases:
        votes = tuple(worth for _, worth in edges)
        outcomes = 2592 ** len(edges)  # 2 * 6**4 a state: its dice, doubled for the recount
        whole = sum(
            (weight * Fraction(outcomes - _below(
                tuple(edge + difference for edge, _ in edges), votes, needed, 6)[needed],
                outcomes) for difference, weight in national_differences(6)),
            Fraction(0),
        )
        assert electoral_chance(edges, needed) == whole


def test_bounds_and_mirror_on_the_real_map() -> None:
    """Swapping the sides gives R the chance D had: on 535 votes one side always wins."""
    gmap = game_map()
    d, r = PresidentialSide(3, frozenset({"union", "rural"})), PresidentialSide(1)
    ahead = presidential_chance(d, r)
    mirrored = tuple((-edge, votes) for edge, votes in state_edges(d, r))
    assert ahead + electoral_chance(mirrored, gmap.electoral_majority()) == 1
    assert electoral_chance(mirrored, 0) == 1 and electoral_chance(mirrored, 536) == 0
    stronger = presidential_chance(PresidentialSide(4, d.tags), r)
    assert 0 < ahead < stronger < 1


def _engine_presidency(key: str, card_id: int) -> bool:
    """Elect a president with the engine's own dice: card `card_id` for D against the board
    (the opening board is the same in every game, and so is the card's face here)."""
    state = _opening()
    work = YearWork(
        key=key,
        year=state.year,
        cards=_cards(),
        seats=list(state.seats),
        hands=[list(hand) for hand in state.hands],
        discard=[],
        lean=list(state.lean),
        honeymoon=list(state.honeymoon),
        honeymoon_size=state.config.honeymoon,
        lean_cap=state.config.lean_cap,
        impeached_this_term=False,
        presidential_wins=[],
        open_presidency=True,
    )
    roll_year_dice(work)
    event = resolve_presidency(work, [Declaration(0, "P", card_id, Party.D)])
    return bool(event["winner"] == "D")


@cache
def _opening() -> GameState:
    return new_game(named_config("as-written-plus"), "0", 2)[0]


@cache
def _cards() -> tuple[Card, ...]:
    return build_cards("0")


def test_engine_elections_agree_within_four_standard_errors() -> None:
    """Card 60 is a D card with modifier 3 and no tags in every game [1.7], so one exact chance
    covers every key; the engine's elections over 1,500 keys land within 4 standard errors."""
    keys = 1500
    card = build_cards("0")[60]
    assert card.modifier == 3 and not card.tags and card.party is Party.D
    exact = float(presidential_chance(card_side(card, Party.D), PresidentialSide(1)))
    wins = sum(_engine_presidency(str(key), 60) for key in range(keys))
    error = sqrt(exact * (1 - exact) / keys)
    assert abs(wins / keys - exact) < 4 * error


def _simulated(d: PresidentialSide, r: PresidentialSide, games: int, seed: int) -> float:
    """The rules of 5.8 rolled with numpy: shared national dice, per-state dice, recounts."""
    gmap = game_map()
    fixed_d = np.array([d.part + len(d.tags & set(h.tags)) + h.baseline for h in gmap.states])
    fixed_r = np.array([r.part + len(r.tags & set(h.tags)) for h in gmap.states])
    votes = np.array([home.electoral_votes for home in gmap.states])
    rng = np.random.default_rng(seed)
    won = 0
    for _ in range(games // 50_000):
        n = rng.integers(1, 7, size=(50_000, 2, 1))
        dice = rng.integers(1, 7, size=(50_000, 2, 2, len(votes)))  # party, die, state
        total_d = n[:, 0] + dice[:, 0].sum(axis=1) + fixed_d
        total_r = n[:, 1] + dice[:, 1].sum(axis=1) + fixed_r
        recount = rng.integers(0, 2, size=total_d.shape).astype(bool)
        carried = (total_d > total_r) | ((total_d == total_r) & recount)
        won += int((carried @ votes > votes.sum() - carried @ votes).sum())
    return won / games


@pytest.mark.parametrize(
    ("d", "r"),
    [
        (PresidentialSide(1), PresidentialSide(1)),
        (PresidentialSide(2, frozenset({"union", "catholic"})), PresidentialSide(1)),
        (PresidentialSide(0, frozenset({"urban", "hispanic", "black"})), PresidentialSide(2)),
    ],
)
def test_a_seeded_simulation_of_the_rules_agrees(d: PresidentialSide, r: PresidentialSide) -> None:
    games = 200_000
    exact = float(presidential_chance(d, r))
    error = sqrt(exact * (1 - exact) / games)
    assert abs(_simulated(d, r, games, 2028) - exact) < 4 * error


def test_board_and_card_sides_read_the_rules() -> None:
    state, _ = new_game(named_config("as-written-plus"), "1000", 4)
    board = board_side(state.seats[0], Party.R)
    assert board == PresidentialSide(1)  # the board generic: part 1, no incumbency here
    card = build_cards("1000")[5]
    running = card_side(card, card.party.other())
    assert running.part == card.modifier - 1 and running.tags == card.tags


def test_a_presidential_declaration_shows_the_exact_count() -> None:
    """What a seat is shown for the presidency is the exact count, labelled exact; under R
    it is the complement of the board generic's chance as D [5.6, 5.8]."""
    from fairfight.ballot.advice import EXACT_PRESIDENCY, declaration_chance

    state, _ = new_game(named_config("as-written-plus"), "1000", 4)
    cards = build_cards("1000")
    card = cards[state.hands[0][0]]
    for party in Party:
        shown = declaration_chance(state, Declaration(0, "P", card.id, party))
        mine = PresidentialSide(card.modifier - (party is not card.party), card.tags)
        if party is Party.D:
            expected = presidential_chance(mine, PresidentialSide(1))
        else:
            expected = 1 - presidential_chance(PresidentialSide(1), mine)
        assert shown.chance == expected
        assert shown.exact and shown.method == EXACT_PRESIDENCY


def brute_race(*case: Any) -> Fraction:
    """A down-ballot race of a presidential year, every die rolled: the presidency first (its
    winner's counter in the race's state if it carried it and counters apply), then the race
    on the same national and state dice with its own candidate dice; every tie split both ways."""
    edges, needed, state, race_edge, (if_d, if_r, current), sides = case
    wins = outcomes = 0
    whole = 2 ** (len(edges) + 1)
    for roll in product(range(1, sides + 1), repeat=4 + 4 * len(edges)):
        national = roll[0] - roll[1]
        race_dice = roll[2] - roll[3]
        carried: list[bool | None] = []
        for index, (edge, _) in enumerate(edges):
            sd, cd, sr, cr = roll[4 + 4 * index : 8 + 4 * index]
            margin = national + sd + cd + edge - sr - cr
            carried.append(True if margin > 0 else False if margin < 0 else None)
        tied = [i for i, c in enumerate(carried) if c is None]
        sd, sr = roll[4 + 4 * state], roll[6 + 4 * state]
        for split in product((True, False), repeat=len(tied)):
            outcome = list(carried)
            for i, value in zip(tied, split, strict=True):
                outcome[i] = value
            d_votes = sum(v for (_, v), c in zip(edges, outcome, strict=True) if c)
            d_president = d_votes >= needed
            if d_president:
                pips = if_d if outcome[state] and if_d is not None else current
            else:
                pips = if_r if not outcome[state] and if_r is not None else current
            margin = national + (sd - sr) + race_dice + race_edge + pips
            share = whole // 2 ** len(tied) // 2
            wins += 2 * share if margin > 0 else share if margin == 0 else 0
        outcomes += whole
    return Fraction(wins, outcomes)


Pips = tuple[int | None, int | None, int]
RaceCase = tuple[tuple[tuple[int, int], ...], int, int, int, Pips, int]
"""(presidential edges, votes needed, the race's state, its D edge, honeymoon pips, die)."""


@pytest.mark.parametrize(
    "case",
    [
        (((0, 3), (1, 2)), 3, 0, 0, (1, -1, 0), 2),
        (((0, 3), (-1, 2), (2, 1)), 4, 1, 1, (1, None, 0), 2),
        (((1, 1), (0, 2), (0, 2)), 3, 2, -1, (None, -1, 0), 2),
        (((0, 2), (1, 3)), 3, 1, 0, (2, -2, 1), 3),
    ],
)
def test_a_race_in_a_presidential_year_counts_the_honeymoon_exactly(case: RaceCase) -> None:
    from fairfight.ballot.presidency import race_with_honeymoon

    assert race_with_honeymoon(*case) == brute_race(*case)


def test_the_others_running_sums_read_from_all_equal_counting_the_others() -> None:
    """The honeymoon's count of every state but the race's, read back from the running sums
    of all of them (`_below_without`), against counting the others afresh: on the real map,
    for states of few and many votes, a state always carried (nothing lost) and one never
    carried, at thresholds from nothing to more than the others hold."""
    gmap = game_map()
    needed = gmap.electoral_majority()
    edges = list(state_edges(PresidentialSide(2, frozenset({"rural", "union"})),
                             PresidentialSide(1, frozenset({"black"}))))
    edges[3] = (14, edges[3][1])  # 2d6 + 14 against 2d6: always carried
    edges[7] = (-14, edges[7][1])  # never carried
    whole = 2592
    votes = tuple(worth for _, worth in edges)
    total = sum(votes)
    kept = _below(tuple(edge for edge, _ in edges), votes, min(needed + max(votes), total), 6)
    every = _below(tuple(edge for edge, _ in edges), votes, total + 1, 6)
    for left_out in (0, 3, 4, 7, max(range(50), key=votes.__getitem__)):
        others = edges[:left_out] + edges[left_out + 1:]
        counted = _below(tuple(e for e, _ in others), tuple(v for _, v in others), total + 1, 6)
        for threshold in (0, 1, needed - votes[left_out], needed):
            assert _below_without(kept, total, whole ** 50, edges[left_out], threshold, 6) \
                == counted[threshold]
        more = total - votes[left_out] + 1  # more than the others hold: every outcome short
        assert _below_without(every, total, whole ** 50, edges[left_out], more, 6) \
            == counted[more] == whole ** 49


def test_the_counts_kept_against_the_board_are_the_count_of_every_card_face() -> None:
    """The presidency against the board generic is read from counts kept with the package:
    they were made for this map and these dice, hold exactly the faces the cards of fifty
    decks show under either party, and a sample of them is what counting again gives."""
    kept = json.loads(
        resources.files("fairfight.ballot").joinpath(AGAINST_BOARD_FILE).read_text("utf-8"))
    assert kept["fingerprint"] == map_fingerprint()
    faces = {
        card_side(card, party)
        for key in range(50) for card in build_cards(str(key)) if card.is_candidate
        for party in Party
    }
    for party in ("D", "R"):  # fifty decks show every face: 232 tag sets, at m and m - 1
        assert {face_key(face) for face in faces} == set(kept["chances"][party])
    board = PresidentialSide(1)
    needed = game_map().electoral_majority()
    sample = random.Random(58).sample(sorted(faces, key=face_key), 6)
    for face in sample:
        assert presidential_chance(face, board) == electoral_chance(
            state_edges(face, board), needed)
        assert presidential_chance(board, face) == electoral_chance(
            state_edges(board, face), needed)
