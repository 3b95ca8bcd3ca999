"""A Pollster whose hand and pack hold only district cards still drafts [11 Pollster, Draft].

A district card is worth 2 + its best EV gain over the hand's candidates; with no candidate
in hand or pack there is no gain, so every district card is worth 2 and the tie goes to the
lower card id. Game key 1196 with seats pollster,pollster,machine,machine reached that spot in
its first draft and stopped the simulate command ("'float' object is not iterable").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest

from fairfight.ballot.bots import make_bots
from fairfight.ballot.deck import build_cards
from fairfight.ballot.players import Player, play_game
from fairfight.ballot.simulate import summarise
from fairfight.ballot.state import Decision, DraftPick, GameState, Phase
from fairfight.ballot.tables import VictoryMode, named_config

MODES = (VictoryMode.POINTS, VictoryMode.AMENDMENT)


@dataclass
class DistrictOnlyWatch:
    """Passes every question to a bot and notes the drafts made with no candidate in sight."""

    inner: Player
    seen: list[tuple[tuple[int, ...], int]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.inner.name

    def decide(self, state: GameState, seat: int) -> Decision:
        decision = self.inner.decide(state, seat)
        if state.phase is Phase.DRAFT:
            cards = build_cards(state.key)
            in_sight = state.hands[seat] + state.packs[seat]
            if not any(cards[c].is_candidate for c in in_sight):
                assert isinstance(decision, DraftPick)
                self.seen.append((state.packs[seat], decision.card))
        return decision


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_game_1196_plays_to_its_end_and_drafts_the_lowest_district_card(
    mode: VictoryMode,
) -> None:
    seats = ("pollster", "pollster", "machine", "machine")
    watched = [DistrictOnlyWatch(bot) for bot in make_bots(seats)]
    state, _ = play_game(named_config("as-written-plus", mode.value), "1196", watched)
    assert state.phase is Phase.OVER
    drafts = [draft for watch in watched for draft in watch.seen]
    assert drafts, "the game no longer reaches a draft with only district cards in sight"
    for pack, pick in drafts:
        assert pick == min(pack)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
def test_every_seating_of_the_two_bots_plays_out(mode: VictoryMode) -> None:
    """All 16 seatings of Pollster and Machine at 4 seats, over keys that hold the crash."""
    config = named_config("as-written-plus", mode.value)
    for seats in itertools.product(("pollster", "machine"), repeat=4):
        for key in ("1195", "1196", "1197"):
            state, events = play_game(config, key, make_bots(seats))
            assert state.phase is Phase.OVER, (seats, key)
            assert summarise(events, seats)["largest_hand"] <= config.hand_limit, (seats, key)
