"""What a seat is asked in each phase, in one place: the terminal seat says these lines before
its question and the web page shows them above its form.

Only the prompt lives here; how an answer is typed (a terminal line, a form) stays with the
edge that reads it.
"""

from __future__ import annotations

from fairfight.ballot.botkit import projected_holder
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.state import NO_CARD, GameState, Phase

__all__ = ["phase_prompt", "vote_lines"]


def phase_prompt(state: GameState, seat: int) -> list[str]:
    """What `seat` is asked now, and what it needs to know to answer (thresholds, the bill)."""
    phase = state.phase
    limits = thresholds()
    if phase is Phase.DRAFT:
        return [f"Draft pick {state.picks_made + 1} of {state.config.picks}: take one card."]
    if phase is Phase.DECLARE:
        return [
            "Declare candidates: a race, a card from your hand, the party, optionally a "
            "district card. Your seats that come up retire unless you re-run their card."
        ]
    if phase is Phase.WITHDRAW:
        return ["Withdraw any of your candidates before the dice (all or nothing per race)."]
    if phase is Phase.AUTHOR:
        return ["You are the Speaker: write the omnibill (two tags, an optional repeal rider)."]
    if phase is Phase.AMEND_PROPOSE:
        return [
            f"You may propose an amendment of {state.config.amend_tags} tags: "
            f"{limits.amend_call} governors for call a convention."
        ]
    if phase is Phase.AMEND_VOTE:
        subject = state.amendment_proposal or state.pending_amendment
        assert subject is not None
        return [
            f"Amendment [{', '.join(subject.tags)}]: {limits.amend_call} for call a convention, "
            f"{limits.amend_ratify} ratify a pending one, {limits.amend_block} against block it."
        ]
    if phase is Phase.DISCARD:
        need = len(state.hands[seat]) - state.config.hand_limit
        return [f"Your hand is over {state.config.hand_limit}: discard {need} cards."]
    if phase is Phase.IMPEACH_MOTION:
        return [f"Move to impeach the president (seat {state.seats[0].holder})?"]
    return vote_lines(state, phase)


def vote_lines(state: GameState, phase: Phase) -> list[str]:
    """What a vote is about: the bill, the thresholds and who would hold it if it passed."""
    limits = thresholds()
    if phase is Phase.IMPEACH_VOTE:
        president = state.seats[0]
        return [
            f"Removing the president (seat {president.holder}) needs {limits.impeach} of 100 "
            "Senate yes votes."
        ]
    bill = state.proposal
    if bill is None:
        return []
    lines = [
        f"Omnibill #{bill.number}: a {bill.party.value} bill on [{', '.join(bill.tags)}], "
        f"written by seat {bill.author}"
        + (f", repealing bill #{bill.rider}" if bill.rider != NO_CARD else "")
    ]
    if phase is Phase.OVERRIDE_VOTE:
        lines.append(
            f"Overriding the veto needs {limits.house_override} House and "
            f"{limits.senate_override} Senate yes votes."
        )
    elif phase is Phase.BILL_VOTE:
        lines.append(
            f"It passes with {limits.house_pass} House and {limits.senate_pass} Senate yes votes."
        )
    holder = projected_holder(state, bill, state.votes if phase is Phase.VETO else None)
    name = f"seat {holder}" + (" (the author)" if holder == bill.author else "")
    if phase is Phase.VETO:
        lines.append(f"As passed, it is held by {name}.")
    else:
        lines.append(f"If every player votes yes and it passes, {name} holds it.")
    return lines
