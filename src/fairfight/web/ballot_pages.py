"""What the ballot pages show, as pydantic models (the JSON twins use the same models), and
the forms a person fills in, read back into the engine's decisions.

Every number here comes from the ruleset: exact chances and the strongest declarations from
`fairfight.ballot.advice` (the terminal lists the same ones), scores from `scores`, thresholds
from `thresholds`; this module and the templates only format them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from fairfight.ballot.advice import DeclarationChance, declaration_chance, strongest_declarations
from fairfight.ballot.deck import build_cards
from fairfight.ballot.estimates import partisan
from fairfight.ballot.geo import game_map
from fairfight.ballot.human import plain, vote_lines
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.narration import narrate, who
from fairfight.ballot.rules import BOARD, TAGS, AmendmentChoice, Office, Party
from fairfight.ballot.scoring import scores
from fairfight.ballot.session import Session
from fairfight.ballot.state import (
    NO_CARD,
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
from fairfight.core.errors import InputError, RuleError

__all__ = [
    "CardView",
    "ChanceView",
    "DECLARATION_ROWS",
    "GamePage",
    "RECENT_LINES",
    "SeatView",
    "StateView",
    "checked",
    "decision_from_form",
    "describe",
    "game_page",
]

DECLARATION_ROWS = 8
"""Declaration rows on the declare form (submit again for more)."""
RECENT_LINES = 60


class CardView(BaseModel):
    """A card as shown: its id and its face."""

    id: int
    label: str
    candidate: bool


class SeatView(BaseModel):
    """A seat at the table with its current score."""

    seat: int
    name: str
    score: int
    you: bool


class StateView(BaseModel):
    """One state on the board: lean (D positive), partisan term, who holds the governorship."""

    code: str
    lean: int
    partisan: int
    governor: str
    governor_party: str
    senators: str
    tone: str
    """`d`, `r` or `even`: the colour of the lean."""
    holder: str
    """`you`, `player` or `board`: the outline of the governor's holder."""


class ChanceView(BaseModel):
    """A declaration's exact chance: percent, the exact fraction, and how it is read."""

    race: str
    card: int
    party: str
    percent: str
    fraction: str
    how: str


class GamePage(BaseModel):
    """Everything the game page shows, and its JSON twin."""

    id: str
    year: int
    phase: str
    over: bool
    victory: str
    you: int
    seats: list[SeatView]
    hand: list[CardView]
    pack: list[CardView]
    board: list[StateView]
    asked: bool
    prompt: list[str]
    suggestions: list[ChanceView]
    my_declarations: list[ChanceView]
    races_up: list[str]
    tags: list[str]
    bills: list[str]
    recent: list[str]
    winners: list[int]
    end_reason: str


def _cards(state: GameState, ids: tuple[int, ...]) -> list[CardView]:
    cards = build_cards(state.key)
    return [CardView(id=i, label=cards[i].label(), candidate=cards[i].is_candidate) for i in ids]


def _chance(priced: DeclarationChance) -> ChanceView:
    entry = priced.declaration
    return ChanceView(
        race=entry.race,
        card=entry.card,
        party=entry.party.value,
        percent=priced.percent(),
        fraction=str(priced.chance),
        how=priced.how,
    )


def _board(state: GameState, you: int) -> list[StateView]:
    gmap = game_map()
    rows = []
    for home, seats in zip(gmap.states, gmap.state_seats, strict=True):
        governor = state.seats[seats[-1]]
        senators = [state.seats[i] for i in seats if gmap.seats[i].office is Office.SENATE]
        lean = state.lean[home.index]
        rows.append(
            StateView(
                code=home.code,
                lean=lean,
                partisan=partisan(state, home.index),
                governor=who(governor.holder, you),
                governor_party=governor.party.value,
                senators=" ".join(f"{s.party.value}:{who(s.holder, you)}" for s in senators),
                tone="d" if lean > 0 else "r" if lean < 0 else "even",
                holder="you"
                if governor.holder == you
                else "board"
                if governor.holder == BOARD
                else "player",
            )
        )
    return rows


def _prompt(state: GameState, seat: int) -> list[str]:
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


def game_page(game_id: str, session: Session) -> GamePage:
    """The page model of a game for its person's seat."""
    state = session.state
    you = session.human
    asked = session.waiting_for_human()
    totals = state.last_scores if state.phase is Phase.OVER else scores(state)
    recent: list[str] = []
    for event in session.events:
        recent.extend(narrate(event, you))
    mine = [d for d in state.declarations if d.player == you]
    return GamePage(
        id=game_id,
        year=state.year,
        phase=state.phase.value,
        over=state.phase is Phase.OVER,
        victory=state.config.victory.value,
        you=you,
        seats=[
            SeatView(seat=n, name=name, score=totals[n], you=n == you)
            for n, name in enumerate(session.names)
        ],
        hand=_cards(state, state.hands[you]),
        pack=_cards(state, state.packs[you]) if state.packs and asked else [],
        board=_board(state, you),
        asked=asked,
        prompt=_prompt(state, you) if asked else [],
        suggestions=[_chance(priced) for priced in strongest_declarations(state, you)]
        if asked and state.phase is Phase.DECLARE
        else [],
        my_declarations=[_chance(declaration_chance(state, d)) for d in mine]
        if state.phase is Phase.WITHDRAW
        else [],
        races_up=[game_map().seats[i].race_id for i in game_map().races_in(state.year)],
        tags=list(TAGS),
        bills=[
            f"#{b.number} [{', '.join(b.tags)}] held by {who(b.holder, you)}" for b in state.bills
        ],
        recent=recent[-RECENT_LINES:],
        winners=list(state.winners),
        end_reason=state.end_reason,
    )


