"""Rule-by-rule checks against the design's text, each expected value worked out here.

Dice are recomputed straight from hashlib at the addresses of section 13, thresholds are typed
from the design's numbers, and seat layouts are built by hand, so none of the expectations comes
from the code under test.
"""

from __future__ import annotations

import hashlib
from itertools import combinations

import pytest

from fairfight.ballot import legislature as leg
from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import YearWork, apply_pushes, resolve_presidency, roll_year_dice
from fairfight.ballot.engine import advance, begin_year, new_game, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.players import play_game
from fairfight.ballot.rules import (
    BOARD,
    TAGS,
    AmendmentChoice,
    BallotConfig,
    Office,
    Party,
    named_config,
)
from fairfight.ballot.scoring import score_lines, winners_on_score
from fairfight.ballot.state import (
    Amendment,
    AmendmentVote,
    Bill,
    Declaration,
    Declarations,
    Discards,
    DraftPick,
    GameState,
    Holding,
    Phase,
    PresidentialWin,
    Withdrawals,
    YesNo,
)
from fairfight.ballot.yearend import (
    _earned_end,
    cast_amendment,
    close_year,
    enact_or_fail,
    finish_legislature,
    open_impeachment,
)
from fairfight.console import parse_model
from fairfight.core.errors import InputError, RuleError
from tests.ballot.appendix_a import rows

CONFIG = named_config("as-written-plus")
VOCABULARY = [
    "catholic",
    "evangelical",
    "jewish",
    "black",
    "hispanic",
    "cuban",
    "union",
    "rural",
    "suburban",
    "urban",
    "farm",
]


def hash64(text: str) -> int:
    """First 8 bytes of SHA-256 of the ASCII text, big-endian [13]."""
    return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")


def below(n: int, text: str) -> int:
    return hash64(text) * n >> 64


def d6(text: str) -> int:
    return 1 + below(6, text)


def fresh(players: int = 2, key: str = "1000") -> GameState:
    state, _ = new_game(CONFIG, key, players)
    return state


def seats_of(office: Office) -> list[int]:
    return [seat.index for seat in game_map().seats if seat.office is office]


# ---- section 13: draw addresses ------------------------------------------------------------


def test_card_faces_follow_their_addresses() -> None:
    """[1.7, 13] tags drawn without replacement; district number and second tag by address."""
    key = "4242"
    cards = build_cards(key)
    for card_id, modifier in ((0, 0), (12, 1), (40, 2), (60, 3), (72, 0), (143, 3)):
        remaining = list(VOCABULARY)
        expected = set()
        for j in range(3 - modifier):
            expected.add(remaining.pop(below(len(remaining), f"{key}:0:tag:{card_id}:{j}")))
        assert cards[card_id].modifier == modifier
        assert cards[card_id].tags == expected
    for number, row in enumerate(rows()):
        card = cards[144 + number]
        code, tags = row["code"], row["tags"]
        assert card.district == 1 + below(int(row["house"]), f"{key}:0:district:{code}")  # type: ignore[call-overload]
        others = [tag for tag in VOCABULARY if tag not in tags]  # type: ignore[operator]
        second = others[below(9, f"{key}:0:dtag:{code}")]
        assert card.tags == {tags[0], second}  # type: ignore[index]


def test_setup_shuffle_deal_and_start_player() -> None:
    """[1.8, 13] Fisher-Yates over ids 0..193 (k = 0, year 0), 16 rounds in seat order."""
    key, players = "990", 3
    deck = list(range(194))
    for i in range(193, 0, -1):
        j = below(i + 1, f"{key}:0:shuffle:0:{i}")
        deck[i], deck[j] = deck[j], deck[i]
    state = fresh(players, key)
    for seat in range(players):
        assert state.hands[seat] == tuple(sorted(deck[seat : 16 * players : players]))
    start = below(players, f"{key}:0:start")
    assert state.start_player == start
    rest = deck[16 * players :]
    order = [(start + i) % players for i in range(players)]
    for place, seat in enumerate(order):
        assert state.packs[seat] == tuple(rest[8 * place : 8 * place + 8])


def test_reshuffle_takes_the_sorted_discard_with_the_year_and_next_k() -> None:
    """[3.1, 13] An empty deck reshuffles the discard pile sorted by id, year y, k = 1."""
    state = fresh(2, "31")
    discard = (150, 3, 77, 12, 190, 40, 41, 8, 99, 100, 5, 64, 120, 131, 2, 17, 18)
    state = state.with_changes(deck=(), discard=discard, year=2030, packs=())
    opened, _ = begin_year(state, first=True)
    pile = sorted(discard)
    for i in range(len(pile) - 1, 0, -1):
        j = below(i + 1, f"31:2030:shuffle:1:{i}")
        pile[i], pile[j] = pile[j], pile[i]
    first, second = state.turn_order()
    assert opened.packs[first] == tuple(pile[:8])
    assert opened.packs[second] == tuple(pile[8:16])
    assert opened.deck == tuple(pile[16:]) and opened.shuffles == 2


