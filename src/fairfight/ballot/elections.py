"""Race resolution: shared dice, primaries, board generics, recounts, the electoral count [5, 6].

Every die comes from a positional address of the spec's section 13. The functions here work on
a `YearWork` (mutable copies the engine makes of one state) and return events; the engine
freezes the result into the next state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fairfight.ballot.deck import Card
from fairfight.ballot.geo import PRESIDENCY_ID, game_map, state_tag_sets
from fairfight.ballot.state import NO_CARD, Declaration, Holding, PresidentialWin
from fairfight.ballot.tables import (
    BOARD,
    BOARD_GENERIC_PART,
    BOARD_INCUMBENCY_BONUS,
    DIE_SIDES,
    GROUND_GAME_BONUS,
    INCUMBENCY_BONUS,
    OFFICE_GOVERNOR,
    OFFICE_HOUSE,
    OFFICE_PRESIDENT,
    OFFICE_SENATE,
    PARTIES,
    PARTY_D,
    PARTY_R,
    PRIMARY_CANDIDATE_DICE,
    SWITCH_PENALTY,
    Office,
    Party,
    lean_push,
)
from fairfight.core.draws import Addresses, address_tail, below

__all__ = [
    "Event",
    "YearWork",
    "apply_pushes",
    "board_part",
    "candidate_part",
    "recount",
    "resolve_down_ballot",
    "resolve_presidency",
    "roll",
    "roll_year_dice",
]


Event = dict[str, Any]


def roll(dice: Addresses, *address: int | str) -> int:
    """A six-sided die at the positional address `key:year:address...` [13]; `dice` holds the
    year's shared start (`YearWork.dice`), hashed once."""
    return 1 + below(DIE_SIDES, dice.hash64(*address))


def _dice(dice: Addresses, tails: tuple[bytes, ...]) -> list[int]:
    """The dice at several addresses of one shared start, their tails encoded once per map."""
    at = dice.hash64_tail
    return [1 + below(DIE_SIDES, at(tail)) for tail in tails]


@cache
def _state_tails() -> tuple[bytes, ...]:
    """Each state's die under `key:year:state:party` ends with its code [13]."""
    return tuple(address_tail(state.code) for state in game_map().states)


@cache
def _candidate_tails(race: str) -> tuple[bytes, ...]:
    """A race's candidate dice, `cand:race:party`, D then R [13]."""
    return tuple(address_tail("cand", race, party.value) for party in PARTIES)


_SIDES: tuple[tuple[Party, str], ...] = tuple((party, party.value) for party in PARTIES)
"""Each party with its name in events (an enum's `.value` is a slow property lookup)."""
_NAMES: dict[Party, str] = dict(_SIDES)


@cache
def _primary_tails(race: str, player: int) -> tuple[bytes, ...]:
    """A primary candidate's two dice, `prim:race:player:0` and `:1` [5.5, 13]."""
    return tuple(address_tail("prim", race, player, die) for die in range(PRIMARY_CANDIDATE_DICE))


@dataclass(slots=True)
class YearWork:
    """Mutable working copies for one step of the engine (never shared between states)."""

    key: str
    year: int
    cards: tuple[Card, ...]
    seats: list[Holding]
    hands: list[list[int]]
    discard: list[int]
    lean: list[int]
    honeymoon: list[int]
    honeymoon_size: int
    lean_cap: int
    impeached_this_term: bool
    presidential_wins: list[PresidentialWin]
    open_presidency: bool = False
    """True at the game's first presidential election: the seat has no holder to re-elect."""
    national: dict[Party, int] = field(default_factory=dict)
    state_dice: dict[Party, list[int]] = field(default_factory=dict)
    pushes: dict[int, list[tuple[Office, Party, int]]] = field(default_factory=dict)
    dice: Addresses = field(init=False)
    """Every die of the step is addressed under `key:year`."""

    def __post_init__(self) -> None:
        self.dice = Addresses(self.key, self.year)


def roll_year_dice(work: YearWork) -> Event:
    """National and state dice of the year, both parties, every state [5.1, 13]."""
    for party in PARTIES:
        work.national[party] = roll(work.dice, "nat", party.value)
        work.state_dice[party] = _dice(work.dice.extended("state", party.value), _state_tails())
    return {
        "event": "dice",
        "year": work.year,
        "national": {p.value: work.national[p] for p in Party},
        "state": {p.value: work.state_dice[p] for p in Party},
    }


