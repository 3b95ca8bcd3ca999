"""What a ballot seat (or a spectator) is shown: its page model, built from the game state (the
JSON twin is the same model).

Every number here comes from the ruleset: exact chances and the strongest declarations from
`fairfight.ballot.advice` (the terminal lists the same ones), scores from `scores`, thresholds
from `thresholds`; this module and the templates only format them. A page is built for one
viewer from the state and the viewer's own narration, so it holds no other seat's hand, pack or
undeclared choice: `view_page` reads only `state.hands[you]` and `state.packs[you]`. The models
themselves are in `ballot_page_models`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from fairfight.ballot.advice import DeclarationChance, strongest_declarations
from fairfight.ballot.deck import build_cards
from fairfight.ballot.elections import Event
from fairfight.ballot.estimates import partisan
from fairfight.ballot.geo import game_map
from fairfight.ballot.guidance import (
    card_glossary,
    projected_votes,
    ratifying_ends_game_while_trailing,
)
from fairfight.ballot.human import vote_lines
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.narration import narrate, who
from fairfight.ballot.revealed import revealed_chance
from fairfight.ballot.scoring import scores
from fairfight.ballot.session import Session
from fairfight.ballot.state import Declaration, GameState, Phase
from fairfight.ballot.tables import BOARD, TAGS, Office
from fairfight.web.ballot_page_models import (
    CardView,
    ChanceView,
    GamePage,
    GlossaryView,
    LogLine,
    ProjectionView,
    SeatView,
    StateView,
)

__all__ = [
    "CardView",
    "ChanceView",
    "GamePage",
    "GlossaryView",
    "LogLine",
    "NOBODY",
    "ProjectionView",
    "RATIFY_WARNING",
    "SeatView",
    "StateView",
    "chance_view",
    "game_page",
    "log_lines",
    "view_page",
]

NOBODY = -2
"""The viewer seat of a spectator: no seat (and not the board, -1)."""
RATIFY_WARNING = (
    "Ratifying this amendment would end the game at the end of the year, and on today's board "
    "(the amendment counted) you would not be among the winners."
)
"""What the amendment vote tells a seat that would lose the game its ratification ends."""


def _cards(state: GameState, ids: tuple[int, ...]) -> list[CardView]:
    cards = build_cards(state.key)
    return [CardView(id=i, label=cards[i].label(), candidate=cards[i].is_candidate) for i in ids]


def chance_view(priced: DeclarationChance, rivals: Sequence[str] = ()) -> ChanceView:
    """A priced declaration as shown: the fraction only when the engine counted it exactly,
    otherwise the estimate's method beside an approximate percentage."""
    entry = priced.declaration
    method = priced.method
    if not priced.exact and not method.startswith("estimate"):
        method = f"estimate: {method}"
    text = priced.text() if priced.exact else f"about {priced.percent()}% ({method})"
    return ChanceView(
        race=entry.race,
        card=entry.card,
        party=entry.party.value,
        percent=priced.percent(),
        exact=priced.exact,
        fraction=str(priced.chance) if priced.exact else "",
        method=method,
        how=priced.how,
        text=text,
        rivals=list(rivals),
    )


def _revealed_view(state: GameState, decl: Declaration, you: int) -> ChanceView:
    """A declaration at the withdraw step, priced against the rivals now visible, with them."""
    cards = build_cards(state.key)
    rivals = [
        f"{who(entry.player, you)}: {cards[entry.card].label()} as {entry.party.value}"
        for entry in state.declarations
        if entry.race == decl.race and entry.player != decl.player
    ]
    return chance_view(revealed_chance(state, decl), rivals or ["no other declaration"])


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
                tags=list(home.tags),
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


def _others_race(event: Event) -> str:
    sides = ", ".join(
        f"{party} {who(side['player'])} {side['total']}" for party, side in event["sides"].items()
    )
    return (
        f"{event['race']}: {event['winner']} wins by {event['margin']} ({sides}); "
        f"the seat goes to {who(event['holder'])}"
    )