# ---- 5.8, 5.9, 6: the presidency, its pushes and the honeymoon -----------------------------


def board_only_presidency(key: str, year: int) -> tuple[dict[str, tuple[str, int]], int]:
    """Every state's winner and margin with two board generics (card part 1), by hashlib."""
    result: dict[str, tuple[str, int]] = {}
    d_votes = 0
    for row in rows():
        code = row["code"]
        totals = {}
        for party in "DR":
            totals[party] = (
                d6(f"{key}:{year}:nat:{party}")
                + d6(f"{key}:{year}:state:{party}:{code}")
                + d6(f"{key}:{year}:cand:P-{code}:{party}")
                + 1
                + (int(row["base"]) if party == "D" else 0)  # type: ignore[call-overload]
            )
        if totals["D"] == totals["R"]:
            tied, round_number = ["D", "R"], 0
            while len(tied) > 1:
                rolls = {s: d6(f"{key}:{year}:recount:P-{code}:G:{round_number}:{s}") for s in tied}
                tied = [s for s in tied if rolls[s] == max(rolls.values())]
                round_number += 1
            result[str(code)] = (tied[0], 0)
        else:
            winner = "D" if totals["D"] > totals["R"] else "R"
            result[str(code)] = (winner, abs(totals["D"] - totals["R"]))
        if result[str(code)][0] == "D":
            d_votes += int(row["ev"])  # type: ignore[call-overload]
    return result, d_votes


def push_by_hand(margin: int) -> int:
    """6.1: margin 0-1 pushes 2, 2-3 pushes 3, 4 or more pushes 4."""
    return 2 if margin <= 1 else 3 if margin <= 3 else 4


def play_year_without_declarations(state: GameState) -> tuple[GameState, list[dict[str, object]]]:
    """Pick the first card, declare nothing, discard the lowest ids: one whole year."""
    year, events = state.year, []
    while state.year == year and state.phase is not Phase.OVER:
        answers: dict[int, object] = {}
        for seat in requested_seats(state):
            if state.phase is Phase.DRAFT:
                answers[seat] = DraftPick(state.packs[seat][0])
            elif state.phase is Phase.DECLARE:
                answers[seat] = Declarations(())
            elif state.phase is Phase.WITHDRAW:
                answers[seat] = Withdrawals(())
            else:
                assert state.phase is Phase.DISCARD
                extra = len(state.hands[seat]) - state.config.hand_limit
                answers[seat] = Discards(state.hands[seat][:extra])
        state, more = advance(state, answers)  # type: ignore[arg-type]
        events.extend(more)
    return state, events


def test_presidency_state_by_state_with_pushes_recomputed_by_hand() -> None:
    """[5.8, 6.1, 6.2, 6.4] 50 winner-take-all contests, 268 of 535, one push per state."""
    key = "1000"
    _, events = play_year_without_declarations(fresh(2, key))
    president = next(e for e in events if e["event"] == "presidency")
    expected, d_votes = board_only_presidency(key, 2028)
    assert {c["state"]: (c["winner"], c["margin"]) for c in president["states"]} == expected  # type: ignore[index, union-attr]
    assert president["electoral_votes"] == {"D": d_votes, "R": 535 - d_votes}
    assert president["winner"] == ("D" if d_votes >= 268 else "R")
    pushes = next(e for e in events if e["event"] == "lean-push")
    assert pushes["changes"] == {
        code: push_by_hand(margin) * (1 if winner == "D" else -1)
        for code, (winner, margin) in expected.items()
    }


def presidency_work(key: str, year: int, previous: Holding, first: bool) -> YearWork:
    state = fresh(2, key)
    seats = list(state.seats)
    seats[0] = previous
    return YearWork(
        key=key,
        year=year,
        cards=build_cards(key),
        seats=seats,
        hands=[list(h) for h in state.hands],
        discard=[],
        lean=[0] * 50,
        honeymoon=[0] * 50,
        honeymoon_size=1,
        lean_cap=5,
        impeached_this_term=False,
        presidential_wins=[],
        open_presidency=first,
    )


