"""What a seat's page shows beside a question, computed here so the page only formats it: the
card label glossary, a tag pair's projected yes votes, and whether ratifying an amendment would
end the game while the seat trails [1.7, 5.3, 7.1, 8.6, 10.3].
"""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.ballot import legislature as leg
from fairfight.ballot.deck import Card
from fairfight.ballot.geo import game_map
from fairfight.ballot.scoring import scores, winners_on_score
from fairfight.ballot.state import Amendment, GameState
from fairfight.ballot.tables import (
    BOARD,
    CANDIDATE_CARDS,
    CANDIDATES_PER_PARTY,
    CARD_STRENGTH,
    GROUND_GAME_BONUS,
    MODIFIER_COUNTS,
    SWITCH_PENALTY,
    TAGS,
    Office,
    Party,
    VictoryMode,
)

__all__ = [
    "GlossaryEntry",
    "ProjectedVotes",
    "card_glossary",
    "card_meaning",
    "projected_votes",
    "ratification_ends_game",
    "ratifying_ends_game_while_trailing",
    "scores_if_ratified",
]


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One part of a card label, e.g. `m3`, and what it means under the rules."""

    term: str
    meaning: str


def card_glossary() -> tuple[GlossaryEntry, ...]:
    """How to read a card label such as `#65 D m3 []` or `#150 CA-7 district [hispanic,
    urban]`, every number from the rules' constants [1.7, 4.3, 5.3]."""
    last_d = CANDIDATES_PER_PARTY - 1
    last_card = CANDIDATE_CARDS + len(game_map().states) - 1
    modifiers = ", ".join(f"{count} with m{m}" for m, count in enumerate(MODIFIER_COUNTS))
    return (
        GlossaryEntry(
            "#65",
            f"the card's id: 0-{last_d} are candidates printed D, {last_d + 1}-"
            f"{CANDIDATE_CARDS - 1} candidates printed R, {CANDIDATE_CARDS}-{last_card} "
            "district cards (one per state)",
        ),
        GlossaryEntry(
            "D / R",
            "the party printed on a candidate; it may run under the other party for "
            f"-{SWITCH_PENALTY} (switch)",
        ),
        GlossaryEntry(
            "m3",
            f"the modifier m, added to the candidate's total; m plus its tags is always "
            f"{CARD_STRENGTH}, so a card with more tags has a lower m (per party: {modifiers})",
        ),
        GlossaryEntry(
            "[black, union]",
            "the card's tags: each one among the race's tags (the state's two, plus an "
            "attached district card's) adds +1 (fit); `[]` is a card with no tags",
        ),
        GlossaryEntry(
            "CA-7 district",
            "a district card: attach it to a declaration in its state (House district 7, the "
            f"Senate or governor race, never the presidency) for +{GROUND_GAME_BONUS} (ground "
            "game); its tags join the race's tags",
        ),
    )


def card_meaning(card: Card) -> str:
    """One card's label in words, e.g. `#65: a candidate printed D, modifier 3, no tags`."""
    tags = ", ".join(tag for tag in TAGS if tag in card.tags)
    if card.party is not None:
        kind = f"a candidate printed {card.party.value}, modifier {card.modifier}"
        return f"#{card.id}: {kind}, " + (f"tags {tags}" if tags else "no tags")
    home = game_map().states[card.state]
    return f"#{card.id}: the district card of {home.code}-{card.district}, tags {tags}"


@dataclass(frozen=True, slots=True)
class ProjectedVotes:
    """The yes votes a bill with a given tag pair can count on, chamber by chamber [7.1, 7.4].

    Board seats vote by rule 7.1, so their votes are known; each player's seats vote as that
    player chooses, so they are given apart: the author's own and the other players'.
    """

    party: Party
    """The bill party: the House majority party [7.3]."""
    board_house: int
    board_senate: int
    own_house: int
    own_senate: int
    rivals_house: int
    rivals_senate: int
    needed_house: int
    needed_senate: int

    def with_own(self) -> tuple[int, int]:
        """House and Senate yes from the board and the author's own seats."""
        return self.board_house + self.own_house, self.board_senate + self.own_senate

    def with_everyone(self) -> tuple[int, int]:
        """House and Senate yes if every player also votes yes."""
        house, senate = self.with_own()
        return house + self.rivals_house, senate + self.rivals_senate

    def passes_with_own(self) -> bool:
        """True when the board and the author's seats alone pass it."""
        house, senate = self.with_own()
        return house >= self.needed_house and senate >= self.needed_senate


def projected_votes(state: GameState, seat: int, tags: tuple[str, ...]) -> ProjectedVotes:
    """The projected yes votes of a bill on `tags` written by `seat` this year [7.1-7.4]."""
    party = leg.majority_party(state, Office.HOUSE)
    board_house, board_senate = leg.board_yes(state, party, tuple(tags))
    own = [0, 0]
    rivals = [0, 0]
    for player, _, house, senate in leg.seating(state).players:
        counted = own if player == seat else rivals
        counted[0] += house
        counted[1] += senate
    limits = leg.thresholds()
    return ProjectedVotes(
        party,
        board_house,
        board_senate,
        own[0],
        own[1],
        rivals[0],
        rivals[1],
        limits.house_pass,
        limits.senate_pass,
    )


def ratification_ends_game(state: GameState) -> bool:
    """True when a ratification ends the game at the end of its year (`amendment` mode)."""
    return state.config.victory is VictoryMode.AMENDMENT


def scores_if_ratified(state: GameState, tags: tuple[str, ...]) -> tuple[int, ...]:
    """Every player's score on today's board with an amendment on `tags` ratified [8.6, 9]."""
    return scores(_with_ratified(state, tags))


def _with_ratified(state: GameState, tags: tuple[str, ...]) -> GameState:
    """Today's board with one more ratified amendment (its proposer does not score) [8.6]."""
    ratified = Amendment(state.amendments_created, state.year, tuple(tags), BOARD)
    return state.with_changes(amendments=(*state.amendments, ratified))


def ratifying_ends_game_while_trailing(
    state: GameState, seat: int, tags: tuple[str, ...] | None = None
) -> bool:
    """True when ratifying the amendment (by default the pending one) would end the game and
    `seat` would not be among the winners on score, read on today's board with the amendment
    counted [8.6, 10.2, 10.3]."""
    if not ratification_ends_game(state):
        return False
    if tags is None:
        subject = state.pending_amendment or state.amendment_proposal
        if subject is None:
            return False
        tags = subject.tags
    return seat not in winners_on_score(_with_ratified(state, tags))
