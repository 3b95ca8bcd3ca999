"""A declaration's chance at the withdraw step, against the field now revealed [4.6, 5.5-5.8].

Before the reveal a seat can only price a race against the board or the incumbent; once every
declaration is on the table, the race is fixed unless someone withdraws: primaries among the
players of one party (2d6 + card part, the highest wins, a tie is a fair recount among the tied),
then the general between the two nominees (or a board generic on an empty side). The chance is
counted over all of it, assuming nobody withdraws.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache

from fairfight.ballot import estimates as est
from fairfight.ballot.advice import (
    EXACT_DOWN_BALLOT,
    EXACT_PRESIDENCY,
    DeclarationChance,
    presidential_general,
)
from fairfight.ballot.deck import build_cards
from fairfight.ballot.dice import RaceKind, side_distribution, win_chance
from fairfight.ballot.elections import board_part
from fairfight.ballot.geo import PRESIDENCY_ID, game_map
from fairfight.ballot.presidency import (
    PresidentialSide,
    board_side,
    card_side,
    race_with_honeymoon,
    state_edges,
)
from fairfight.ballot.racebook import presidential_part
from fairfight.ballot.state import Declaration, GameState
from fairfight.ballot.tables import BOARD, Party

__all__ = [
    "EXACT_WITH_PRESIDENCY",
    "nominee_chances",
    "primary_chance",
    "revealed_chance",
]


EXACT_WITH_PRESIDENCY = (
    "exact: tables G and P, with this year's presidential contest and the honeymoon it may put "
    "in the race's state counted over the shared national and state dice"
)
"""The method of a down-ballot chance at the withdraw step of a presidential year [5.9]."""


def primary_chance(part: int, rivals: Sequence[int]) -> Fraction:
    """The chance that a candidate of card part `part` wins a primary against `rivals`' parts:
    each rolls 2d6 + part, the highest wins, and k tied at the top each win 1/k [5.5, 5.7]."""
    return _primary_chance(part, tuple(sorted(rivals)))


@cache
def _primary_chance(part: int, rivals: tuple[int, ...]) -> Fraction:
    dist = side_distribution(RaceKind.PRIMARY)
    chance = Fraction(0)
    for total, p_total in dist.items():
        mine = total + part
        # coefficient k: the chance that exactly k rivals tie at `mine` and the rest fall below
        ties = [Fraction(1)]
        for rival in rivals:
            below = sum((p for t, p in dist.items() if t + rival < mine), Fraction(0))
            level = dist.get(mine - rival, Fraction(0))
            grown = [Fraction(0)] * (len(ties) + 1)
            for k, coefficient in enumerate(ties):
                grown[k] += coefficient * below
                grown[k + 1] += coefficient * level
            ties = grown
        chance += p_total * sum(c / (k + 1) for k, c in enumerate(ties))
    return chance


def nominee_chances(parts: dict[int, int]) -> dict[int, Fraction]:
    """Each entrant's chance of being its party's nominee, entrants keyed by seat [5.5]."""
    if len(parts) == 1:
        return dict.fromkeys(parts, Fraction(1))
    return {
        seat: primary_chance(part, [p for s, p in parts.items() if s != seat])
        for seat, part in parts.items()
    }


def revealed_chance(state: GameState, decl: Declaration) -> DeclarationChance:
    """The chance of `decl` (one of `state.declarations`, withdraw step) against the field
    revealed with it, if nobody withdraws: its primary, then the general against each
    possible nominee of the other party (or the board generic), weighted by their chances."""
    index = game_map().seat_by_id[decl.race]
    field = [entry for entry in state.declarations if entry.race == decl.race]
    if index == 0:
        cards = build_cards(state.key)
        parts = {e.player: presidential_part(cards[e.card], e.party) for e in field}
    else:
        parts = {e.player: est.entry_part(state, e, index) for e in field}
    mine = {e.player: parts[e.player] for e in field if e.party is decl.party}
    primary = nominee_chances(mine)[decl.player]
    theirs = {e.player: parts[e.player] for e in field if e.party is not decl.party}
    rivals = nominee_chances(theirs) if theirs else {}
    holding = state.seats[index]
    other = decl.party.other()
    how = (
        f"primary against {len(mine) - 1} of your party, {primary} to win it; "
        if len(mine) > 1
        else ""
    )
    if index == 0:
        side = card_side(build_cards(state.key)[decl.card], decl.party)
        field_sides: list[tuple[PresidentialSide, Fraction]] = [
            (card_side(build_cards(state.key)[e.card], other), rivals[e.player])
            for e in field
            if e.party is other
        ] or [(board_side(holding, other), Fraction(1))]
        general = sum(
            (w * presidential_general(side, rival, decl.party) for rival, w in field_sides),
            Fraction(0),
        )
        how += f"the general against {_against(len(theirs))}, 50 states counted exactly"
        return DeclarationChance(decl, primary * general, how, True, EXACT_PRESIDENCY)
    home = game_map().seats[index].state
    opposing = [(parts[s], w) for s, w in rivals.items()] or [
        (board_part(holding, other, False), Fraction(1))
    ]
    how += f"the general against {_against(len(theirs))} (table G)"
    if 0 not in game_map().races_in(state.year):
        shift = est.partisan(state, home) * decl.party.sign()
        general = sum(
            (w * win_chance(RaceKind.GENERAL, parts[decl.player] + shift - p) for p, w in opposing),
            Fraction(0),
        )
        return DeclarationChance(decl, primary * general, how, True, EXACT_DOWN_BALLOT)
    # A presidential year: the president's honeymoon enters this race, so both are counted.
    fixed = est.baselines()[home] + state.lean[home]
    general = Fraction(0)
    for theirs_part, weight in opposing:
        if decl.party is Party.D:
            d_edge = parts[decl.player] + fixed - theirs_part
            general += weight * _d_wins_race(state, home, d_edge)
        else:
            d_edge = theirs_part + fixed - parts[decl.player]
            general += weight * (1 - _d_wins_race(state, home, d_edge))
    how += ", with this year's presidency and its honeymoon counted"
    return DeclarationChance(decl, primary * general, how, True, EXACT_WITH_PRESIDENCY)


def _d_wins_race(state: GameState, home: int, d_edge: int) -> Fraction:
    """D's chance in a down-ballot general of `home` in a presidential year, at D's edge
    `d_edge` before the honeymoon, over every pairing of the revealed presidential nominees
    [5.8, 5.9]."""
    cards = build_cards(state.key)
    field = [entry for entry in state.declarations if entry.race == PRESIDENCY_ID]
    previous = state.seats[0]
    size = state.config.honeymoon
    sides: dict[Party, list[tuple[PresidentialSide, int, Fraction]]] = {}
    for party in (Party.D, Party.R):
        running = [e for e in field if e.party is party]
        parts = {e.player: presidential_part(cards[e.card], party) for e in running}
        chances = nominee_chances(parts) if running else {}
        sides[party] = [
            (card_side(cards[e.card], party), e.player, chances[e.player]) for e in running
        ] or [(board_side(previous, party), BOARD, Fraction(1))]

    def counters(party: Party, holder: int) -> bool:
        re_elected = previous.holder == holder and previous.party is party
        return not (re_elected and not state.presidency_open()) or state.impeached_this_term

    pairings = tuple(
        (d_side, r_side, d_weight * r_weight,
         size if counters(Party.D, d_holder) else None,
         -size if counters(Party.R, r_holder) else None)
        for d_side, d_holder, d_weight in sides[Party.D]
        for r_side, r_holder, r_weight in sides[Party.R]
    )
    return _over_pairings(pairings, home, d_edge, state.honeymoon[home])


_Pairing = tuple[PresidentialSide, PresidentialSide, Fraction, int | None, int | None]
"""A pairing of presidential nominees: D's side, R's side, the chance they are the nominees,
and the honeymoon pips D's and R's president would bring (None: no counters for them)."""


@lru_cache(maxsize=4096)
def _over_pairings(
    pairings: tuple[_Pairing, ...], home: int, d_edge: int, current: int
) -> Fraction:
    """`_d_wins_race` from everything it reads: the pairings, the race's state, D's edge and
    the state's honeymoon counter now. Kept by value, so every seat of a table (and the advice
    beside the page) shares a count; nothing in it is private once the field is revealed."""
    needed = game_map().electoral_majority()
    chance = Fraction(0)
    for d_side, r_side, weight, if_d, if_r in pairings:
        edges = state_edges(d_side, r_side)
        chance += weight * race_with_honeymoon(edges, needed, home, d_edge, (if_d, if_r, current))
    return chance


def _against(rivals: int) -> str:
    if rivals == 0:
        return "a board generic"
    return "the other party's candidate" if rivals == 1 else "the other party's primary winner"