def test_the_first_president_always_places_honeymoon_counters() -> None:
    """[1.6, 5.9] 2028 is an open seat: even a board winner of the placeholder party (D) is
    newly elected and marks every state it carried; a board re-elected under the same party in
    a later year places none, unless the term saw an impeachment."""
    key = next(k for k in map(str, range(100)) if board_only_presidency(k, 2028)[1] >= 268)
    carried, _ = board_only_presidency(key, 2028)
    expected = [1 if carried[str(row["code"])][0] == "D" else 0 for row in rows()]
    fresh_state = fresh(2, key)
    assert fresh_state.seats[0].holder == BOARD
    work = presidency_work(key, 2028, fresh_state.seats[0], first=True)
    roll_year_dice(work)
    event = resolve_presidency(work, [])
    assert event["winner"] == "D" and event["honeymoon"] is True
    assert work.honeymoon == expected

    again = presidency_work(key, 2028, Holding(BOARD, Party.D), first=False)
    roll_year_dice(again)
    assert resolve_presidency(again, [])["honeymoon"] is False
    assert again.honeymoon == [0] * 50
    impeached = presidency_work(key, 2028, Holding(BOARD, Party.D), first=False)
    impeached.impeached_this_term = True
    roll_year_dice(impeached)
    resolve_presidency(impeached, [])
    assert impeached.honeymoon == expected


# ---- 6.4, 6.5: clamp and decay -----------------------------------------------------------


def test_decay_moves_every_lean_one_pip_toward_zero_and_clears_counters() -> None:
    """[3.6, 6.5] 3 -> 2, -1 -> 0, 0 stays 0, -5 -> -4; honeymoon counters all removed."""
    state = fresh(2)
    lean = [3, -1, 0, -5] + [0] * 46
    honeymoon = [1, -1, 1, 0] + [0] * 46
    decayed, _ = finish_legislature(
        state.with_changes(lean=tuple(lean), honeymoon=tuple(honeymoon))
    )
    assert decayed.lean[:4] == (2, 0, 0, -4)
    assert decayed.honeymoon == (0,) * 50


# ---- 7: legislature ----------------------------------------------------------------------


def congress_split(state: GameState, house_yes: int, senate_yes: int) -> GameState:
    """Player 0 holds `house_yes` House and `senate_yes` Senate seats (D); player 1 the rest (R)."""
    seats = list(state.seats)
    for chamber, count in (
        (seats_of(Office.HOUSE), house_yes),
        (seats_of(Office.SENATE), senate_yes),
    ):
        for place, index in enumerate(chamber):
            seats[index] = Holding(0, Party.D, 0) if place < count else Holding(1, Party.R, 72)
    return state.with_changes(seats=tuple(seats))


def bill_vote(state: GameState, house_yes: int, senate_yes: int, president: Holding) -> GameState:
    state = congress_split(state, house_yes, senate_yes)
    seats = list(state.seats)
    seats[0] = president
    bill = Bill(0, state.year, Party.D, ("union", "farm"), 0)
    return state.with_changes(seats=tuple(seats), phase=Phase.BILL_VOTE, proposal=bill)


def votes(yes: bool) -> dict[int, object]:
    return {0: YesNo(yes), 1: YesNo(False)}


def test_passage_needs_218_house_and_60_senate() -> None:
    """[7.4] With player 0 voting yes and everyone else no."""
    friendly = Holding(BOARD, Party.D)
    for house, senate, passed in ((218, 60, True), (217, 60, False), (218, 59, False)):
        state = bill_vote(fresh(2), house, senate, friendly)
        after, events = enact_or_fail(state, votes(True))  # type: ignore[arg-type]
        assert any(e["event"] == "enacted" for e in events) is passed
        assert len(after.bills) == int(passed)


def test_board_veto_and_override_at_290_and_67() -> None:
    """[7.5] A board president of the other party vetoes; override is 2/3 of all seats."""
    hostile = Holding(BOARD, Party.R)
    for house, senate, overridden in ((290, 67, True), (289, 67, False), (290, 66, False)):
        state = bill_vote(fresh(2), house, senate, hostile)
        state, events = enact_or_fail(state, votes(True))  # type: ignore[arg-type]
        assert [e["event"] for e in events] == ["bill-vote", "veto"]
        assert state.phase is Phase.OVERRIDE_VOTE
        state, events = enact_or_fail(state, votes(True))  # type: ignore[arg-type]
        assert any(e["event"] == "enacted" for e in events) is overridden
    signed = bill_vote(fresh(2), 218, 60, Holding(BOARD, Party.D))
    _, events = enact_or_fail(signed, votes(True))  # type: ignore[arg-type]
    assert "veto" not in [e["event"] for e in events]