def recount(
    work: YearWork, race: str, stage: str, sides: list[Any]
) -> tuple[Any, list[dict[str, int]]]:
    """Tied sides roll a d6 each, again among the still-tied, until one is highest [5.7]."""
    tied = list(sides)
    rounds: list[dict[str, int]] = []
    number = 0
    while len(tied) > 1:
        rolls = {
            side: roll(work.dice, "recount", race, stage, number, side) for side in tied
        }
        rounds.append({str(side): roll for side, roll in rolls.items()})
        best = max(rolls.values())
        tied = [side for side in tied if rolls[side] == best]
        number += 1
    return tied[0], rounds


def candidate_part(work: YearWork, decl: Declaration, seat_index: int) -> int:
    """Card part of a down-ballot candidate: m + fit + incumbency + ground game - switch [5.3]."""
    card = work.cards[decl.card]
    race_tags = state_tag_sets()[game_map().seats[seat_index].state]
    if decl.district_card != NO_CARD:
        race_tags = race_tags | work.cards[decl.district_card].tags
    holding = work.seats[seat_index]
    part = card.modifier + len(card.tags & race_tags)
    if holding.holder == decl.player and holding.card == decl.card:
        part += INCUMBENCY_BONUS
    if decl.district_card != NO_CARD:
        part += GROUND_GAME_BONUS
    if decl.party is not card.party:
        part -= SWITCH_PENALTY
    return part


def board_part(holding: Holding, party: Party, presidential: bool) -> int:
    """A board generic: card part 1, +1 when the board holds the seat under that party [5.6]."""
    incumbent = not presidential and holding.holder == BOARD and holding.party is party
    return BOARD_GENERIC_PART + (BOARD_INCUMBENCY_BONUS if incumbent else 0)


def _lose(work: YearWork, decl: Declaration) -> None:
    """A losing candidate's cards go to the discard pile [4.7]."""
    work.discard.append(decl.card)
    if decl.district_card != NO_CARD:
        work.discard.append(decl.district_card)


def _primaries(
    work: YearWork,
    race: str,
    entries: list[Declaration],
    part_of: dict[int, int],
) -> tuple[dict[Party, Declaration], list[Event]]:
    """Primaries where two or more players run under one party: 2d6 + card part [5.5]."""
    nominees = {decl.party: decl for decl in entries}
    if len(nominees) == len(entries):
        return nominees, []
    reports: list[Event] = []
    for party, name in _SIDES:
        running = [decl for decl in entries if decl.party is party]
        if len(running) < 2:
            continue
        rows = []
        totals: dict[int, int] = {}
        for decl in running:
            dice = _dice(work.dice, _primary_tails(race, decl.player))
            totals[decl.player] = sum(dice) + part_of[decl.player]
            rows.append(
                {
                    "player": decl.player,
                    "card": decl.card,
                    "part": part_of[decl.player],
                    "dice": dice,
                    "total": totals[decl.player],
                }
            )
        best = max(totals.values())
        top = sorted(p for p, total in totals.items() if total == best)
        winner, rounds = recount(work, race, name, top)
        for decl in running:
            if decl.player == winner:
                nominees[party] = decl
            else:
                _lose(work, decl)
        reports.append({"party": name, "entries": rows, "recount": rounds, "winner": winner})
    return nominees, reports


