"""Withdraw-step chances against the revealed field, checked against enumerating every die of
the race's primaries and general [4.6, 5.5-5.7]."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from fairfight.ballot import estimates as est
from fairfight.ballot.advice import EXACT_DOWN_BALLOT
from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import board_part
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.revealed import (
    EXACT_WITH_PRESIDENCY,
    nominee_chances,
    primary_chance,
    revealed_chance,
)
from fairfight.ballot.state import GameState, Phase
from fairfight.ballot.tables import named_config


def brute_primary(parts: list[int]) -> list[Fraction]:
    """Every entrant's chance, rolling every entrant's two dice; k tied at the top win 1/k."""
    return list(_brute_primary(tuple(parts)))


@cache
def _brute_primary(parts: tuple[int, ...]) -> tuple[Fraction, ...]:
    shares = [0] * len(parts)
    whole = 60  # divisible by every number of tied entrants up to 5
    rolls = list(product(range(1, 7), repeat=2 * len(parts)))
    for roll in rolls:
        totals = [roll[2 * i] + roll[2 * i + 1] + part for i, part in enumerate(parts)]
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        for i in top:
            shares[i] += whole // len(top)
    return tuple(Fraction(share, whole * len(rolls)) for share in shares)


@pytest.mark.parametrize("parts", [[0, 0], [3, 1], [-1, 2, 2], [5, 0, 1], [1, 1, 1]])
def test_primary_chances_equal_every_die_enumerated(parts: list[int]) -> None:
    expected = brute_primary(parts)
    for seat, part in enumerate(parts):
        assert primary_chance(part, parts[:seat] + parts[seat + 1 :]) == expected[seat]
    assert sum(nominee_chances(dict(enumerate(parts))).values()) == 1


@cache
def brute_general(edge: int) -> Fraction:
    """3d6 + edge against 3d6, every die rolled; a tie is a fair recount."""
    score = 0
    for roll in _six_dice():
        mine, theirs = sum(roll[:3]) + edge, sum(roll[3:])
        score += 2 if mine > theirs else 1 if mine == theirs else 0
    return Fraction(score, 2 * 6**6)


@cache
def _six_dice() -> tuple[tuple[int, ...], ...]:
    return tuple(product(range(1, 7), repeat=6))


def _against_field(mine: int, theirs: list[tuple[int, Fraction]]) -> Fraction:
    """The general against each possible rival nominee (its part, its chance), enumerated."""
    return sum((w * brute_general(mine - part) for part, w in theirs), Fraction(0))


def _withdraw_steps(key: str, years: int) -> list[GameState]:
    """The state at every withdraw step of a four-bot game's first years."""
    config = named_config("points")
    state, _ = new_game(config, key, 4)
    bots = make_bots(["pollster", "machine", "pollster", "machine"])
    found = []
    while state.year < config.start_year + years:
        if state.phase is Phase.WITHDRAW:
            found.append(state)
        answers = {seat: bots[seat].decide(state, seat) for seat in requested_seats(state)}
        state, _ = advance(state, answers)
    return found


def test_down_ballot_chances_equal_every_die_enumerated() -> None:
    """Every contested down-ballot declaration of two games' first three years (primaries of
    two and three included): nominee chances by enumerating the primary dice, then the
    general by enumerating its dice at each possible nominee pairing. In the presidential
    year the honeymoon is counted with the presidency (enumerated on small maps in
    test_presidency); here the chance must lie within the new counter's reach either way."""
    checked = bounded = primaries = 0
    for key in ("1003", "1017"):
        for state in _withdraw_steps(key, 3):
            gmap = game_map()
            for decl in state.declarations:
                index = gmap.seat_by_id[decl.race]
                field = [e for e in state.declarations if e.race == decl.race]
                crowd = max(
                    sum(e.party is party for e in field)
                    for party in (decl.party, decl.party.other())
                )
                if index == 0 or len(field) < 2 or crowd > 3:
                    continue  # three entrants a party at most keep the enumeration short
                parts = {e.player: est.entry_part(state, e, index) for e in field}
                sides = {}
                for party in (decl.party, decl.party.other()):
                    running = [e.player for e in field if e.party is party]
                    chances = brute_primary([parts[s] for s in running]) if running else []
                    sides[party] = dict(zip(running, chances, strict=True))
                home = gmap.seats[index].state
                theirs = [(parts[s], w) for s, w in sides[decl.party.other()].items()] or [
                    (board_part(state.seats[index], decl.party.other(), False), Fraction(1))
                ]
                fixed = est.baselines()[home] + state.lean[home]
                sign = decl.party.sign()
                at = {
                    pips: _against_field(parts[decl.player] + (fixed + pips) * sign, theirs)
                    for pips in {
                        -state.config.honeymoon,
                        state.honeymoon[home],
                        state.config.honeymoon,
                    }
                }
                primary = sides[decl.party][decl.player]
                shown = revealed_chance(state, decl)
                assert shown.exact
                if 0 in gmap.races_in(state.year):
                    # the new president's counter moves P(s) by at most its size either way
                    size = state.config.honeymoon
                    now = state.honeymoon[home]
                    bounds = [primary * at[pips] for pips in (-size, now, size)]
                    assert min(bounds) <= shown.chance <= max(bounds), decl
                    assert shown.method == EXACT_WITH_PRESIDENCY
                    bounded += 1
                else:
                    assert shown.chance == primary * at[state.honeymoon[home]], decl
                    assert shown.method == EXACT_DOWN_BALLOT
                    checked += 1
                primaries += len(sides[decl.party]) > 1
    assert checked >= 20 and bounded >= 20 and primaries >= 10


def test_presidential_chance_counts_the_primary_and_every_rival_nominee() -> None:
    from fairfight.ballot.advice import EXACT_PRESIDENCY
    from fairfight.ballot.deck import build_cards
    from fairfight.ballot.presidency import board_side, card_side, presidential_chance

    state = _withdraw_steps("1003", 1)[0]
    cards = build_cards(state.key)
    field = [e for e in state.declarations if e.race == "P"]
    assert field
    for decl in field:
        shown = revealed_chance(state, decl)
        assert shown.exact and shown.method == EXACT_PRESIDENCY
        same = [e for e in field if e.party is decl.party]
        parts = [cards[e.card].modifier - (e.party is not cards[e.card].party) for e in same]
        primary = brute_primary(parts)[same.index(decl)]
        other = [e for e in field if e.party is not decl.party]
        other_parts = [cards[e.card].modifier - (e.party is not cards[e.card].party) for e in other]
        weights = brute_primary(other_parts) if other else [Fraction(1)]
        rivals = [card_side(cards[e.card], e.party) for e in other] or [
            board_side(state.seats[0], decl.party.other())
        ]
        mine = card_side(cards[decl.card], decl.party)
        general = Fraction(0)
        for rival, weight in zip(rivals, weights, strict=True):
            if decl.party.value == "D":
                general += weight * presidential_chance(mine, rival)
            else:
                general += weight * (1 - presidential_chance(rival, mine))
        assert shown.chance == primary * general