def test_passage_weights_give_the_bill_to_the_majority_of_player_weight() -> None:
    """[7.6] Player 0's 300 majority-party House yes seats weigh 600 + Senate 70 x 2 = 740;
    player 1 votes no, so player 0 (also the author) holds it with all of the weight."""
    state = bill_vote(fresh(2), 300, 70, Holding(BOARD, Party.D))
    after, events = enact_or_fail(state, votes(True))  # type: ignore[arg-type]
    vote = next(e for e in events if e["event"] == "bill-vote")
    assert vote["weights"] == [2 * 300 + 2 * 70, 0]
    assert after.bills[0].holder == 0 and after.authored == (1, 0)


def impeachment_state(board_r_senators: int) -> GameState:
    """A D player president (seat 0); all 100 senators board, the first k of them R."""
    state = fresh(2)
    seats = list(state.seats)
    for place, index in enumerate(seats_of(Office.SENATE)):
        seats[index] = Holding(BOARD, Party.R if place < board_r_senators else Party.D)
    seats[0] = Holding(0, Party.D, 7)
    return state.with_changes(
        seats=tuple(seats),
        phase=Phase.IMPEACH_VOTE,
        presidential_wins=(PresidentialWin(0, 2024), PresidentialWin(0, 2028)),
        year=2029,
    )


def test_impeachment_needs_67_senate_votes_and_voids_the_term() -> None:
    """[7.8] Board senators vote yes iff their party is not the president's; 67 of 100."""
    failed, events = open_impeachment(impeachment_state(66), {})
    assert events[0]["senate_yes"] == 66 and events[0]["passed"] is False
    assert failed.seats[0] == Holding(0, Party.D, 7)
    removed, events = open_impeachment(impeachment_state(67), {})
    assert events[0]["senate_yes"] == 67 and events[0]["passed"] is True
    assert removed.seats[0] == Holding(BOARD, Party.D)
    assert 7 in removed.discard and removed.impeached_this_term
    assert removed.presidential_wins == (
        PresidentialWin(0, 2024),
        PresidentialWin(0, 2028, True),
    )


# ---- 8: amendments -----------------------------------------------------------------------


def test_best_board_triple_reaches_36_states_and_best_pair_26() -> None:
    """[8.3] A board governor is for when the amendment shares a state tag: brute force."""
    state_tags = [set(row["tags"]) for row in rows()]  # type: ignore[call-overload]

    def reach(tags: tuple[str, ...]) -> int:
        return sum(1 for own in state_tags if own & set(tags))

    assert max(reach(t) for t in combinations(VOCABULARY, 3)) == 36
    assert max(reach(t) for t in combinations(VOCABULARY, 2)) == 26
    opening = fresh(2)
    tags = ("jewish", "cuban", "farm")
    counts = leg.amendment_count(opening, tags, (AmendmentChoice.ABSTAIN,) * 2)
    assert counts[AmendmentChoice.FOR] == reach(tags)
    assert counts[AmendmentChoice.AGAINST] == 0  # the board never opposes


def governors_split(for_count: int, against_count: int) -> GameState:
    """Player 0 holds `for_count` governorships, player 1 the next `against_count`."""
    state = fresh(2)
    seats = list(state.seats)
    for place, index in enumerate(seats_of(Office.GOVERNOR)):
        if place < for_count:
            seats[index] = Holding(0, Party.D, 0)
        elif place < for_count + against_count:
            seats[index] = Holding(1, Party.R, 72)
    return state.with_changes(seats=tuple(seats), phase=Phase.AMEND_VOTE)


def amendment_vote(state: GameState) -> tuple[GameState, str]:
    answers = {0: AmendmentVote(AmendmentChoice.FOR), 1: AmendmentVote(AmendmentChoice.AGAINST)}
    after, events = cast_amendment(state, answers)  # type: ignore[arg-type]
    return after, str(events[0]["result"])


def test_convention_call_34_ratify_38_block_13() -> None:
    """[8.1, 8.4, 8.5] Player governors outvote the board: 'cuban' alone reaches only FL."""
    proposal = Amendment(0, 2030, ("cuban", "jewish", "urban"), 0)
    board_for = {
        index
        for index, row in enumerate(rows())
        if set(row["tags"]) & set(proposal.tags)  # type: ignore[call-overload]
    }
    wyoming = len(rows()) - 1
    assert wyoming not in board_for  # the one board governor left below abstains
    for held, result in ((34, "convention"), (33, "lapsed")):
        state = governors_split(held, 50 - held)
        state = state.with_changes(amendment_proposal=proposal)
        after, outcome = amendment_vote(state)
        assert outcome == result
        assert (after.pending_amendment is not None) is (result == "convention")
    for held_for, held_against, result in (
        (38, 12, "ratified"),
        (37, 13, "blocked"),
        (37, 12, "pending"),
    ):
        state = governors_split(held_for, held_against).with_changes(pending_amendment=proposal)
        after, outcome = amendment_vote(state)
        assert outcome == result
        assert (after.pending_amendment is None) is (result != "pending")
        assert len(after.amendments) == int(result == "ratified")


