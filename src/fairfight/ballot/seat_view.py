"""What one seat (or a spectator) sees and is asked, as one value: `seat_view(state, events,
viewer)` returns a `SeatView`, and the terminal and the web only format it.

Every number comes from the ruleset: exact chances and the strongest declarations from
`advice`, scores from `scoring`, thresholds from `legislature`, the prompt from `prompts` (the
terminal seat says the same lines). The view is built from `visible_state`, the game as the
viewer knows it: another seat's hand and pack and the order of the deck are replaced by
`NO_CARD` before anything reads them, so no card of theirs can reach the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pydantic import BaseModel

from fairfight.ballot.advice import (
    DeclarationChance,
    declaration_chance,
    strongest_declarations,
)
from fairfight.ballot.advisor import ADVICE_OPTIMISES, Advice, advise
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import Event
from fairfight.ballot.engine import requested_seats
from fairfight.ballot.estimates import partisan
from fairfight.ballot.geo import game_map
from fairfight.ballot.guidance import (
    card_glossary,
    projected_votes,
    ratifying_ends_game_while_trailing,
)
from fairfight.ballot.hidden import visible_state
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.luck import game_luck
from fairfight.ballot.narration import who
from fairfight.ballot.prompts import phase_prompt
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.rules_page import chance_text
from fairfight.ballot.scoring import scores
from fairfight.ballot.seat_log import LogLine, log_lines
from fairfight.ballot.state import NO_CARD, Declaration, Declarations, GameState, Phase
from fairfight.ballot.story import EndingView, ending
from fairfight.ballot.tables import BOARD, TAGS, Office
from fairfight.core.luck import tenths
from fairfight.plainwords import times_in

__all__ = [
    "CardView",
    "ChanceView",
    "GlossaryView",
    "LogLine",
    "LuckView",
    "NOBODY",
    "ProjectionView",
    "RATIFY_WARNING",
    "RivalView",
    "SeatView",
    "StateView",
    "card_views",
    "chance_view",
    "log_lines",
    "seat_view",
    "visible_state",
]

NOBODY = -2
"""The viewer seat of a spectator: no seat (and not the board, -1)."""
RATIFY_WARNING = (
    "Ratifying this amendment would end the game at the end of the year, and on today's board "
    "(the amendment counted) you would not be among the winners."
)
"""What the amendment vote tells a seat that would lose the game its ratification ends."""


class CardView(BaseModel):
    """A card as shown: its id and its face (a candidate's party and modifier, or a district
    card's state and district), with its tags in rules order."""

    id: int
    label: str
    candidate: bool
    party: str = ""
    modifier: int = 0
    tags: list[str] = []
    state: str = ""
    district: int = 0


class RivalView(BaseModel):
    """Another seat's declaration in a race, revealed: who made it, the party, the card."""

    who: str
    party: str
    card: CardView


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
    tags: list[str]
    """The state's two tags (a bill on a tag pushes the lean of the states that carry it)."""
    mine: list[str] = []
    """The viewer's seats in this state (race ids), so a map can mark them."""


class ChanceView(BaseModel):
    """A declaration's chance: percent, the exact fraction only when it is an exact count, the
    method (an estimate says so), how it is read, and the rivals it was priced against."""

    race: str
    card: int
    party: str
    district_card: int = NO_CARD
    """The district card run beside `card` (`NO_CARD`: none); the chance is priced with it."""
    percent: str
    exact: bool
    fraction: str
    """The exact fraction, or empty for an estimate (never shown as if exact)."""
    method: str
    how: str
    text: str
    """The chance in words: `87.9% = 82063/93312`, or `about 87.9% (estimate: ...)`."""
    rivals: list[str]
    """At the withdraw step, the other declarations of the race (the field it was priced
    against); empty before the reveal."""
    rival_cards: list[RivalView] = []
    """The same declarations as cards, for a page to show as it shows a hand."""


class GlossaryView(BaseModel):
    """One part of a card label and what it means."""

    term: str
    meaning: str


class ProjectionView(BaseModel):
    """The projected yes votes of a bill on one tag pair, House and Senate."""

    tags: list[str]
    house_own: int
    senate_own: int
    house_all: int
    senate_all: int
    passes_with_own: bool


class LuckView(BaseModel):
    """One seat's races against their exact chances at the roll, once the game is over."""

    seat: int
    entered: int
    won: int
    expected: str
    """The races the chances said it would win on average, to one decimal."""
    tail: str
    """The exact chance of a run at least this lucky (or unlucky, as it went): "n/d"."""
    tail_percent: str
    """The same chance as a percentage, rounded once from the exact value."""
    tail_words: str
    """The same chance as a rarity ("about 1 time in 21", `plainwords.times_in`)."""
    sentence: str


class SeatView(BaseModel, frozen=True):
    """Everything one viewer is shown and asked at this point of the game."""

    year: int
    phase: str
    over: bool
    victory: str
    you: int
    """The viewer's seat, or `NOBODY` for a spectator."""
    scores: list[int]
    """Each seat's score now (the final scores once the game is over)."""
    hand: list[CardView]
    pack: list[CardView]
    declarable: list[CardView]
    """Cards the viewer may declare this year: candidates in hand and cards on seats it
    holds that come up (re-running a seat)."""
    my_seats: list[str]
    board: list[StateView]
    asked: bool
    """The viewer's answer is wanted now (its turn)."""
    prompt: list[str]
    """What the viewer is asked (`prompts.phase_prompt`), when it is asked."""
    suggestions: list[ChanceView]
    my_declarations: list[ChanceView]
    races_up: list[str]
    tags: list[str]
    bills: list[str]
    glossary: list[GlossaryView]
    """How to read a card label (shown with the declare form)."""
    projections: list[ProjectionView]
    """At the author step, every tag pair's projected yes votes."""
    needed: list[int]
    """The yes votes a bill needs: House, Senate (with `projections`)."""
    warning: str
    """At an amendment vote, `RATIFY_WARNING` when ratifying ends the game while you trail."""
    log: list[LogLine]
    """The whole log, newest first."""
    winners: list[int]
    end_reason: str
    luck: list[LuckView] = []
    """Each seat's luck in the races (`ballot.luck`), once the game is over."""
    ending: EndingView | None = None
    """The final screen's winner, scores and end reason in words, once the game is over."""
    advice: str = ""
    """When the viewer is asked: what the advice would answer, and why (`advisor.advise`)."""
    advice_optimises: str = ""
    """With `advice`: what the advice optimises (`advisor.ADVICE_OPTIMISES`), said once."""
    advised: list[ChanceView] = []
    """At the declare step: the advice's declarations for the year, each with its chance (the
    set a page picks before the seat chooses)."""


def chance_view(priced: DeclarationChance, rivals: Sequence[str] = ()) -> ChanceView:
    """A priced declaration as shown: the fraction only when the engine counted it exactly,
    otherwise the estimate's method beside an approximate percentage."""
    entry = priced.declaration
    method = priced.method
    if not priced.exact and not method.startswith("estimate"):
        method = f"estimate: {method}"
    percent = priced.percent()  # written once: a presidential chance is a long fraction
    fraction = str(priced.chance) if priced.exact else ""
    text = priced.text(percent) if priced.exact else f"about {percent}% ({method})"
    return ChanceView(
        race=entry.race,
        card=entry.card,
        party=entry.party.value,
        district_card=entry.district_card,
        percent=percent,
        exact=priced.exact,
        fraction=fraction,
        method=method,
        how=priced.how,
        text=text,
        rivals=list(rivals),
    )


def card_views(state: GameState, ids: tuple[int, ...]) -> list[CardView]:
    """The cards `ids` as shown (their faces from the deck of the game's key)."""
    cards = build_cards(state.key)
    codes = [home.code for home in game_map().states]
    return [
        CardView(id=i, label=card.label(), candidate=card.is_candidate,
                 party=card.party.value if card.party else "", modifier=card.modifier,
                 tags=[tag for tag in TAGS if tag in card.tags],
                 state=codes[card.state] if card.state >= 0 else "", district=card.district)
        for i, card in ((i, cards[i]) for i in ids)
    ]


def _revealed_view(state: GameState, decl: Declaration, you: int) -> ChanceView:
    """A declaration at the withdraw step, priced against the rivals now visible, with them."""
    others = [e for e in state.declarations if e.race == decl.race and e.player != decl.player]
    faces = card_views(state, tuple(entry.card for entry in others))
    view = chance_view(revealed_chance(state, decl), [
        f"{who(entry.player, you)}: {face.label} as {entry.party.value}"
        for entry, face in zip(others, faces, strict=True)
    ] or ["no other declaration"])
    view.rival_cards = [RivalView(who=who(entry.player, you), party=entry.party.value, card=face)
                        for entry, face in zip(others, faces, strict=True)]
    return view


def _projections(state: GameState, you: int) -> list[ProjectionView]:
    rows = []
    for pair in combinations(TAGS, 2):
        votes = projected_votes(state, you, pair)
        own, everyone = votes.with_own(), votes.with_everyone()
        rows.append(
            ProjectionView(
                tags=list(pair),
                house_own=own[0],
                senate_own=own[1],
                house_all=everyone[0],
                senate_all=everyone[1],
                passes_with_own=votes.passes_with_own(),
            )
        )
    return rows


def _holder_kind(holder: int, you: int) -> str:
    return "you" if holder == you else "board" if holder == BOARD else "player"


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
                holder=_holder_kind(governor.holder, you),
                tags=list(home.tags),
                mine=[gmap.seats[i].race_id for i in seats if state.seats[i].holder == you],
            )
        )
    return rows


