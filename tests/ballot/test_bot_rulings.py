"""The bot rulings of the ballot review, each on a hand-built position with the expected
choice or number worked out here from the tables and the cards' faces [11, 7.3].

Table G is recomputed by enumerating 3d6 against 3d6 (ties count half), so no expected chance
comes from the engine's own tables.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from fairfight.ballot import legislature as leg
from fairfight.ballot.advice import declaration_chance
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.machine import Machine
from fairfight.ballot.pollster import Pollster
from fairfight.ballot.presidency import PresidentialSide, presidential_chance
from fairfight.ballot.state import Declaration, Declarations, GameState, Holding, Phase
from fairfight.ballot.tables import BOARD, Office, Party
from fairfight.ballot.worth import district_gain
from tests.ballot.oracle import fresh

THREE_DICE = [sum(roll) for roll in product(range(1, 7), repeat=3)]
TWO_DICE = [sum(roll) for roll in product(range(1, 7), repeat=2)]


def by_enumeration(sums: list[int], edge: int) -> Fraction:
    """P(a + edge > b) + 1/2 P(a + edge = b) over every pair of dice sums."""
    wins = sum((a + edge > b) + Fraction(a + edge == b, 2) for a in sums for b in sums)
    return wins / len(sums) ** 2


def g(edge: int) -> float:
    return float(by_enumeration(THREE_DICE, edge))


def seat_index(race: str) -> int:
    return game_map().seat_by_id[race]


def state_index(code: str) -> int:
    return next(s.index for s in game_map().states if s.code == code)


# ---- Speaker ties: every seat held counts [7.3] ------------------------------------------


def test_speaker_tie_counts_every_seat_the_player_holds() -> None:
    """One D House seat each (D majority). Turn order 2, 0, 1. Player 1's second House seat is
    R, player 0's second seat is a governorship: 2 seats each, so turn order picks 0. Give
    player 1 the presidency as well: 3 against 2, player 1 is Speaker."""
    state = fresh(3).with_changes(start_player=2)
    seats = list(state.seats)
    seats[seat_index("H-CA-1")] = Holding(0, Party.D, 1)
    seats[seat_index("G-NY")] = Holding(0, Party.D, 2)
    seats[seat_index("H-CA-2")] = Holding(1, Party.D, 3)
    seats[seat_index("H-TX-38")] = Holding(1, Party.R, 80)
    level = state.with_changes(seats=tuple(seats))
    assert leg.majority_party(level, Office.HOUSE) is Party.D
    assert leg.speaker(level) == 0
    seats[0] = Holding(1, Party.R, 81)
    assert leg.speaker(state.with_changes(seats=tuple(seats))) == 1
    seats[0] = Holding(BOARD, Party.R)
    seats[seat_index("S-NY-I")] = Holding(1, Party.D, 4)  # a Senate seat counts the same
    assert leg.speaker(state.with_changes(seats=tuple(seats))) == 1


# ---- Pollster: Senate and governor races are valued apart ---------------------------------


def test_pollster_values_senate_4_and_governor_3_in_the_same_state() -> None:
    """2028: North Dakota elects its class III senator and its governor, both board-held R.
    A newcomer R faces a board generic D of part 1 with a partisan shift of +3 (base -3), the
    same in both races, yet the Senate option is worth 4 and the governor option 3."""
    state = fresh(2)
    bot = Pollster()
    groups = bot.groups(state, 0, set())
    senate = next(gr for gr in groups if seat_index("S-ND-III") in gr.seats and gr.party is Party.R)
    governor = next(gr for gr in groups if seat_index("G-ND") in gr.seats and gr.party is Party.R)
    assert senate is not governor
    assert (senate.value, governor.value) == (4.0, 3.0)
    assert senate.seats == [seat_index("S-ND-III")] and governor.seats == [seat_index("G-ND")]
    cards = build_cards(state.key)
    card = next(c for c in cards if c.party is Party.R and c.modifier == 3)  # no tags: part 3
    options = bot.options(state, 0, set(), [card], [], floor=0.0)
    ev = {o.seats[0]: o.value for o in options if o.party is Party.R and len(o.seats) == 1}
    edge = 3 + 3 - 1
    assert ev[seat_index("S-ND-III")] == g(edge) * 4 - 1
    assert ev[seat_index("G-ND")] == g(edge) * 3 - 1


# ---- Pollster draft: the district baseline is the same party's option ---------------------


def test_pollster_draft_district_gain_against_the_same_party() -> None:
    """2029: only New Jersey and Virginia elect governors. New Jersey (suburban, jewish; base
    +2) is board-held D. A newcomer D meets a board generic R of part 1 with shift +2; a
    newcomer R meets the board incumbent D, part 2, with shift -2. The NJ district card adds
    its second tag and +1 ground game. The gain of attaching it is taken against the same
    card under the same party without it, for each party, and the best gain counts."""
    state = fresh(2).with_changes(year=2029, phase=Phase.DRAFT, lean=(0,) * 50)
    cards = build_cards(state.key)
    nj = state_index("NJ")
    district = next(c for c in cards if not c.is_candidate and c.state == nj)
    card = next(c for c in cards if c.party is Party.D and c.modifier == 1)
    nj_tags = {"suburban", "jewish"}
    fit = len(card.tags & nj_tags)
    fit_with = len(card.tags & (nj_tags | district.tags))
    value = 3  # governor
    gains = []
    for party, shift, other in ((Party.D, 2, 1), (Party.R, -2, 2)):
        switch = 0 if party is Party.D else 1
        plain = g(1 + fit - switch + shift - other) * value - 1
        chance = g(1 + fit_with + 1 - switch + shift - other)
        with_district = chance * value - 1 - (1 - chance)
        gains.append(with_district - plain)
    expected = max(0.0, *gains)
    bot = Pollster()
    assert district_gain(state.key, bot.book(state, 0), card, district) == expected
    # The old reading measured the D option with the district card against the R option
    # without it; on this position that gives a different (larger) number.
    r_plain = g(1 + fit - 1 - 2 - 2) * value - 1
    d_chance = g(1 + fit_with + 1 + 2 - 1)
    assert (d_chance * value - 1 - (1 - d_chance)) - r_plain > expected


# ---- Machine: best fit first over the whole phase -------------------------------------------


def machine_hand() -> tuple[str, Card, Card]:
    """A key with a D m0 card tagged one Arizona tag and both Wisconsin tags (c1), and a D m1
    card with no tag of either state (c2). Arizona: hispanic, suburban; Wisconsin: farm,
    union. Both have base 0, so each card runs under its printed party."""
    arizona, wisconsin = {"hispanic", "suburban"}, {"farm", "union"}
    for number in range(1000, 1400):
        cards = build_cards(str(number))
        c1 = next(
            (
                c
                for c in cards
                if c.party is Party.D
                and c.modifier == 0
                and len(c.tags & arizona) == 1
                and c.tags >= wisconsin
            ),
            None,
        )
        c2 = next(
            (
                c
                for c in cards
                if c.party is Party.D and c.modifier == 1 and not c.tags & (arizona | wisconsin)
            ),
            None,
        )
        if c1 and c2:
            return str(number), c1, c2
    raise AssertionError("no key with such a hand in the range searched")


def test_machine_assigns_the_best_pair_of_the_whole_phase() -> None:
    """Home states Arizona and Wisconsin; both class III Senate races are up in 2028; the
    hand is c1 (m0, fit 1 in AZ, fit 2 in WI) and c2 (m1, fit 0 in both). Race by race,
    Arizona (first on the calendar) would take c1 (fit 1 beats 0) and leave Wisconsin c2 (fit
    0). Over the whole phase the best pair is (WI, c1) with fit 2, then (AZ, c2)."""
    key, c1, c2 = machine_hand()
    state = fresh(2, key)
    hands = list(state.hands)
    hands[0] = (c1.id, c2.id)
    state = state.with_changes(hands=tuple(hands), phase=Phase.DECLARE, lean=(0,) * 50)
    machine = Machine([0], homes={0: (state_index("AZ"), state_index("WI"))})
    decision = machine.declare(state, 0, machine.home(state, 0))
    assert decision == Declarations(
        (
            Declaration(0, "S-WI-III", c1.id, Party.D),
            Declaration(0, "S-AZ-III", c2.id, Party.D),
        )
    )


def test_machine_counts_the_home_district_card_in_the_fit() -> None:
    """The same hand plus Arizona's district card (suburban and one more tag): the card goes
    with whichever candidate runs in Arizona, and its tags count in that pairing's fit. c2
    shares no Arizona state tag, so with the card attached it fits 0 or 1 (the card's second
    tag); (WI, c1) at fit 2 still comes first when c2 fits 1 (or 0), and Arizona gets c2."""
    key, c1, c2 = machine_hand()
    state = fresh(2, key)
    cards = build_cards(key)
    district = next(c for c in cards if not c.is_candidate and c.state == state_index("AZ"))
    hands = list(state.hands)
    hands[0] = (c1.id, c2.id, district.id)
    state = state.with_changes(hands=tuple(hands), phase=Phase.DECLARE, lean=(0,) * 50)
    machine = Machine([0], homes={0: (state_index("AZ"), state_index("WI"))})
    entries = machine.declare(state, 0, machine.home(state, 0)).entries
    arizona = {"hispanic", "suburban"} | district.tags
    assert len(c2.tags & arizona) <= 1 and len(c1.tags & arizona) == 1  # so (WI, c1) leads
    assert [e.race for e in entries] == ["S-WI-III", "S-AZ-III"]
    by_race = {e.race: e for e in entries}
    assert by_race["S-AZ-III"].card == c2.id
    assert by_race["S-AZ-III"].district_card == district.id
    assert by_race["S-WI-III"].card == c1.id


# ---- The presidency reads table P -----------------------------------------------------------


def test_pollster_reads_table_p_at_the_median_state_edge_the_seat_sees_the_exact_count() -> None:
    """A D m3 card (no tags) against the board generic (part 1) in 2028: the state edges are
    3 + base(s) - 1. Sorting the states by edge and adding electoral votes from the lowest,
    the state that reaches 268 sets the edge; the Pollster's estimate is table P (2d6 against
    2d6) there [11]. The seat is shown the exact count instead, labelled exact [5.8]."""
    state = fresh(2)
    cards = build_cards(state.key)
    card = next(c for c in cards if c.party is Party.D and c.modifier == 3)
    rows = sorted((3 + s.baseline - 1, s.electoral_votes) for s in game_map().states)
    running = [sum(votes for _, votes in rows[: n + 1]) for n in range(len(rows))]
    edge = rows[next(n for n, total in enumerate(running) if total >= 268)][0]
    estimate = by_enumeration(TWO_DICE, edge)
    assert Pollster()._rerun_p(_president(state, card), 0, Party.D) == float(estimate)
    priced = declaration_chance(state, Declaration(0, "P", card.id, Party.D))
    assert priced.exact and "counted" in priced.method
    assert priced.chance == presidential_chance(PresidentialSide(3), PresidentialSide(1))
    assert priced.chance != estimate


def _president(state: GameState, card: Card) -> GameState:
    seats = list(state.seats)
    seats[0] = Holding(0, Party.D, card.id)
    return state.with_changes(seats=tuple(seats))


def test_machine_speaker_bid_prefers_board_seats_to_a_rivals() -> None:
    """2028, D House majority, no lean. Seat 1 holds H-CA-2 (D), so the Machine's `need` is
    1 + 1 = 2. The safest D races are in the +3 states, California's districts first; H-CA-1
    is the board's, H-CA-2 the rival's: the bid takes the two board-held ones, H-CA-1 and
    H-CA-3. Home states (Maine, Michigan) elect no senator or governor in 2028, and the hand
    has two candidates, so nothing else is declared."""
    state = fresh(2)
    seats = list(state.seats)
    seats[seat_index("H-CA-2")] = Holding(1, Party.D, 30)
    cards = build_cards(state.key)
    hand = tuple(c.id for c in cards if c.party is Party.D and c.id != 30)[:2]
    hands = list(state.hands)
    hands[0] = hand
    state = state.with_changes(
        seats=tuple(seats), hands=tuple(hands), phase=Phase.DECLARE, lean=(0,) * 50
    )
    assert leg.majority_party(state, Office.HOUSE) is Party.D
    machine = Machine([0], homes={0: (state_index("ME"), state_index("MI"))})
    entries = machine.declare(state, 0, machine.home(state, 0)).entries
    assert sorted(e.race for e in entries) == ["H-CA-1", "H-CA-3"]
    assert all(e.party is Party.D for e in entries)
