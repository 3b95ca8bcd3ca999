"""The 194-card deck: candidate and district cards, their tags, and positional shuffles [1.7, 13].

Card faces are drawn from the game key once (year 0), so every implementation that follows
the addresses of the spec's section 13 prints the same deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fairfight.ballot.geo import game_map
from fairfight.ballot.tables import (
    CANDIDATE_CARDS,
    CARD_STRENGTH,
    DISTRICT_CARD_TAGS,
    TAGS,
    Party,
    card_modifier,
    card_party,
)
from fairfight.core.draws import Addresses, below

__all__ = [
    "Card",
    "SETUP_YEAR",
    "build_cards",
    "shuffle",
]


SETUP_YEAR = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A candidate card (party, modifier, tags) or a district card (state, district, tags)."""

    id: int
    tags: frozenset[str]
    party: Party | None = None
    modifier: int = 0
    state: int = -1
    district: int = 0

    @property
    def printed(self) -> Party:
        """The party printed on a candidate card."""
        if self.party is None:
            raise ValueError(f"card {self.id} is a district card")
        return self.party

    @property
    def is_candidate(self) -> bool:
        """True for ids 0-143."""
        return self.party is not None

    def label(self) -> str:
        """A short human label: `#12 D m1 [black, union]` or `#150 CA-7 district [...]`."""
        tags = ", ".join(tag for tag in TAGS if tag in self.tags)
        if self.party is not None:
            return f"#{self.id} {self.party.value} m{self.modifier} [{tags}]"
        code = game_map().states[self.state].code
        return f"#{self.id} {code}-{self.district} district [{tags}]"


def _candidate_tags(setup: Addresses, card_id: int, modifier: int) -> frozenset[str]:
    """Draw 3 - m tags without replacement from the vocabulary in rules order [13]."""
    remaining = list(TAGS)
    chosen: list[str] = []
    for j in range(CARD_STRENGTH - modifier):
        index = below(len(remaining), setup.hash64("tag", card_id, j))
        chosen.append(remaining.pop(index))
    return frozenset(chosen)


@lru_cache(maxsize=256)
def build_cards(key: str) -> tuple[Card, ...]:
    """All 194 cards for a game key: 144 candidates, then one district card per state.

    Kept for the last 256 keys: every rule reads the deck, but a long batch of games must not
    keep every deck it has played."""
    setup = Addresses(key, SETUP_YEAR)
    cards: list[Card] = []
    for card_id in range(CANDIDATE_CARDS):
        modifier = card_modifier(card_id)
        tags = _candidate_tags(setup, card_id, modifier)
        cards.append(Card(card_id, tags, card_party(card_id), modifier))
    for state in game_map().states:
        district = 1 + below(state.house, setup.hash64("district", state.code))
        others = [tag for tag in TAGS if tag not in state.tags]
        second = others[below(len(others), setup.hash64("dtag", state.code))]
        tags = frozenset((state.tags[0], second))
        assert len(tags) == DISTRICT_CARD_TAGS
        cards.append(Card(len(cards), tags, None, 0, state.index, district))
    return tuple(cards)


def shuffle(key: str, year: int, shuffle_number: int, cards: list[int]) -> list[int]:
    """Fisher-Yates by positional draws: for i = len-1 down to 1 swap i and below(i+1, x) [13]."""
    result = list(cards)
    draws = Addresses(key, year, "shuffle", shuffle_number)
    for i in range(len(result) - 1, 0, -1):
        j = below(i + 1, draws.hash64(i))
        result[i], result[j] = result[j], result[i]
    return result