# ---- 9, 10.2: scoring and the winner on score --------------------------------------------


def test_every_row_of_the_scoring_table() -> None:
    """[9] presidency 5, Senate 3, governor 2, House 1 each, bill 3, leaning state 1,
    matching amendment 2, attached district card 1, hand card 1."""
    state = fresh(2)
    gmap = game_map()
    cards = build_cards(state.key)
    seats = list(state.seats)
    governor_card = next(c for c in range(144) if "urban" in cards[c].tags)
    district = 144 + gmap.state_by_code["WY"]
    seats[0] = Holding(0, Party.D, 1)
    seats[gmap.seat_by_id["S-WY-I"]] = Holding(0, Party.R, 80, district)
    seats[gmap.seat_by_id["H-WY-1"]] = Holding(0, Party.R, 81)
    seats[gmap.seat_by_id["H-CA-1"]] = Holding(0, Party.D, 2)
    seats[gmap.seat_by_id["G-NY"]] = Holding(0, Party.D, governor_card)
    lean = [0] * 50
    lean[gmap.state_by_code["WY"]] = -1  # leans R: player 0 holds 2 of WY's R seats
    lean[gmap.state_by_code["CA"]] = -2  # leans R: player 0's CA seat is D, does not count
    state = state.with_changes(
        seats=tuple(seats),
        lean=tuple(lean),
        hands=((3, 4, 5), ()),
        bills=(Bill(0, 2028, Party.D, ("union", "farm"), 1, 0),),
        amendments=(Amendment(0, 2028, ("urban", "jewish", "cuban"), 0),),
    )
    line = score_lines(state)[0]
    expected = {
        "presidency": 5,
        "senate": 3,
        "governor": 2,
        "house": 2,
        "bills": 3,
        "leaning_states": 1,
        "amendments": 2,
        "district_cards": 1,
        "hand": 3,
    }
    assert {name: getattr(line, name) for name in expected} == expected
    assert line.total == 22
    assert score_lines(state)[1].total == 0


def test_score_ties_go_to_senate_seats_then_bills_then_share() -> None:
    """[10.2] Equal scores: more Senate seats, then more bills held, otherwise shared."""
    state = fresh(3)
    gmap = game_map()
    seats = list(state.seats)
    seats[gmap.seat_by_id["S-WY-I"]] = Holding(0, Party.R, 80)  # 3 points, 1 Senate seat
    seats[gmap.seat_by_id["H-WY-1"]] = Holding(1, Party.R, 81)  # 1 + 2 hand = 3 points
    base = state.with_changes(seats=tuple(seats), hands=((), (1, 2), (3, 4, 5)))
    assert [line.total for line in score_lines(base)] == [3, 3, 3]
    assert winners_on_score(base) == (0,)
    no_senate = list(seats)
    no_senate[gmap.seat_by_id["S-WY-I"]] = Holding(BOARD, Party.R)
    bills = (Bill(0, 2028, Party.D, ("union", "farm"), 2, 2),)
    level = base.with_changes(seats=tuple(no_senate), hands=((1, 2, 3), (1, 2), ()), bills=bills)
    assert [line.total for line in score_lines(level)] == [3, 3, 3]
    assert winners_on_score(level) == (2,)
    shared = level.with_changes(bills=(), hands=((1, 2, 3), (1, 2), (6, 7, 8)))
    assert winners_on_score(shared) == (0, 1, 2)


def test_tag_vocabulary_order() -> None:
    """[1.3] The eleven tags in the design's order (draws index into this order)."""
    assert list(TAGS) == VOCABULARY