def resolve_down_ballot(work: YearWork, seat_index: int, entries: list[Declaration]) -> Event:
    """One Senate, House or governor race with at least one player candidate [5.3-5.7, 5.10]."""
    gmap = game_map()
    info = gmap.seats[seat_index]
    state = gmap.states[info.state]
    holding = work.seats[seat_index]
    part_of = {decl.player: candidate_part(work, decl, seat_index) for decl in entries}
    nominees, primaries = _primaries(work, info.race_id, entries, part_of)
    partisan = state.baseline + work.lean[state.index] + work.honeymoon[state.index]
    candidates = _dice(work.dice, _candidate_tails(info.race_id))
    totals: list[int] = []
    sides: dict[str, Event] = {}
    for (party, name), candidate in zip(_SIDES, candidates, strict=True):
        nominee = nominees.get(party)
        part = part_of[nominee.player] if nominee else board_part(holding, party, False)
        bonus = partisan if party is PARTY_D else 0
        national, local = work.national[party], work.state_dice[party][state.index]
        totals.append(national + local + candidate + part + bonus)
        sides[name] = {
            "player": nominee.player if nominee else BOARD,
            "part": part,
            "national": national,
            "state": local,
            "candidate": candidate,
            "partisan": bonus,
            "total": totals[-1],
        }
    winner, margin, rounds = _general_winner(work, info.race_id, totals[0], totals[1])
    loser_decl = nominees.get(winner.other())
    if loser_decl is not None:
        _lose(work, loser_decl)
    nominee = nominees.get(winner)
    if nominee is None:
        work.seats[seat_index] = Holding(BOARD, winner)
    else:
        work.seats[seat_index] = Holding(
            nominee.player, winner, nominee.card, nominee.district_card
        )
    work.pushes.setdefault(state.index, []).append((info.office, winner, margin))
    return {
        "event": "race",
        "year": work.year,
        "race": info.race_id,
        "primaries": primaries,
        "sides": sides,
        "recount": rounds,
        "winner": _NAMES[winner],
        "holder": work.seats[seat_index].holder,
        "margin": margin,
    }


def _general_winner(
    work: YearWork, race: str, total_d: int, total_r: int
) -> tuple[Party, int, list[dict[str, int]]]:
    """Highest total wins; a tie goes to a recount and has margin 0 [5.7]."""
    if total_d == total_r:
        side, rounds = recount(work, race, "G", [PARTY_D.value, PARTY_R.value])
        return Party(side), 0, rounds
    if total_d > total_r:
        return PARTY_D, total_d - total_r, []
    return PARTY_R, total_r - total_d, []


@cache
def _presidential_races() -> tuple[tuple[str, tuple[bytes, ...]], ...]:
    """Each state's presidential contest id and its candidate dice tails."""
    races = (f"{PRESIDENCY_ID}-{state.code}" for state in game_map().states)
    return tuple((race, _candidate_tails(race)) for race in races)


def resolve_presidency(work: YearWork, entries: list[Declaration]) -> Event:
    """Primaries, then 50 winner-take-all state contests with per-state candidate dice [5.8]."""
    previous = work.seats[0]
    part_of: dict[int, int] = {}
    for decl in entries:
        card = work.cards[decl.card]
        part_of[decl.player] = card.modifier - (
            SWITCH_PENALTY if decl.party is not card.party else 0
        )
    nominees, primaries = _primaries(work, PRESIDENCY_ID, entries, part_of)
    # Each side's card part before a state's fit, and the tags that fit (a board generic has none).
    parts: list[int] = []
    fits: list[frozenset[str]] = []
    for party in PARTIES:
        nominee = nominees.get(party)
        if nominee is None:
            parts.append(board_part(previous, party, True))
            fits.append(frozenset())
        else:
            parts.append(part_of[nominee.player])
            fits.append(work.cards[nominee.card].tags)
    electoral, carried, contests = _state_contests(work, parts, fits)
    winner_party = PARTY_D if electoral[PARTY_D] > electoral[PARTY_R] else PARTY_R
    holder, counters = _seat_president(work, previous, nominees, winner_party, carried)
    return {
        "event": "presidency",
        "year": work.year,
        "primaries": primaries,
        "nominees": {p.value: (nominees[p].player if p in nominees else BOARD) for p in Party},
        "states": contests,
        "electoral_votes": {p.value: electoral[p] for p in Party},
        "winner": winner_party.value,
        "holder": holder,
        "previous": {"holder": previous.holder, "party": previous.party.value},
        "honeymoon": counters,
    }