def _declarable(state: GameState, you: int) -> list[CardView]:
    cards = build_cards(state.key)
    held = [
        state.seats[i].card
        for i in game_map().races_in(state.year)
        if state.seats[i].holder == you and state.seats[i].card >= 0
    ]
    ids = tuple(c for c in state.hands[you] if cards[c].is_candidate) + tuple(held)
    return card_views(state, ids)


def _my_seats(state: GameState, you: int) -> list[str]:
    seats = game_map().seats
    return [
        f"{seats[i].race_id} ({holding.party.value}, card #{holding.card})"
        for i, holding in enumerate(state.seats)
        if holding.holder == you
    ]


def seat_view(
    state: GameState, events: Sequence[Event], viewer: int, asked: bool | None = None
) -> SeatView:
    """What `viewer` (a seat, or `NOBODY` for a spectator) sees now; `asked` says whether its
    answer is wanted (None: whenever the phase asks its seat; a table passes False once the
    seat has answered or a stand-in plays it). Built from `visible_state` only."""
    seated = 0 <= viewer < state.players
    state = visible_state(state, viewer)
    asked = seated and (viewer in requested_seats(state) if asked is None else asked)
    phase = state.phase
    authoring = asked and phase is Phase.AUTHOR
    limits = thresholds()
    advice = advise(state, viewer) if asked else None
    return SeatView(
        year=state.year,
        phase=phase.value,
        over=phase is Phase.OVER,
        victory=state.config.victory.value,
        you=viewer,
        scores=list(state.last_scores if phase is Phase.OVER else scores(state)),
        hand=card_views(state, state.hands[viewer]) if seated else [],
        pack=card_views(state, state.packs[viewer]) if state.packs and asked else [],
        declarable=_declarable(state, viewer) if asked and phase is Phase.DECLARE else [],
        my_seats=_my_seats(state, viewer) if seated else [],
        board=_board(state, viewer),
        asked=asked,
        prompt=phase_prompt(state, viewer) if asked else [],
        suggestions=[chance_view(priced) for priced in strongest_declarations(state, viewer)]
        if asked and phase is Phase.DECLARE
        else [],
        my_declarations=[
            _revealed_view(state, d, viewer) for d in state.declarations if d.player == viewer
        ]
        if phase is Phase.WITHDRAW and seated
        else [],
        races_up=[game_map().seats[i].race_id for i in game_map().races_in(state.year)],
        tags=list(TAGS),
        bills=[
            f"#{b.number} [{', '.join(b.tags)}] held by {who(b.holder, viewer)}"
            for b in state.bills
        ],
        glossary=[GlossaryView(term=g.term, meaning=g.meaning) for g in card_glossary()]
        if seated
        else [],
        projections=_projections(state, viewer) if authoring else [],
        needed=[limits.house_pass, limits.senate_pass] if authoring else [],
        warning=RATIFY_WARNING
        if asked and phase is Phase.AMEND_VOTE and ratifying_ends_game_while_trailing(state, viewer)
        else "",
        log=log_lines(events, viewer, state.config.start_year),
        winners=list(state.winners),
        end_reason=state.end_reason,
        luck=_luck(state, events) if phase is Phase.OVER else [],
        ending=ending(state.winners, state.last_scores, state.end_reason)
        if phase is Phase.OVER
        else None,
        advice=advice.reason if advice else "",
        advice_optimises=ADVICE_OPTIMISES if advice else "",
        advised=_advised(state, advice),
    )


def _advised(state: GameState, advice: Advice | None) -> list[ChanceView]:
    """The advised declarations with their chances, when the advice is to declare."""
    if advice is None or not isinstance(advice.choice, Declarations):
        return []
    return [chance_view(declaration_chance(state, entry)) for entry in advice.choice.entries]


def _luck(state: GameState, events: Sequence[Event]) -> list[LuckView]:
    """Every seat's luck over the game's races: public once the game is over."""
    views = []
    for one in game_luck([str(seat) for seat in range(state.players)], state.key, events):
        luck = one.luck
        tail = luck.as_lucky_or_luckier if luck.lucky else luck.as_unlucky_or_unluckier
        views.append(LuckView(seat=one.seat, entered=luck.events, won=luck.observed,
                              expected=tenths(luck.expected), sentence=one.sentence(),
                              tail=f"{tail.numerator}/{tail.denominator}",
                              tail_percent=chance_text(tail),
                              tail_words=times_in(tail)))
    return views