def test_senate_primary_and_general_recomputed_by_hand() -> None:
    """[5.3, 5.5, 5.6, 5.7, 5.9] Two players run under D for S-AZ-III (a board R seat in 2028).
    Primary: 2d6 + card part, no partisan term. General: the nominee against a board R generic
    (part 1, +1 as the seat's board incumbent) with P(AZ) = base 0 + lean 0 + the honeymoon
    counter of this year's presidential winner if it carried AZ."""
    key, race = "1000", "S-AZ-III"
    state = fresh(2, key)
    while state.phase is Phase.DRAFT:
        state, _ = advance(state, {s: DraftPick(state.packs[s][0]) for s in requested_seats(state)})
    cards = build_cards(key)
    assert state.seats[game_map().seat_by_id[race]] == Holding(BOARD, Party.R)
    chosen = [next(c for c in state.hands[seat] if c < 144) for seat in (0, 1)]
    entries = {
        seat: Declarations((Declaration(seat, race, chosen[seat], Party.D),)) for seat in (0, 1)
    }
    state, _ = advance(state, entries)  # type: ignore[arg-type]
    _, events = advance(state, {0: Withdrawals(()), 1: Withdrawals(())})
    event = next(e for e in events if e.get("race") == race)

    def part(card_id: int) -> int:
        card = cards[card_id]
        switch = 1 if card_id >= 72 else 0  # R-printed card declared under D
        return card.modifier + len(card.tags & {"hispanic", "suburban"}) - switch

    totals = {
        seat: d6(f"{key}:2028:prim:{race}:{seat}:0")
        + d6(f"{key}:2028:prim:{race}:{seat}:1")
        + part(chosen[seat])
        for seat in (0, 1)
    }
    tied, round_number = [0, 1], 0
    if totals[0] != totals[1]:
        tied = [max(totals, key=lambda s: totals[s])]
    while len(tied) > 1:
        rolls = {s: d6(f"{key}:2028:recount:{race}:D:{round_number}:{s}") for s in tied}
        tied = [s for s in tied if rolls[s] == max(rolls.values())]
        round_number += 1
    nominee = tied[0]
    primary = event["primaries"][0]
    assert [row["total"] for row in primary["entries"]] == [totals[0], totals[1]]
    assert primary["winner"] == nominee

    carried, d_votes = board_only_presidency(key, 2028)
    winner = "D" if d_votes >= 268 else "R"
    honeymoon = 0 if carried["AZ"][0] != winner else (1 if winner == "D" else -1)
    general = {
        party: d6(f"{key}:2028:nat:{party}")
        + d6(f"{key}:2028:state:{party}:AZ")
        + d6(f"{key}:2028:cand:{race}:{party}")
        for party in "DR"
    }
    general["D"] += part(chosen[nominee]) + honeymoon
    general["R"] += 2
    assert event["sides"]["D"]["total"] == general["D"]
    assert event["sides"]["R"]["total"] == general["R"]
    assert event["sides"]["D"]["player"] == nominee and event["sides"]["R"]["player"] == BOARD
    if general["D"] != general["R"]:
        assert event["winner"] == ("D" if general["D"] > general["R"] else "R")
        assert event["margin"] == abs(general["D"] - general["R"])


def test_pushes_apply_together_and_clamp_at_five() -> None:
    """[6.3, 6.4] AL: Senate D by 7 (+4) outranks the House, 4 + 4 stops at 5. AK: an R
    governor rides along with an R lean (-2), held at -5. AZ: D won 2 of 3 House races, its
    largest margin 2 pushes 3, so -5 + 3 = -2. AR: equal House wins push nothing."""
    work = presidency_work("1000", 2030, Holding(BOARD, Party.D), first=False)
    work.lean[:4] = [4, -5, -5, 1]
    work.pushes = {
        0: [(Office.SENATE, Party.D, 7), (Office.HOUSE, Party.R, 9)],
        1: [(Office.GOVERNOR, Party.R, 0)],
        2: [(Office.HOUSE, Party.D, 0), (Office.HOUSE, Party.D, 2), (Office.HOUSE, Party.R, 5)],
        3: [(Office.HOUSE, Party.D, 1), (Office.HOUSE, Party.R, 1)],
    }
    event = apply_pushes(work, [4, -5, -5, 1] + [0] * 46)
    assert work.lean[:4] == [5, -5, -2, 1]
    assert event["changes"] == {"AL": 1, "AK": 0, "AZ": 3}


