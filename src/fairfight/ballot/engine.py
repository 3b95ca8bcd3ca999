"""The pure step function: `advance(state, answers) -> (next state, events)` [3].

A game is (config, key, players' decisions): `new_game` sets up the deck and the opening board,
`requested_seats` says who must answer now, and `advance` applies the answers and runs every
automatic step (dice, races, pushes, counts, scoring) until the next decision is needed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import SETUP_YEAR, build_cards, shuffle
from fairfight.ballot.dice import assert_below_certainty
from fairfight.ballot.elections import (
    Event,
    YearWork,
    apply_pushes,
    resolve_down_ballot,
    resolve_presidency,
    roll_year_dice,
)
from fairfight.ballot.geo import (
    PRESIDENCY_ID,
    game_map,
    opening_party,
    race_positions,
    races_by_office,
)
from fairfight.ballot.state import (
    NO_CARD,
    Decision,
    Declaration,
    Declarations,
    DraftPick,
    GameState,
    Holding,
    Phase,
    Withdrawals,
    to_data,
)
from fairfight.ballot.tables import (
    BOARD,
    OFFICE_GOVERNOR,
    OFFICE_HOUSE,
    OFFICE_PRESIDENT,
    OFFICE_SENATE,
    BallotConfig,
    Office,
)
from fairfight.ballot.validation import check_decision
from fairfight.ballot.yearend import (
    cast_amendment,
    close_year,
    enact_or_fail,
    open_impeachment,
    open_legislature,
    vote_seats,
)
from fairfight.core.draws import below, hash64
from fairfight.core.errors import RuleError

__all__ = [
    "advance",
    "begin_year",
    "new_game",
    "requested_seats",
]


def new_game(config: BallotConfig, key: str, players: int) -> tuple[GameState, list[Event]]:
    """Shuffle, deal 16 each, draw the start player, open the first year [1.6, 1.8]."""
    if not config.players_min <= players <= config.players_max:
        raise RuleError(
            "players", f"between {config.players_min} and {config.players_max} players play"
        )
    gmap = game_map()
    assert_below_certainty(max(abs(state.baseline) for state in gmap.states))
    cards = build_cards(key)
    deck = shuffle(key, SETUP_YEAR, 0, list(range(len(cards))))
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(config.hand_size):
        for seat in range(players):
            hands[seat].append(deck.pop(0))
    start = below(players, hash64(key, SETUP_YEAR, "start"))
    state = GameState(
        config=config,
        key=key,
        players=players,
        year=config.start_year,
        phase=Phase.DRAFT,
        start_player=start,
        deck=tuple(deck),
        discard=(),
        shuffles=1,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        seats=_opening_seats(),
        lean=(0,) * len(gmap.states),
        honeymoon=(0,) * len(gmap.states),
        authored=(0,) * players,
    )
    faces = [card.label() for card in cards]
    events: list[Event] = [
        {"event": "setup", "start_player": start, "cards": faces, "hands": to_data(state.hands)}
    ]
    state, more = begin_year(state, first=True)
    return state, events + more


@cache
def _opening_seats() -> tuple[Holding, ...]:
    """The opening board [1.6]: the same in every game, and holdings never change, so every
    game starts from this one tuple."""
    return tuple(Holding(BOARD, opening_party(info)) for info in game_map().seats)


def begin_year(state: GameState, first: bool = False) -> tuple[GameState, list[Event]]:
    """Move the start player (from year 2) and deal the draft packs [3.0, 3.1]."""
    start = state.start_player if first else (state.start_player + 1) % state.players
    state = state.with_changes(start_player=start, lean_at_year_start=state.lean)
    deck, discard, shuffles = list(state.deck), list(state.discard), state.shuffles
    packs: list[list[int]] = [[] for _ in range(state.players)]
    for seat in state.turn_order():
        for _ in range(state.config.pack_size):
            if not deck and discard:
                deck = shuffle(state.key, state.year, shuffles, sorted(discard))
                discard, shuffles = [], shuffles + 1
            if deck:
                packs[seat].append(deck.pop(0))
    state = state.with_changes(
        deck=tuple(deck),
        discard=tuple(discard),
        shuffles=shuffles,
        packs=tuple(tuple(pack) for pack in packs),
        picks_made=0,
        phase=Phase.DRAFT,
    )
    events: list[Event] = [
        {"event": "year", "year": state.year, "start_player": start, "packs": to_data(state.packs)}
    ]
    if state.config.picks == 0 or not any(state.packs):
        return _end_draft(state, events)
    return state, events


def requested_seats(state: GameState) -> tuple[int, ...]:
    """The seats that must answer before the game can go on (empty when it is over)."""
    phase = state.phase
    everyone = tuple(range(state.players))
    if phase is Phase.DRAFT:
        return tuple(p for p in everyone if state.packs[p])
    if phase in (Phase.DECLARE, Phase.WITHDRAW):
        return everyone
    if phase is Phase.AUTHOR:
        return (leg.speaker(state),)
    if phase in (Phase.BILL_VOTE, Phase.OVERRIDE_VOTE):
        return vote_seats(state, (OFFICE_HOUSE, OFFICE_SENATE))
    if phase is Phase.VETO:
        return (state.seats[0].holder,)
    if phase is Phase.IMPEACH_MOTION:
        return tuple(p for p in state.turn_order() if p != state.seats[0].holder)
    if phase is Phase.IMPEACH_VOTE:
        senators = vote_seats(state, (OFFICE_SENATE,))
        return tuple(p for p in senators if p != state.seats[0].holder)
    if phase is Phase.AMEND_PROPOSE:
        return (leg.amendment_proposer(state),)
    if phase is Phase.AMEND_VOTE:
        return vote_seats(state, (OFFICE_GOVERNOR,))
    if phase is Phase.DISCARD:
        limit = state.config.hand_limit
        return tuple(p for p in everyone if len(state.hands[p]) > limit)
    return ()


def advance(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[Event]]:
    """Apply every requested seat's answer, then run on to the next decision [3]."""
    if state.phase is Phase.OVER:
        raise RuleError("game", "the game is over")
    needed = requested_seats(state)
    missing = [seat for seat in needed if seat not in answers]
    if missing:
        raise RuleError("answers", f"seat {missing[0]} has not answered the {state.phase} step")
    for seat in needed:
        check_decision(state, seat, answers[seat])
    phase = state.phase.value
    events: list[Event] = [
        {
            "event": "decision",
            "year": state.year,
            "phase": phase,
            "seat": seat,
            "choice": to_data(answers[seat]),
        }
        for seat in needed
    ]
    chosen = {seat: answers[seat] for seat in needed}
    handler = _HANDLERS[state.phase]
    state, more = handler(state, chosen)
    if state.phase is Phase.DRAFT and not state.packs:
        state, opening = begin_year(state)
        more += opening
    return state, events + more