def _state_contests(
    work: YearWork, parts: list[int], fits: list[frozenset[str]],
) -> tuple[dict[Party, int], dict[Party, list[int]], list[Event]]:
    """The 50 state contests in map order, each with its candidate dice [5.8]: the electoral
    votes won, the states carried by each party and the contests as recorded."""
    gmap = game_map()
    fixed_d = work.national[PARTY_D] + parts[0]
    fixed_r = work.national[PARTY_R] + parts[1]
    state_d, state_r = work.state_dice[PARTY_D], work.state_dice[PARTY_R]
    electoral = dict.fromkeys(PARTIES, 0)
    contests: list[Event] = []
    carried: dict[Party, list[int]] = {party: [] for party in PARTIES}
    for state, tags, (race, tails) in zip(
        gmap.states, state_tag_sets(), _presidential_races(), strict=True
    ):
        index = state.index
        candidate_d, candidate_r = _dice(work.dice, tails)
        total_d = fixed_d + state_d[index] + candidate_d + len(fits[0] & tags) + state.baseline
        total_r = fixed_r + state_r[index] + candidate_r + len(fits[1] & tags)
        winner, margin, rounds = _general_winner(work, race, total_d, total_r)
        electoral[winner] += state.electoral_votes
        carried[winner].append(index)
        work.pushes.setdefault(index, []).append((OFFICE_PRESIDENT, winner, margin))
        contests.append(
            {
                "state": state.code,
                "candidate": {"D": candidate_d, "R": candidate_r},
                "D": total_d,
                "R": total_r,
                "recount": rounds,
                "winner": _NAMES[winner],
                "margin": margin,
            }
        )
    return electoral, carried, contests


def _seat_president(
    work: YearWork, previous: Holding, nominees: dict[Party, Declaration], winner_party: Party,
    carried: dict[Party, list[int]],
) -> tuple[int, bool]:
    """Seat the winner (the losing nominee leaves play); a new holder's states get the
    honeymoon. Returns the holder and whether the honeymoon counters were laid [5.8]."""
    loser = nominees.get(winner_party.other())
    if loser is not None:
        _lose(work, loser)
    nominee = nominees.get(winner_party)
    holder = nominee.player if nominee else BOARD
    same = previous.holder == holder and previous.party is winner_party and holder != BOARD
    same_board = previous.holder == BOARD == holder and previous.party is winner_party
    re_elected = (same or same_board) and not work.open_presidency
    counters = not re_elected or work.impeached_this_term
    if counters:
        for index in carried[winner_party]:
            work.honeymoon[index] = winner_party.sign() * work.honeymoon_size
    work.seats[0] = (
        Holding(holder, winner_party, nominee.card, NO_CARD)
        if nominee
        else Holding(BOARD, winner_party)
    )
    if nominee is not None:
        work.presidential_wins.append(PresidentialWin(nominee.player, work.year))
    work.impeached_this_term = False
    return holder, counters


def apply_pushes(work: YearWork, lean_at_start: list[int]) -> Event:
    """One push per state, by the most nationalised rolled race; all at once, clamped [6]."""
    changes: dict[str, int] = {}
    for index, results in sorted(work.pushes.items()):
        push = _state_push(results, lean_at_start[index])
        if push:
            new = max(-work.lean_cap, min(work.lean_cap, work.lean[index] + push))
            changes[game_map().states[index].code] = new - work.lean[index]
            work.lean[index] = new
    return {"event": "lean-push", "year": work.year, "changes": changes}


def _state_push(results: list[tuple[Office, Party, int]], start_lean: int) -> int:
    """The signed push of one state from its rolled generals [6.2, 6.3]."""
    for office in (OFFICE_PRESIDENT, OFFICE_SENATE):
        for found, party, margin in results:
            if found is office:
                return party.sign() * lean_push(margin)
    house = [(party, margin) for found, party, margin in results if found is OFFICE_HOUSE]
    if house:
        house_d = [margin for party, margin in house if party is PARTY_D]
        house_r = [margin for party, margin in house if party is PARTY_R]
        if len(house_d) == len(house_r):
            return 0
        if len(house_d) > len(house_r):
            return PARTY_D.sign() * lean_push(max(house_d))
        return PARTY_R.sign() * lean_push(max(house_r))
    party, margin = next((p, m) for found, p, m in results if found is OFFICE_GOVERNOR)
    favoured = PARTY_D if start_lean > 0 else PARTY_R if start_lean < 0 else None
    return party.sign() * lean_push(margin) if party is favoured else 0
