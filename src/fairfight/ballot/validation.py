"""Checks that a player's decision is legal in the current phase; RuleError names what is wrong.

The engine calls these before applying any answer, so a human seat can be told what to fix and
asked again, and a tampered record fails loudly instead of playing an impossible move.
"""

from __future__ import annotations

from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import game_map, race_positions
from fairfight.ballot.state import (
    NO_CARD,
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Decision,
    Declarations,
    Discards,
    DraftPick,
    GameState,
    Phase,
    Withdrawals,
    YesNo,
)
from fairfight.ballot.tables import (
    BILL_TAGS,
    OFFICE_GOVERNOR,
    OFFICE_HOUSE,
    OFFICE_SENATE,
    TAGS,
)
from fairfight.core.errors import RuleError

__all__ = [
    "EXPECTED",
    "check_bill",
    "check_decision",
    "check_declarations",
    "check_tags",
]


EXPECTED: dict[Phase, type] = {
    Phase.DRAFT: DraftPick,
    Phase.DECLARE: Declarations,
    Phase.WITHDRAW: Withdrawals,
    Phase.AUTHOR: BillDraft,
    Phase.BILL_VOTE: YesNo,
    Phase.VETO: YesNo,
    Phase.OVERRIDE_VOTE: YesNo,
    Phase.IMPEACH_MOTION: YesNo,
    Phase.IMPEACH_VOTE: YesNo,
    Phase.AMEND_PROPOSE: AmendmentDraft,
    Phase.AMEND_VOTE: AmendmentVote,
    Phase.DISCARD: Discards,
}


def check_decision(state: GameState, seat: int, decision: Decision) -> None:
    """Raise RuleError unless `decision` is a legal answer of `seat` in this phase."""
    expected = EXPECTED.get(state.phase)
    if expected is None or not isinstance(decision, expected):
        raise RuleError(state.phase.value, f"expected a {getattr(expected, '__name__', 'nothing')}")
    if isinstance(decision, DraftPick) and decision.card not in state.packs[seat]:
        raise RuleError("draft.card", f"card {decision.card} is not in the pack in front of you")
    if isinstance(decision, Declarations):
        check_declarations(state, seat, decision)
    if isinstance(decision, Withdrawals):
        mine = {d.race for d in state.declarations if d.player == seat}
        for race in decision.races:
            if race not in mine:
                raise RuleError("withdraw.races", f"you have no candidate in {race}")
        if len(set(decision.races)) != len(decision.races):
            raise RuleError("withdraw.races", "a race is named twice")
    if isinstance(decision, BillDraft):
        check_bill(state, decision)
    if isinstance(decision, AmendmentDraft) and decision.tags:
        check_tags("amendment.tags", decision.tags, state.config.amend_tags)
    if isinstance(decision, Discards):
        hand = state.hands[seat]
        need = len(hand) - state.config.hand_limit
        if len(decision.cards) != need or len(set(decision.cards)) != need:
            raise RuleError("discard.cards", f"discard exactly {need} different cards")
        if not set(decision.cards) <= set(hand):
            raise RuleError("discard.cards", "you can only discard cards from your hand")
    if isinstance(decision, AmendmentVote | YesNo):
        return


def check_tags(field: str, tags: tuple[str, ...], count: int) -> None:
    """Exactly `count` different tags from the vocabulary."""
    if len(tags) != count or len(set(tags)) != count:
        raise RuleError(field, f"name exactly {count} different tags")
    for tag in tags:
        if tag not in TAGS:
            raise RuleError(field, f"{tag!r} is not a tag; tags are {', '.join(TAGS)}")


def check_bill(state: GameState, draft: BillDraft) -> None:
    """Two tags (or none, to decline) and a rider naming a bill on the books [7.3]."""
    if not draft.tags:
        if draft.rider != NO_CARD:
            raise RuleError("bill.rider", "a declined bill carries no rider")
        return
    check_tags("bill.tags", draft.tags, BILL_TAGS)
    if draft.rider != NO_CARD and draft.rider not in {bill.number for bill in state.bills}:
        raise RuleError("bill.rider", f"bill {draft.rider} is not on the books")


def check_declarations(state: GameState, seat: int, decision: Declarations) -> None:
    """Races up this year, one candidate per race, cards from hand or a re-run [4.3-4.5]."""
    gmap = game_map()
    cards = build_cards(state.key)
    up = race_positions(state.year)
    hand = set(state.hands[seat])
    used: set[int] = set()
    races: set[str] = set()
    for entry in decision.entries:
        where = f"declare.{entry.race}"
        if entry.player != seat:
            raise RuleError(where, "you can only declare your own candidates")
        if entry.race not in gmap.seat_by_id or gmap.seat_by_id[entry.race] not in up:
            raise RuleError(where, "that race does not come up this year")
        if entry.race in races:
            raise RuleError(where, "at most one candidate per player per race")
        races.add(entry.race)
        info = gmap.seat(entry.race)
        holding = state.seats[info.index]
        rerun = holding.holder == seat and holding.card == entry.card != NO_CARD
        if rerun:
            if entry.district_card != holding.district_card:
                raise RuleError(where, "a re-run keeps its seat's district card, no more, no less")
            continue
        if entry.card not in hand or entry.card in used or not cards[entry.card].is_candidate:
            raise RuleError(where, f"card {entry.card} is not a candidate card in your hand")
        used.add(entry.card)
        if entry.district_card == NO_CARD:
            continue
        district = entry.district_card
        if district not in hand or district in used or cards[district].is_candidate:
            raise RuleError(where, f"card {district} is not a district card in your hand")
        used.add(district)
        card = cards[district]
        fits = info.office in (OFFICE_SENATE, OFFICE_GOVERNOR) or (
            info.office is OFFICE_HOUSE and info.district == card.district
        )
        if card.state != info.state or not fits:
            raise RuleError(where, f"district card {district} does not belong to this race")