def log_lines(events: Sequence[Event], you: int, start_year: int) -> list[LogLine]:
    """The whole log as `you` is told it, newest first; races between others folded."""
    lines: list[LogLine] = []
    year = start_year
    for event in events:
        year = int(event.get("year", year))
        told = narrate(event, you)
        lines.extend(LogLine(year=year, text=text, others=False) for text in told)
        if event["event"] == "race" and not told:
            lines.append(LogLine(year=year, text=_others_race(event), others=True))
    lines.reverse()
    return lines


def _declarable(state: GameState, you: int) -> list[CardView]:
    cards = build_cards(state.key)
    held = [
        state.seats[i].card
        for i in game_map().races_in(state.year)
        if state.seats[i].holder == you and state.seats[i].card >= 0
    ]
    ids = tuple(c for c in state.hands[you] if cards[c].is_candidate) + tuple(held)
    return _cards(state, ids)


def _my_seats(state: GameState, you: int) -> list[str]:
    seats = game_map().seats
    return [
        f"{seats[i].race_id} ({holding.party.value}, card #{holding.card})"
        for i, holding in enumerate(state.seats)
        if holding.holder == you
    ]


def game_page(game_id: str, session: Session) -> GamePage:
    """The page model of a one-person game for its person's seat."""
    return view_page(
        game_id, session.state, session.events, session.names, session.human,
        session.waiting_for_human(),
    )


def view_page(
    game_id: str,
    state: GameState,
    events: Sequence[Event],
    names: Sequence[str],
    you: int,
    asked: bool,
) -> GamePage:
    """The page of one viewer: seat `you` (whose answer is wanted when `asked`), or NOBODY for
    a spectator, who sees the public view only."""
    seated = 0 <= you < state.players
    asked = asked and seated
    totals = state.last_scores if state.phase is Phase.OVER else scores(state)
    mine = [d for d in state.declarations if d.player == you]
    up = game_map().races_in(state.year)
    authoring = asked and state.phase is Phase.AUTHOR
    limits = thresholds()
    return GamePage(
        id=game_id,
        year=state.year,
        phase=state.phase.value,
        over=state.phase is Phase.OVER,
        victory=state.config.victory.value,
        you=you,
        seats=[
            SeatView(seat=n, name=name, score=totals[n], you=n == you)
            for n, name in enumerate(names)
        ],
        hand=_cards(state, state.hands[you]) if seated else [],
        pack=_cards(state, state.packs[you]) if state.packs and asked else [],
        declarable=_declarable(state, you) if asked and state.phase is Phase.DECLARE else [],
        my_seats=_my_seats(state, you) if seated else [],
        board=_board(state, you),
        asked=asked,
        prompt=_prompt(state, you) if asked else [],
        suggestions=[chance_view(priced) for priced in strongest_declarations(state, you)]
        if asked and state.phase is Phase.DECLARE
        else [],
        my_declarations=[_revealed_view(state, d, you) for d in mine]
        if state.phase is Phase.WITHDRAW and seated
        else [],
        races_up=[game_map().seats[i].race_id for i in up],
        tags=list(TAGS),
        bills=[
            f"#{b.number} [{', '.join(b.tags)}] held by {who(b.holder, you)}" for b in state.bills
        ],
        glossary=[GlossaryView(term=g.term, meaning=g.meaning) for g in card_glossary()]
        if seated
        else [],
        projections=_projections(state, you) if authoring else [],
        needed=[limits.house_pass, limits.senate_pass] if authoring else [],
        warning=RATIFY_WARNING
        if asked
        and state.phase is Phase.AMEND_VOTE
        and ratifying_ends_game_while_trailing(state, you)
        else "",
        log=log_lines(events, you, state.config.start_year),
        winners=list(state.winners),
        end_reason=state.end_reason,
    )
