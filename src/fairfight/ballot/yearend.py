"""Steps 5-7 of the year: omnibill, impeachment, amendments, decay, hand limit, scoring, end
[7, 8, 3.6, 3.7, 9, 10]. Each function takes a state (and the answers of the step it closes)
and returns the next state with its events.
"""

from __future__ import annotations

from fairfight.ballot import legislature as leg
from fairfight.ballot.elections import Event
from fairfight.ballot.scoring import score_lines, winners_on_score
from fairfight.ballot.state import (
    Amendment,
    AmendmentDraft,
    AmendmentVote,
    Bill,
    BillDraft,
    Decision,
    Discards,
    GameState,
    Holding,
    Phase,
    PresidentialWin,
    YesNo,
)
from fairfight.ballot.tables import (
    BOARD,
    OFFICE_HOUSE,
    PRESIDENTIAL_CYCLE,
    AmendmentChoice,
    Office,
    VictoryMode,
)

__all__ = [
    "Step",
    "THIRD_TERM",
    "cast_amendment",
    "close_year",
    "enact_or_fail",
    "finish_legislature",
    "open_impeachment",
    "open_legislature",
    "start_amendment",
    "start_impeachment",
    "vote_seats",
]


Step = tuple[GameState, list[Event]]
THIRD_TERM = 3


def vote_seats(state: GameState, offices: tuple[Office, ...]) -> tuple[int, ...]:
    """Players holding at least one seat of these offices."""
    holders = leg.seating(state).holders
    return tuple(sorted(set().union(*(holders[office] for office in offices))))


def _yes_votes(state: GameState, answers: dict[int, Decision]) -> tuple[bool, ...]:
    """Each player's answer; players not asked hold no seat that votes (recorded as no)."""
    votes = []
    for player in range(state.players):
        answer = answers.get(player)
        votes.append(isinstance(answer, YesNo) and answer.yes)
    return tuple(votes)


def open_legislature(state: GameState) -> Step:
    """The Speaker authors the omnibill; with no player Speaker there is none [7.3]."""
    author = leg.speaker(state)
    if author == BOARD:
        state, events = start_impeachment(state)
        return state, [{"event": "no-bill", "year": state.year}, *events]
    return state.with_changes(phase=Phase.AUTHOR), []


def enact_or_fail(state: GameState, answers: dict[int, Decision]) -> Step:
    """Author, vote, veto and override steps of the omnibill [7.3-7.6]."""
    if state.phase is Phase.AUTHOR:
        author = leg.speaker(state)
        draft = answers[author]
        assert isinstance(draft, BillDraft)
        if not draft.tags:
            state, events = start_impeachment(state)
            return state, [
                {"event": "bill-declined", "year": state.year, "author": author},
                *events,
            ]
        party = leg.majority_party(state, OFFICE_HOUSE)
        drafted = Bill(
            state.bills_created, state.year, party, tuple(draft.tags), author, BOARD, draft.rider
        )
        return state.with_changes(phase=Phase.BILL_VOTE, proposal=drafted), []
    bill = state.proposal
    assert bill is not None
    if state.phase is Phase.BILL_VOTE:
        votes = _yes_votes(state, answers)
        result = leg.tally(state, bill.party, bill.tags, votes)
        event = _vote_event(state, "bill-vote", result, leg.passes(result))
        if not leg.passes(result):
            return _bill_done(state, [event])
        president = state.seats[0]
        state = state.with_changes(votes=votes)
        if president.holder != BOARD:
            return state.with_changes(phase=Phase.VETO), [event]
        if leg.board_vetoes(state, bill):
            veto = {"event": "veto", "year": state.year, "by": BOARD}
            return state.with_changes(phase=Phase.OVERRIDE_VOTE), [event, veto]
        return _enact(state, result, [event])
    if state.phase is Phase.VETO:
        answer = answers[state.seats[0].holder]
        assert isinstance(answer, YesNo)
        if answer.yes:
            veto = {"event": "veto", "year": state.year, "by": state.seats[0].holder}
            return state.with_changes(phase=Phase.OVERRIDE_VOTE), [veto]
        return _enact(state, leg.tally(state, bill.party, bill.tags, state.votes), [])
    votes = _yes_votes(state, answers)
    result = leg.tally(state, bill.party, bill.tags, votes)
    event = _vote_event(state, "override-vote", result, leg.overrides(result))
    if leg.overrides(result):
        return _enact(state, result, [event])
    return _bill_done(state, [event])


def _vote_event(state: GameState, name: str, result: leg.Tally, passed: bool) -> Event:
    return {
        "event": name,
        "year": state.year,
        "house_yes": result.house_yes,
        "senate_yes": result.senate_yes,
        "weights": list(result.weights),
        "passed": passed,
    }


