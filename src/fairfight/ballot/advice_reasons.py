"""Why the advice chose what it chose: one sentence per decision, from the bot's own numbers.

Each sentence quotes the figures the Pollster weighed (a race's exact chance and the points
its seat is worth, a card's draft worth, the bill's projected holder, the scores), so a player
can check the advice rather than take it on trust. Chances are the engine's exact fractions
shown as percentages (an estimate says so), never the bot's rounded floats.
"""

from __future__ import annotations

from collections.abc import Callable

from fairfight.ballot import botkit as kit
from fairfight.ballot.advice import DeclarationChance, declaration_chance
from fairfight.ballot.geo import game_map
from fairfight.ballot.narration import who
from fairfight.ballot.pollster import LEAD_TO_PROPOSE, RESERVE, TRAIL_TO_OPPOSE, Pollster
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.scoring import scores
from fairfight.ballot.state import (
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Decision,
    Declaration,
    Declarations,
    Discards,
    DraftPick,
    GameState,
    Phase,
    Withdrawals,
    YesNo,
)
from fairfight.ballot.tables import BOARD

__all__ = ["reason_for"]


def reason_for(state: GameState, seat: int, choice: Decision, bot: Pollster) -> str:
    """The sentence that says why `choice` is the bot's answer for `seat` on `state`."""
    if isinstance(choice, DraftPick):
        return _draft(state, seat, choice, bot)
    if isinstance(choice, Declarations):
        return _declare(state, seat, choice, bot)
    if isinstance(choice, Withdrawals):
        return _withdraw(state, seat, choice, bot)
    if isinstance(choice, BillDraft):
        return _author(state, seat, choice)
    if isinstance(choice, AmendmentDraft):
        return _propose(state, seat, choice)
    if isinstance(choice, AmendmentVote):
        return _amendment_vote(state, seat, choice)
    if isinstance(choice, Discards):
        return _discards(state, seat, choice)
    assert isinstance(choice, YesNo)
    return _yes_no(state, seat, choice.yes)


def _chance(priced: DeclarationChance) -> str:
    kind = "exact" if priced.exact else "estimate"
    return f"{priced.percent()}% {kind}"


def _points(value: float) -> str:
    return f"{value:.2f}".removesuffix(".00")


def _sentence(parts: list[str]) -> str:
    """Clauses joined by semicolons, the first letter raised (race ids keep their case)."""
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def _worth(bot: Pollster, race: str) -> float:
    return bot.bids.get(race, float(kit.OFFICE_VALUE[game_map().seat(race).office]))


def _draft(state: GameState, seat: int, choice: DraftPick, bot: Pollster) -> str:
    worth = bot.draft_worth(state, seat)
    others = sorted((value, card) for card, value in worth.items() if card != choice.card)
    text = f"Draft #{choice.card}: worth {_points(worth[choice.card])} points to you this year"
    if others:
        value, card = others[-1]
        text += f", the most in the pack (next best #{card}, {_points(value)})"
    return text + "."


def _declare(state: GameState, seat: int, choice: Declarations, bot: Pollster) -> str:
    spent = {c for d in choice.entries if _new(state, d) for c in (d.card, d.district_card)}
    kept = ", ".join(f"#{card}" for card in state.hands[seat] if card not in spent)
    if not choice.entries:
        return (
            f"Declare nothing: no race's chance times its points, less the card, beats keeping "
            f"the card while keeping {RESERVE} in reserve; you keep {kept or 'no cards'}."
        )
    parts = []
    for decl in choice.entries:
        verb = "run" if _new(state, decl) else "re-run"
        priced = declaration_chance(state, decl)
        district = f" and district card #{decl.district_card}" if decl.district_card >= 0 else ""
        parts.append(
            f"{verb} {decl.race} with #{decl.card} as {decl.party.value}{district} "
            f"({_chance(priced)} to win, worth {_points(_worth(bot, decl.race))} points)"
        )
    return (
        f"{_sentence(parts)}; you keep {kept or 'no cards'} in hand (the advice holds "
        f"{RESERVE} back for later years when the hand allows)."
    )


def _new(state: GameState, decl: Declaration) -> bool:
    holding = state.seats[game_map().seat_by_id[decl.race]]
    return not (holding.holder == decl.player and holding.card == decl.card)