def _draft(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[Event]]:
    """Everyone picks from the pack in front of it; packs pass left (even) or right (odd)."""
    hands = [list(hand) for hand in state.hands]
    packs = [list(pack) for pack in state.packs]
    for seat, answer in answers.items():
        assert isinstance(answer, DraftPick)
        packs[seat].remove(answer.card)
        hands[seat].append(answer.card)
    step = 1 if state.year % 2 == 0 else -1
    passed = [packs[(seat - step) % state.players] for seat in range(state.players)]
    state = state.with_changes(
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        packs=tuple(tuple(pack) for pack in passed),
        picks_made=state.picks_made + 1,
    )
    if state.picks_made >= state.config.picks or not any(state.packs):
        return _end_draft(state, [])
    return state, []


def _end_draft(state: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    """Unpicked cards go to the discard pile; declarations open."""
    leftovers = [card for pack in state.packs for card in pack]
    state = state.with_changes(
        discard=state.discard + tuple(leftovers), packs=(), phase=Phase.DECLARE
    )
    return state, events


def _declare(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[Event]]:
    """Reveal declarations; unre-run seats retire and their cards return to hand [4.5]."""
    gmap = game_map()
    hands = [list(hand) for hand in state.hands]
    entries: list[Declaration] = []
    for seat in sorted(answers):
        answer = answers[seat]
        assert isinstance(answer, Declarations)
        for entry in answer.entries:
            holding = state.seats[gmap.seat_by_id[entry.race]]
            if not (holding.holder == seat and holding.card == entry.card):
                hands[seat].remove(entry.card)
                if entry.district_card != NO_CARD:
                    hands[seat].remove(entry.district_card)
            entries.append(entry)
    reruns = {(e.player, e.race) for e in entries}
    retired: list[str] = []
    for index in _held_races(state):
        holding = state.seats[index]
        race = gmap.seats[index].race_id
        if (holding.holder, race) not in reruns:
            _return_seat_cards(hands, holding)
            retired.append(race)
        else:
            rerun = next(e for e in entries if e.player == holding.holder and e.race == race)
            if rerun.card != holding.card:
                _return_seat_cards(hands, holding)
                retired.append(race)
    entries.sort(key=lambda e: (gmap.seat_by_id[e.race], e.player))
    state = state.with_changes(
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        declarations=tuple(entries),
        phase=Phase.WITHDRAW,
    )
    return state, [
        {
            "event": "reveal",
            "year": state.year,
            "declarations": to_data(state.declarations),
            "retired": retired,
        }
    ]


def _held_races(state: GameState) -> list[int]:
    """The seats players hold whose races come up this year, in resolution order."""
    positions = race_positions(state.year)
    held = [index for index in leg.seating(state).held if index in positions]
    return sorted(held, key=positions.__getitem__)


def _return_seat_cards(hands: list[list[int]], holding: Holding) -> None:
    """A retiring holder takes its seated card and district card back [4.5]."""
    if holding.card != NO_CARD:
        hands[holding.holder].append(holding.card)
    if holding.district_card != NO_CARD:
        hands[holding.holder].append(holding.district_card)


def _withdraw(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[Event]]:
    """Apply withdrawals, then roll and resolve every race of the year [4.6, 5, 6]."""
    hands, staying, pulled = _pull_back(state, answers)
    work = _year_work(state, hands)
    events: list[Event] = [
        {"event": "withdraw", "year": state.year, "races": sorted(f"{p}:{r}" for p, r in pulled)},
        roll_year_dice(work),
    ]
    contested = _resolve_races(state, work, staying, events)
    totals = races_by_office(state.year)
    events.append(apply_pushes(work, list(state.lean_at_year_start)))
    events.append(
        {
            "event": "elections",
            "year": state.year,
            "races": {o.value: len(totals.get(o, ())) for o in Office},
            "contested": {o.value: contested[o] for o in Office},
        }
    )
    state = state.with_changes(
        seats=tuple(work.seats),
        hands=tuple(tuple(sorted(h)) for h in work.hands),
        discard=tuple(work.discard),
        lean=tuple(work.lean),
        honeymoon=tuple(work.honeymoon),
        impeached_this_term=work.impeached_this_term,
        presidential_wins=tuple(work.presidential_wins),
        declarations=(),
    )
    state, more = open_legislature(state)
    return state, events + more


def _pull_back(
    state: GameState, answers: dict[int, Decision],
) -> tuple[list[list[int]], list[Declaration], set[tuple[int, str]]]:
    """The withdrawn races' cards back in their players' hands [4.6]: the hands after, the
    declarations that stay and the (seat, race) pairs pulled."""
    hands = [list(hand) for hand in state.hands]
    pulled = set()
    for seat, answer in answers.items():
        assert isinstance(answer, Withdrawals)
        pulled |= {(seat, race) for race in answer.races}
    staying: list[Declaration] = []
    for entry in state.declarations:
        if (entry.player, entry.race) in pulled:
            hands[entry.player].append(entry.card)
            if entry.district_card != NO_CARD:
                hands[entry.player].append(entry.district_card)
        else:
            staying.append(entry)
    return hands, staying, pulled


def _year_work(state: GameState, hands: list[list[int]]) -> YearWork:
    """The mutable copy of the state the year's races are resolved on."""
    return YearWork(
        key=state.key,
        year=state.year,
        cards=build_cards(state.key),
        seats=list(state.seats),
        hands=hands,
        discard=list(state.discard),
        lean=list(state.lean),
        honeymoon=list(state.honeymoon),
        honeymoon_size=state.config.honeymoon,
        lean_cap=state.config.lean_cap,
        impeached_this_term=state.impeached_this_term,
        presidential_wins=list(state.presidential_wins),
        open_presidency=state.presidency_open(),
    )


def _resolve_races(
    state: GameState, work: YearWork, staying: list[Declaration], events: list[Event],
) -> dict[Office, int]:
    """Resolve the year's races in ballot order, appending their events; the contested races
    counted by office [5, 6]."""
    gmap = game_map()
    by_seat: dict[int, list[Declaration]] = {}
    for entry in staying:
        by_seat.setdefault(gmap.seat_by_id[entry.race], []).append(entry)
    # Of the year's races only the presidency, those with candidates and player seats left
    # unopposed need work: a board seat that nobody runs for stays as it is.
    positions = race_positions(state.year)
    to_resolve = {index for index in by_seat if index in positions}
    to_resolve.update(_held_races(state))
    if gmap.seat_by_id[PRESIDENCY_ID] in positions:
        to_resolve.add(gmap.seat_by_id[PRESIDENCY_ID])
    contested = dict.fromkeys(Office, 0)
    for index in sorted(to_resolve, key=positions.__getitem__):
        office = gmap.seats[index].office
        entries = by_seat.get(index, [])
        if office is OFFICE_PRESIDENT:
            contested[office] += bool(entries)
            events.append(resolve_presidency(work, entries))
        elif entries:
            contested[office] += 1
            events.append(resolve_down_ballot(work, index, entries))
        else:
            work.seats[index] = Holding(BOARD, work.seats[index].party)
    return contested


def _pass_through(state: GameState, answers: dict[int, Decision]) -> tuple[GameState, list[Event]]:
    """Legislature and year-end steps live in `yearend`."""
    if state.phase in (Phase.AUTHOR, Phase.BILL_VOTE, Phase.VETO, Phase.OVERRIDE_VOTE):
        return enact_or_fail(state, answers)
    if state.phase in (Phase.IMPEACH_MOTION, Phase.IMPEACH_VOTE):
        return open_impeachment(state, answers)
    if state.phase in (Phase.AMEND_PROPOSE, Phase.AMEND_VOTE):
        return cast_amendment(state, answers)
    return close_year(state, answers)


_HANDLERS: dict[Phase, Any] = {
    Phase.DRAFT: _draft,
    Phase.DECLARE: _declare,
    Phase.WITHDRAW: _withdraw,
    **{
        phase: _pass_through
        for phase in Phase
        if phase not in (Phase.DRAFT, Phase.DECLARE, Phase.WITHDRAW, Phase.OVER)
    },
}