def _enact(state: GameState, result: leg.Tally, events: list[Event]) -> Step:
    """On the books, held by the weight majority or the author; a rider repeals [7.6, 7.7]."""
    bill = state.proposal
    assert bill is not None
    enacted = Bill(
        bill.number,
        bill.year,
        bill.party,
        bill.tags,
        bill.author,
        result.holder(bill.author),
        bill.rider,
    )
    books = tuple(b for b in state.bills if b.number != bill.rider) + (enacted,)
    authored = list(state.authored)
    authored[bill.author] += 1
    state = state.with_changes(
        bills=books, bills_created=state.bills_created + 1, authored=tuple(authored)
    )
    event = {
        "event": "enacted",
        "year": state.year,
        "bill": bill.number,
        "author": bill.author,
        "holder": enacted.holder,
        "tags": list(bill.tags),
        "party": bill.party.value,
        "repealed": bill.rider,
    }
    return _bill_done(state, [*events, event])


def _bill_done(state: GameState, events: list[Event]) -> Step:
    state = state.with_changes(proposal=None, votes=())
    state, more = start_impeachment(state)
    return state, events + more


def start_impeachment(state: GameState) -> Step:
    """Impeachment can be moved against a player president by another player [7.8]."""
    president = state.seats[0].holder
    if president == BOARD or state.players < 2:
        return start_amendment(state)
    return state.with_changes(phase=Phase.IMPEACH_MOTION), []


def open_impeachment(state: GameState, answers: dict[int, Decision]) -> Step:
    """The first mover in turn order opens a Senate vote; 67 yes removes the president."""
    if state.phase is Phase.IMPEACH_MOTION:
        movers = [
            p
            for p in state.turn_order()
            if isinstance(answers.get(p), YesNo) and answers[p] == YesNo(True)
        ]
        if not movers:
            return start_amendment(state)
        event = {
            "event": "impeach-motion",
            "year": state.year,
            "mover": movers[0],
            "president": state.seats[0].holder,
        }
        return state.with_changes(phase=Phase.IMPEACH_VOTE, impeachment_mover=movers[0]), [event]
    votes = _yes_votes(state, answers)
    yes = leg.impeachment_yes(state, votes)
    passed = yes >= leg.thresholds().impeach
    events: list[Event] = [
        {"event": "impeach-vote", "year": state.year, "senate_yes": yes, "passed": passed}
    ]
    state = state.with_changes(impeachment_mover=BOARD)
    if passed:
        president = state.seats[0]
        wins = list(state.presidential_wins)
        for i in range(len(wins) - 1, -1, -1):
            if wins[i].player == president.holder:
                wins[i] = PresidentialWin(wins[i].player, wins[i].year, True)
                break
        seats = list(state.seats)
        seats[0] = Holding(BOARD, president.party)
        state = state.with_changes(
            seats=tuple(seats),
            discard=state.discard + (president.card,),
            presidential_wins=tuple(wins),
            impeached_this_term=True,
        )
    step_state, more = start_amendment(state)
    return step_state, events + more


def start_amendment(state: GameState) -> Step:
    """A pending convention is counted first; otherwise the top governor may propose [8.4, 8.5]."""
    if state.pending_amendment is not None:
        return state.with_changes(phase=Phase.AMEND_VOTE), []
    if leg.amendment_proposer(state) == BOARD:
        return finish_legislature(state)
    return state.with_changes(phase=Phase.AMEND_PROPOSE), []