def _int(form: dict[str, Any], name: str) -> int:
    text = str(form.get(name, "")).strip().lstrip("#")
    if not text.isdigit():
        raise InputError(name, "choose a card or a number")
    return int(text)


def decision_from_form(state: GameState, seat: int, form: dict[str, Any]) -> Decision:
    """The decision a submitted form describes; InputError names the field when it is wrong."""
    phase = state.phase
    if phase is Phase.DRAFT:
        return DraftPick(_int(form, "card"))
    if phase is Phase.DECLARE:
        entries = []
        for row in range(DECLARATION_ROWS):
            race = str(form.get(f"race_{row}", "")).strip().upper()
            if not race:
                continue
            party = str(form.get(f"party_{row}", "")).strip().upper()
            if party not in ("D", "R"):
                raise InputError(f"party_{row}", "choose D or R")
            district = form.get(f"district_{row}", "")
            district_id = _int(form, f"district_{row}") if str(district).strip() else NO_CARD
            holding = (
                state.seats[game_map().seat_by_id[race]] if race in game_map().seat_by_id else None
            )
            card = _int(form, f"card_{row}")
            if holding is not None and holding.holder == seat and holding.card == card:
                district_id = holding.district_card
            entries.append(Declaration(seat, race, card, Party(party), district_id))
        return Declarations(tuple(entries))
    if phase is Phase.WITHDRAW:
        return Withdrawals(tuple(str(race) for race in form.get("withdraw", [])))
    if phase is Phase.AUTHOR:
        if form.get("decline"):
            return BillDraft(())
        rider = str(form.get("rider", "")).strip()
        tags = (str(form.get("tag_1", "")), str(form.get("tag_2", "")))
        return BillDraft(tags, int(rider) if rider.isdigit() else NO_CARD)
    if phase is Phase.AMEND_PROPOSE:
        if form.get("pass"):
            return AmendmentDraft(())
        return AmendmentDraft(tuple(str(form.get(f"tag_{n}", "")) for n in (1, 2, 3)))
    if phase is Phase.AMEND_VOTE:
        choice = str(form.get("choice", ""))
        if choice not in {c.value for c in AmendmentChoice}:
            raise InputError("choice", "choose for, against or abstain")
        return AmendmentVote(AmendmentChoice(choice))
    if phase is Phase.DISCARD:
        return Discards(tuple(sorted(int(c) for c in form.get("discard", []) if str(c).isdigit())))
    answer = str(form.get("answer", ""))
    if answer not in ("yes", "no"):
        raise InputError("answer", "answer yes or no")
    return YesNo(answer == "yes")


def checked(state: GameState, seat: int, decision: Decision) -> None:
    """The rules' own check, as a one-line refusal in plain words naming the field."""
    from fairfight.ballot.validation import check_decision

    try:
        check_decision(state, seat, decision)
    except RuleError as error:
        raise InputError(error.field, plain(error)) from None


def describe(state: GameState, decision: Decision) -> list[str]:
    """The decision in words, for the confirmation step."""
    cards = build_cards(state.key)
    if isinstance(decision, DraftPick):
        return [f"Take {cards[decision.card].label()}"]
    if isinstance(decision, Declarations):
        if not decision.entries:
            return ["Declare no candidate this year (seats of yours that come up retire)."]
        lines = []
        for entry in decision.entries:
            view = _chance(declaration_chance(state, entry))
            district = (
                f" with {cards[entry.district_card].label()}"
                if entry.district_card != NO_CARD
                else ""
            )
            lines.append(
                f"{entry.race}: {cards[entry.card].label()} as {entry.party.value}{district}: "
                f"{view.percent}% = {view.fraction} ({view.how})"
            )
        return lines
    if isinstance(decision, Withdrawals):
        return [f"Withdraw from {', '.join(decision.races) or 'no race'}"]
    if isinstance(decision, BillDraft):
        if not decision.tags:
            return ["Decline to write a bill this year."]
        rider = f", repealing bill #{decision.rider}" if decision.rider != NO_CARD else ""
        return [f"Write an omnibill on [{', '.join(decision.tags)}]{rider}"]
    if isinstance(decision, AmendmentDraft):
        return [f"Propose the amendment [{', '.join(decision.tags)}]" if decision.tags else "Pass"]
    if isinstance(decision, AmendmentVote):
        return [f"Your governors vote {decision.choice.value}"]
    if isinstance(decision, Discards):
        return ["Discard " + ", ".join(cards[c].label() for c in decision.cards)]
    assert isinstance(decision, YesNo)
    return ["Yes" if decision.yes else "No"]