def test_speaker_and_proposer_ties() -> None:
    """[7.3, 8.5, 1.9] Most majority-party House seats; then more House seats in all; then turn
    order. The amendment proposer: most governorships, ties by turn order."""
    state = fresh(3).with_changes(start_player=2)
    gmap = game_map()
    seats = list(state.seats)
    seats[gmap.seat_by_id["H-CA-1"]] = Holding(0, Party.D, 1)  # the House majority is D
    seats[gmap.seat_by_id["H-CA-2"]] = Holding(1, Party.D, 2)
    seats[gmap.seat_by_id["H-TX-38"]] = Holding(1, Party.R, 80)
    state = state.with_changes(seats=tuple(seats))
    assert leg.majority_party(state, Office.HOUSE) is Party.D
    assert leg.speaker(state) == 1  # 1 D seat each; player 1 has 2 House seats in all
    seats[gmap.seat_by_id["H-TX-38"]] = Holding(BOARD, Party.R)
    level = state.with_changes(seats=tuple(seats))
    assert leg.speaker(level) == 0  # turn order 2, 0, 1: player 2 holds none, 0 comes first
    assert leg.speaker(fresh(3)) == BOARD
    seats[gmap.seat_by_id["G-NY"]] = Holding(1, Party.D, 3)
    seats[gmap.seat_by_id["G-CA"]] = Holding(0, Party.D, 4)
    governors = state.with_changes(seats=tuple(seats))
    assert leg.amendment_proposer(governors) == 0
    assert leg.amendment_proposer(governors.with_changes(start_player=1)) == 1


def test_three_terms_need_not_be_consecutive_and_voided_terms_do_not_count() -> None:
    """[10.3] Third unvoided win in any years; a voided win leaves the count short."""
    config = named_config("three-terms")
    wins = (PresidentialWin(0, 2028), PresidentialWin(1, 2032), PresidentialWin(0, 2036))
    state = fresh(2).with_changes(config=config, year=2040)
    third = state.with_changes(presidential_wins=(*wins, PresidentialWin(0, 2040)))
    assert _earned_end(third, (0, 0)) == ("three-terms", (0,))
    voided = (PresidentialWin(0, 2028, True), *wins[1:], PresidentialWin(0, 2040))
    assert _earned_end(state.with_changes(presidential_wins=voided), (0, 0)) == ("", ())
    two = state.with_changes(
        config=named_config("two-terms"), presidential_wins=third.presidential_wins
    )
    assert _earned_end(two, (0, 0)) == ("two-terms", (0,))  # 2036 and 2040


def test_ratification_and_the_year_cap_end_the_game_on_score() -> None:
    """[10.1, 10.2, 10.3] A ratification this year ends an `amendment` game at its scoring, the
    winner on score; a `points` game runs to 2043, the sixteenth year."""
    state = fresh(2).with_changes(year=2031, hands=((1, 2, 3), (4,)))
    ratified = state.with_changes(amendments=(Amendment(0, 2031, ("farm", "rural", "union"), 1),))
    over, events = close_year(ratified, {})
    assert over.phase is Phase.OVER and over.end_reason == "ratification"
    assert over.winners == (0,) and events[-1]["scores"] == [3, 1]
    older = state.with_changes(amendments=(Amendment(0, 2030, ("farm", "rural", "union"), 1),))
    assert close_year(older, {})[0].phase is Phase.DRAFT
    points = state.with_changes(config=named_config("points"))
    assert close_year(points.with_changes(year=2042), {})[0].phase is Phase.DRAFT
    capped, _ = close_year(points.with_changes(year=2043), {})
    assert capped.end_reason == "year-cap" and capped.winners == (0,)


def test_a_config_must_start_in_a_presidential_year() -> None:
    """[1.8, 7.2] The first year fills the presidency before any vote: 2029 is refused."""
    assert parse_model(BallotConfig, {"start_year": 2032}, "config").start_year == 2032
    with pytest.raises(InputError, match="start_year"):
        parse_model(BallotConfig, {"start_year": 2029}, "config")


def test_presidency_with_player_nominees_uses_fit_switch_and_base_only() -> None:
    """[5.8] Each state: N + S + C(P-ST) + m + fit(state tags) - switch, D adds base(s); no
    lean, honeymoon or incumbency, even for the seated card of a re-running president."""
    key = "2024"
    cards = build_cards(key)
    d_card = next(c for c in range(72) if cards[c].modifier == 1)  # printed D, runs D
    r_card = next(c for c in range(72) if cards[c].modifier == 2)  # printed D, runs R: switch
    work = presidency_work(key, 2032, Holding(0, Party.D, d_card), first=False)
    work.lean = [5] * 50
    work.honeymoon = [1] * 50
    roll_year_dice(work)
    entries = [
        Declaration(0, "P", d_card, Party.D),
        Declaration(1, "P", r_card, Party.R),
    ]
    event = resolve_presidency(work, entries)
    votes = {"D": 0, "R": 0}
    for contest, row in zip(event["states"], rows(), strict=True):
        code, tags = row["code"], set(row["tags"])  # type: ignore[call-overload]
        totals = {}
        for party, card_id, switch in (("D", d_card, 0), ("R", r_card, 1)):
            totals[party] = (
                d6(f"{key}:2032:nat:{party}")
                + d6(f"{key}:2032:state:{party}:{code}")
                + d6(f"{key}:2032:cand:P-{code}:{party}")
                + cards[card_id].modifier
                + len(cards[card_id].tags & tags)
                - switch
            )
        totals["D"] += int(row["base"])  # type: ignore[call-overload]
        assert (contest["D"], contest["R"]) == (totals["D"], totals["R"])
        votes[contest["winner"]] += int(row["ev"])  # type: ignore[call-overload]
    assert event["electoral_votes"] == votes
    assert event["winner"] == max(votes, key=lambda p: votes[p])
    assert event["honeymoon"] is (event["holder"] != 0)