def cast_amendment(state: GameState, answers: dict[int, Decision]) -> Step:
    """Proposal, convention call (34), ratification (38) or block (13) [8]."""
    if state.phase is Phase.AMEND_PROPOSE:
        proposer = leg.amendment_proposer(state)
        draft = answers[proposer]
        assert isinstance(draft, AmendmentDraft)
        if not draft.tags:
            return finish_legislature(state)
        proposal = Amendment(state.amendments_created, state.year, tuple(draft.tags), proposer)
        return state.with_changes(
            phase=Phase.AMEND_VOTE,
            amendment_proposal=proposal,
            amendments_created=state.amendments_created + 1,
        ), []
    choices = tuple(
        answer.choice
        if isinstance(answer := answers.get(p), AmendmentVote)
        else AmendmentChoice.ABSTAIN
        for p in range(state.players)
    )
    limits = leg.thresholds()
    calling = state.amendment_proposal
    subject = calling if calling is not None else state.pending_amendment
    assert subject is not None
    counts = leg.amendment_count(state, subject.tags, choices)
    event: Event = {
        "event": "amendment-count",
        "year": state.year,
        "amendment": subject.number,
        "tags": list(subject.tags),
        "stage": "call" if calling else "ratify",
        "counts": {c.value: counts[c] for c in AmendmentChoice},
    }
    state = state.with_changes(amendment_proposal=None)
    if calling is not None:
        event["result"] = (
            "convention" if counts[AmendmentChoice.FOR] >= limits.amend_call else "lapsed"
        )
        if event["result"] == "convention":
            state = state.with_changes(pending_amendment=calling)
    elif counts[AmendmentChoice.FOR] >= limits.amend_ratify:
        event["result"] = "ratified"
        ratified = Amendment(subject.number, state.year, subject.tags, subject.proposer)
        state = state.with_changes(
            pending_amendment=None, amendments=state.amendments + (ratified,)
        )
    elif counts[AmendmentChoice.AGAINST] >= limits.amend_block:
        event["result"] = "blocked"
        state = state.with_changes(pending_amendment=None)
    else:
        event["result"] = "pending"
    state, more = finish_legislature(state)
    return state, [event, *more]


def finish_legislature(state: GameState) -> Step:
    """Decay every lean one pip toward 0 and clear honeymoon counters, then the hand limit."""
    decay = state.config.lean_decay
    lean = tuple(max(0, v - decay) if v > 0 else min(0, v + decay) for v in state.lean)
    state = state.with_changes(lean=lean, honeymoon=(0,) * len(lean))
    limit = state.config.hand_limit
    if any(len(hand) > limit for hand in state.hands):
        return state.with_changes(phase=Phase.DISCARD), []
    return close_year(state, {})


def close_year(state: GameState, answers: dict[int, Decision]) -> Step:
    """Hand limit, scoring, sunset, end check; then the next year opens [3.7, 9, 10]."""
    hands = [list(hand) for hand in state.hands]
    discard = list(state.discard)
    for player, answer in answers.items():
        assert isinstance(answer, Discards)
        for card in answer.cards:
            hands[player].remove(card)
            discard.append(card)
    state = state.with_changes(hands=tuple(tuple(h) for h in hands), discard=tuple(discard))
    lines = score_lines(state)
    totals = tuple(line.total for line in lines)
    events: list[Event] = [
        {
            "event": "scoring",
            "year": state.year,
            "scores": list(totals),
            "hands": [len(h) for h in state.hands],
        }
    ]
    reason, winners = _earned_end(state, totals)
    if not reason and state.year >= state.config.last_year():
        reason = "year-cap"
    if reason and not winners:
        winners = winners_on_score(state)
    life = state.config.bill_life
    state = state.with_changes(
        last_scores=totals, bills=tuple(b for b in state.bills if b.year + life - 1 > state.year)
    )
    if reason:
        events.append(
            {
                "event": "end",
                "year": state.year,
                "reason": reason,
                "winners": list(winners),
                "scores": list(totals),
            }
        )
        return state.with_changes(
            phase=Phase.OVER, ended=True, end_reason=reason, winners=winners
        ), events
    return state.with_changes(year=state.year + 1, phase=Phase.DRAFT, packs=()), events


def _earned_end(state: GameState, totals: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """The victory mode's earned ending this year, if any [10.3]."""
    mode = state.config.victory
    if mode is VictoryMode.POINTS:
        return "", ()
    if mode is VictoryMode.AMENDMENT:
        ratified = any(a.year == state.year for a in state.amendments)
        return ("ratification", ()) if ratified else ("", ())
    bills: list[int] = []
    if mode in (VictoryMode.BILLS, VictoryMode.PARALLEL):
        bills = [p for p in range(state.players) if state.authored[p] >= state.config.bill_target]
    valid = [w for w in state.presidential_wins if not w.voided]
    this_year = [w.player for w in valid if w.year == state.year]
    terms: list[int] = []
    if mode in (VictoryMode.TWO_TERMS, VictoryMode.PARALLEL):
        earlier = {w.player for w in valid if w.year == state.year - PRESIDENTIAL_CYCLE}
        terms = [p for p in this_year if p in earlier]
    if mode is VictoryMode.THREE_TERMS:
        terms = [p for p in this_year if sum(w.player == p for w in valid) >= THIRD_TERM]
    if bills and terms:
        contenders = sorted(set(bills) | set(terms))
        best = max(totals[p] for p in contenders)
        return "bills-and-terms", tuple(p for p in contenders if totals[p] == best)
    if bills:
        return "bills", tuple(bills)
    if terms:
        return mode.value if mode is not VictoryMode.PARALLEL else "two-terms", tuple(terms)
    return "", ()