def _withdraw(state: GameState, seat: int, choice: Withdrawals, bot: Pollster) -> str:
    cost = 0 if len(state.hands[seat]) >= state.config.hand_limit else kit.CARD_COST
    mine = [d for d in state.declarations if d.player == seat]
    if not mine:
        return "Nothing to withdraw: you declared no race this year."
    parts = []
    for decl in mine:
        weighed = bot.revealed_chance(state, decl, game_map().seat_by_id[decl.race])
        worth = _worth(bot, decl.race)
        verb = "withdraw from" if decl.race in choice.races else "stay in"
        parts.append(
            f"{verb} {decl.race} (about {weighed:.1%} against the strongest revealed rival of "
            f"each party, times {_points(worth)} points = {_points(weighed * worth)}; exact "
            f"against the whole field: {_chance(revealed_chance(state, decl))})"
        )
    return (
        f"{_sentence(parts)}: the advice stays in a race when that estimate times its points "
        f"reaches the {cost} point{'s' if cost != 1 else ''} its card would score back in hand."
    )


def _author(state: GameState, seat: int, choice: BillDraft) -> str:
    if not choice.tags:
        return "Decline to write a bill."
    text = (
        f"Write the bill on {' and '.join(choice.tags)}: of the pairs touching your tags, the "
        f"one the most board members would vote for"
    )
    if choice.rider >= 0:
        text += f", with a rider repealing #{choice.rider}, the newest bill of the leader"
    return text + "."


def _propose(state: GameState, seat: int, choice: AmendmentDraft) -> str:
    margin = kit.lead_margin(state, seat)
    if not choice.tags:
        return (
            f"Propose no amendment: the advice proposes one only in amendment mode and when "
            f"you lead by {LEAD_TO_PROPOSE} or more (your margin is {margin:+d})."
        )
    return (
        f"Propose {', '.join(choice.tags)}: you lead by {margin}, and these tags reach the "
        f"most states whose governor the board holds."
    )


def _amendment_vote(state: GameState, seat: int, choice: AmendmentVote) -> str:
    margin = kit.lead_margin(state, seat)
    return (
        f"Vote {choice.choice.value}: for when it serves you (you lead, in amendment mode, or it "
        f"carries your tags), against when you trail by {TRAIL_TO_OPPOSE} or more; your margin is "
        f"{margin:+d}."
    )


def _discards(state: GameState, seat: int, choice: Discards) -> str:
    cards = ", ".join(f"#{card}" for card in choice.cards)
    return (
        f"Discard {cards or 'nothing'}: the cards worth least to keep (a candidate its "
        f"modifier, a district card 1.5), down to the hand limit of {state.config.hand_limit}."
    )


def _yes_no(state: GameState, seat: int, yes: bool) -> str:
    vote = "yes" if yes else "no"
    why: Callable[[GameState, int], str] = _WHY.get(state.phase, _bill_why)
    return f"Vote {vote}: {why(state, seat)}."


def _bill_why(state: GameState, seat: int) -> str:
    bill = state.proposal
    assert bill is not None
    holder = kit.projected_holder(state, bill)
    leader = kit.current_leader(state)
    shared = sorted(set(bill.tags) & kit.seated_tags(state, seat))
    if bill.author == seat:
        return "you wrote the bill"
    if holder == seat:
        return "if it passes, its seat goes to you"
    tags = ", ".join(shared) or "none of your tags"
    return (
        f"it carries {tags}; if it passes its seat goes to {who(holder, seat)}, and the "
        f"leader is {who(leader, seat)}"
    )


def _veto_why(state: GameState, seat: int) -> str:
    assert state.proposal is not None
    holder = kit.projected_holder(state, state.proposal, state.votes)
    totals = scores(state)
    if holder in (BOARD, seat):
        return f"the passed bill goes to {who(holder, seat)}"
    return (
        f"the passed bill goes to {who(holder, seat)} with {totals[holder]} points against "
        f"your {totals[seat]}: a veto stops a rival level with you or ahead"
    )


def _impeach_why(state: GameState, seat: int) -> str:
    president = state.seats[0].holder
    leader = kit.current_leader(state)
    return (
        f"the advice impeaches only a president who leads the game; the president is "
        f"{who(president, seat)} and the leader {who(leader, seat)}"
    )


_WHY: dict[Phase, Callable[[GameState, int], str]] = {
    Phase.VETO: _veto_why,
    Phase.IMPEACH_MOTION: _impeach_why,
    Phase.IMPEACH_VOTE: _impeach_why,
}