def test_withdrawn_rerun_returns_its_cards_and_leaves_the_seat_to_the_board() -> None:
    """[4.5, 4.6] Withdrawing a re-run is retiring: card and district card back to hand, and
    with nobody left in the race the board takes the seat under the same party, unrolled."""
    state = fresh(2)
    gmap = game_map()
    race = "S-AZ-III"
    seated, district = 80, 144 + gmap.state_by_code["AZ"]
    seats = list(state.seats)
    seats[gmap.seat_by_id[race]] = Holding(0, Party.R, seated, district)
    entry = Declaration(0, race, seated, Party.R, district)
    state = state.with_changes(
        seats=tuple(seats), phase=Phase.WITHDRAW, declarations=(entry,), packs=()
    )
    after, events = advance(state, {0: Withdrawals((race,)), 1: Withdrawals(())})
    assert after.seats[gmap.seat_by_id[race]] == Holding(BOARD, Party.R)
    assert not [e for e in events if e.get("race") == race]
    assert {seated, district} <= set(after.hands[0])


def test_district_card_and_rerun_legality() -> None:
    """[4.3, 4.4] A district card only in its own state's Senate or governor race or its own
    House district, never for president; a re-run keeps exactly the seat's district card."""
    state = fresh(2)
    while state.phase is Phase.DRAFT:
        state, _ = advance(state, {s: DraftPick(state.packs[s][0]) for s in requested_seats(state)})
    cards = build_cards(state.key)
    gmap = game_map()
    candidate = next(c for c in state.hands[0] if c < 144)
    district = 144 + gmap.state_by_code["CA"]
    own_house = f"H-CA-{cards[district].district}"
    other_house = f"H-CA-{cards[district].district % 52 + 1}"
    state = state.with_changes(hands=(tuple(sorted({*state.hands[0], district})), state.hands[1]))

    def declare(race: str, card: int, extra: int) -> None:
        entry = Declaration(0, race, card, Party.D, extra)
        advance(state, {0: Declarations((entry,)), 1: Declarations(())})

    declare(own_house, candidate, district)  # legal
    declare("S-CA-III", candidate, district)  # legal: 2028 is a class III year
    for race in (other_house, "S-AZ-III", "P"):
        with pytest.raises(RuleError, match="does not belong"):
            declare(race, candidate, district)
    seats = list(state.seats)
    seats[gmap.seat_by_id["S-CA-III"]] = Holding(0, Party.D, 5, district)
    state = state.with_changes(seats=tuple(seats))
    declare("S-CA-III", 5, district)  # the re-run with its own district card
    with pytest.raises(RuleError, match="re-run keeps"):
        declare("S-CA-III", 5, -1)


def test_primary_recount_and_presidential_primary_addresses() -> None:
    """[5.5, 5.7, 5.8, 13] A tied primary recounts at (K, y, recount, race, party, round,
    player); the presidential primary rolls (K, y, prim, P, player, r) and adds m - switch."""
    key = "1001"
    _, events = play_game(
        CONFIG, key, make_bots(["pollster", "pollster", "machine", "machine"]), max_years=1
    )
    cards = build_cards(key)
    tied = next(
        (e, p) for e in events if e["event"] == "race" for p in e["primaries"] if p["recount"]
    )
    race, primary = tied
    first_round = primary["recount"][0]
    assert first_round == {
        side: d6(f"{key}:2028:recount:{race['race']}:{primary['party']}:0:{side}")
        for side in first_round
    }
    president = next(e for e in events if e["event"] == "presidency")
    assert president["primaries"]
    for primary in president["primaries"]:
        for entry in primary["entries"]:
            dice = [d6(f"{key}:2028:prim:P:{entry['player']}:{r}") for r in (0, 1)]
            printed = "D" if entry["card"] < 72 else "R"
            switch = 0 if printed == primary["party"] else 1
            assert entry["dice"] == dice
            assert entry["total"] == sum(dice) + cards[entry["card"]].modifier - switch
