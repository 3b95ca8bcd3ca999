"""A Pollster chosen to write the bill with no tag to its name declines it, and a declined
bill names no rider [7.3, 11 Pollster, Author].

The Pollster writes the pair that includes one of its tags (its seated cards', else its hand
candidates') with the most board yes votes, and a rider on the leader's newest bill. With no tag
there is no such pair: it declines, and a declined bill with a rider is refused. Game key 1137
with seats machine,pollster,machine,pollster,machine in `points` reached that spot (the wide
seating scan found it) and stopped at the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fairfight.ballot import botkit as kit
from fairfight.ballot.bots import make_bots
from fairfight.ballot.players import Player, play_game
from fairfight.ballot.state import NO_CARD, BillDraft, Decision, GameState, Phase
from fairfight.ballot.tables import named_config

SEATS = ("machine", "pollster", "machine", "pollster", "machine")


@dataclass
class DeclinedBillWatch:
    """Passes every question to a bot and keeps each bill it declined, with the bill the
    leader had on the books then (a rider it could have named), or NO_CARD."""

    inner: Player
    declined: list[tuple[BillDraft, int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def decide(self, state: GameState, seat: int) -> Decision:
        decision = self.inner.decide(state, seat)
        if isinstance(decision, BillDraft) and not decision.tags:
            leader = kit.current_leader(state)
            could = kit.newest_bill_of(state, leader) if leader != seat else NO_CARD
            self.declined.append((decision, could))
        return decision


def test_game_1137_plays_to_its_end_and_its_declined_bills_name_no_rider() -> None:
    watched = [DeclinedBillWatch(bot) for bot in make_bots(SEATS)]
    state, _ = play_game(named_config("as-written-plus", "points"), "1137", watched)
    assert state.phase is Phase.OVER
    declined = [item for watch in watched if watch.name == "pollster"
                for item in watch.declined]
    assert any(could != NO_CARD for _, could in declined), (
        "the game no longer reaches a Pollster declining while the leader has a bill")
    assert all(draft.rider == NO_CARD for draft, _ in declined)
