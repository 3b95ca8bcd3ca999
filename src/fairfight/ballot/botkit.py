"""Pieces both bots share: hand lookups, the current leader, projected bill holders, discards."""

from __future__ import annotations

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import Card, build_cards
from fairfight.ballot.geo import game_map
from fairfight.ballot.scoring import leader, scores
from fairfight.ballot.state import NO_CARD, Bill, Declaration, Discards, GameState
from fairfight.ballot.tables import BOARD, Office

__all__ = [
    "CARD_COST",
    "OFFICE_VALUE",
    "candidates_in_hand",
    "current_leader",
    "discard_down",
    "hand_cards",
    "keep_value",
    "lead_margin",
    "newest_bill_of",
    "projected_holder",
    "rerun",
    "seated_tags",
    "seats_held",
    "up_this_year",
]


OFFICE_VALUE: dict[Office, int] = {
    Office.PRESIDENT: 6,
    Office.SENATE: 4,
    Office.GOVERNOR: 3,
    Office.HOUSE: 2,
}
"""The Pollster's value of each office, in points [11]."""
CARD_COST = 1
"""A card in hand scores 1, so spending one costs a point [4.2]."""


def hand_cards(state: GameState, seat: int) -> list[Card]:
    """The cards in a player's hand, by id."""
    cards = build_cards(state.key)
    return [cards[card_id] for card_id in state.hands[seat]]


def candidates_in_hand(state: GameState, seat: int) -> list[Card]:
    """Candidate cards in hand, by id."""
    return [card for card in hand_cards(state, seat) if card.is_candidate]


def seated_tags(state: GameState, seat: int) -> set[str]:
    """Tags of the player's seated candidate cards; hand candidates when nothing is seated."""
    tags = set(_board_tags(state).get(seat, ()))
    if not tags:
        for card in candidates_in_hand(state, seat):
            tags |= card.tags
    return tags


def _board_tags(state: GameState) -> dict[int, frozenset[str]]:
    """Each player's seated card tags on this board (the last board is remembered)."""
    last = _LAST_TAGS[0]
    if last is not None and last[0] is state.seats and last[1] == state.key:
        return last[2]
    cards = build_cards(state.key)
    found: dict[int, set[str]] = {}
    for holding in state.seats:
        if holding.holder != BOARD and holding.card != NO_CARD:
            found.setdefault(holding.holder, set()).update(cards[holding.card].tags)
    tags = {player: frozenset(held) for player, held in found.items()}
    _LAST_TAGS[0] = (state.seats, state.key, tags)
    return tags


_LAST_TAGS: list[tuple[object, str, dict[int, frozenset[str]]] | None] = [None]


class _LastAnswer:
    """Remembers the last answer for one state object: every bot asked in the same step sees
    the very same state, so the leader and a bill's projected holder are computed once."""

    __slots__ = ("answers", "state")

    def __init__(self) -> None:
        self.state: object = None
        self.answers: dict[object, int] = {}

    def get(self, state: GameState, question: object) -> int | None:
        if self.state is not state:
            self.state, self.answers = state, {}
        return self.answers.get(question)


_LAST = _LastAnswer()


def current_leader(state: GameState) -> int:
    """The unique top current score, or BOARD."""
    known = _LAST.get(state, "leader")
    if known is None:
        known = _LAST.answers["leader"] = leader(state, scores(state))
    return known


def projected_holder(state: GameState, bill: Bill, votes: tuple[bool, ...] | None = None) -> int:
    """Who would hold the bill if it passed with these votes (default: every player yes)."""
    chosen = votes if votes is not None else (True,) * state.players
    known = _LAST.get(state, (bill, chosen))
    if known is None:
        result = leg.tally(state, bill.party, bill.tags, chosen).holder(bill.author)
        known = _LAST.answers[(bill, chosen)] = result
    return known


def seats_held(state: GameState, seat: int) -> int:
    """All seats a player holds."""
    return leg.seating(state).seats_held.get(seat, 0)


def rerun(state: GameState, seat: int, seat_index: int, party: str | None = None) -> Declaration:
    """A re-run of the player's seated card (with its district card) [4.4]."""
    holding = state.seats[seat_index]
    race = game_map().seats[seat_index].race_id
    chosen = holding.party if party is None else type(holding.party)(party)
    return Declaration(seat, race, holding.card, chosen, holding.district_card)


def keep_value(card: Card, home_states: frozenset[int] = frozenset()) -> float:
    """How much a bot wants to keep a card at the hand limit: m, district cards 1.5 (home 4)."""
    if card.is_candidate:
        return float(card.modifier)
    return 4.0 if card.state in home_states else 1.5


def discard_down(
    state: GameState, seat: int, home_states: frozenset[int] = frozenset()
) -> Discards:
    """Discard the least valuable cards (ties: higher id first) down to the hand limit."""
    hand = hand_cards(state, seat)
    need = len(hand) - state.config.hand_limit
    ranked = sorted(hand, key=lambda card: (keep_value(card, home_states), -card.id))
    return Discards(tuple(sorted(card.id for card in ranked[:need])))


def up_this_year(state: GameState) -> tuple[int, ...]:
    """Seat indexes whose races come up this year."""
    return game_map().races_in(state.year)


def newest_bill_of(state: GameState, player: int) -> int:
    """The number of the newest bill on the books held by `player`, or NO_CARD."""
    held = [bill.number for bill in state.bills if bill.holder == player]
    return max(held) if held else NO_CARD


def lead_margin(state: GameState, seat: int) -> int:
    """My score minus the best rival's score (negative when trailing)."""
    totals = scores(state)
    rivals = [totals[p] for p in range(state.players) if p != seat]
    return totals[seat] - max(rivals) if rivals else 0
