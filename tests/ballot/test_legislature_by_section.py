"""The legislature, the amendment track, scoring and the endings, each checked on hand-built
states against the design's numbers (218/60, 290/67, 67, 34/38/13, the scoring table).
"""

from __future__ import annotations

from itertools import combinations

import pytest

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import build_cards
from fairfight.ballot.engine import advance, requested_seats
from fairfight.ballot.geo import game_map
from fairfight.ballot.scoring import score_lines, winners_on_score
from fairfight.ballot.state import (
    Amendment,
    AmendmentVote,
    Bill,
    Discards,
    GameState,
    Holding,
    Phase,
    PresidentialWin,
    YesNo,
)
from fairfight.ballot.tables import (
    BOARD,
    AmendmentChoice,
    Office,
    Party,
    named_config,
)
from fairfight.ballot.yearend import (
    _earned_end,
    cast_amendment,
    close_year,
    enact_or_fail,
    finish_legislature,
    open_impeachment,
)
from fairfight.core.errors import RuleError
from tests.ballot.appendix_a import rows
from tests.ballot.oracle import (
    VOCABULARY,
    fresh,
    seats_of,
)


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
        assert after.phase is not Phase.AMEND_PROPOSE  # 8.4: no proposal after a count
        assert after.amendments_created == 0


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
    senate_first = base.with_changes(bills=bills, hands=((), (1, 2), ()))
    assert [line.total for line in score_lines(senate_first)] == [3, 3, 3]
    assert winners_on_score(senate_first) == (0,)  # 1 Senate seat beats 1 bill held


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


def test_a_bill_scores_in_its_year_and_the_next_three_then_sunsets() -> None:
    """[7.7, 3.7] Enacted 2028: scored at the 2028-2031 scorings, removed after the 2031 one."""
    bill = Bill(0, 2028, Party.D, ("union", "farm"), 0, 0)
    state = fresh(2).with_changes(config=named_config("points"), bills=(bill,), hands=((), ()))
    for year in (2028, 2029, 2030, 2031):
        after, events = close_year(state.with_changes(year=year), {})
        assert events[0]["scores"] == [3, 0]
        assert after.bills == ((bill,) if year < 2031 else ())


def test_hand_limit_discards_exactly_the_surplus_before_scoring() -> None:
    """[3.7, 9] Only a player over 16 is asked; it must drop exactly the surplus; the scoring
    then counts 16 hand cards."""
    hand = tuple(range(18))
    state = fresh(2).with_changes(hands=(hand, (20, 21)), phase=Phase.AMEND_VOTE)
    state, _ = finish_legislature(state)
    assert state.phase is Phase.DISCARD and requested_seats(state) == (0,)
    with pytest.raises(RuleError, match="exactly 2"):
        advance(state, {0: Discards((0,))})
    after, events = advance(state, {0: Discards((0, 1))})
    scoring = next(e for e in events if e["event"] == "scoring")
    assert scoring["hands"] == [16, 2] and scoring["scores"] == [16, 2]
