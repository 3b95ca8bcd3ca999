"""The advice for a seat: the choice the Pollster would make in that seat, with its reason.

One home for every decision a seat faces (the draft, declarations, withdrawals, bill drafts,
votes, vetoes, impeachment, amendments, discards): `advise(state, seat)` plays the seat as the
strongest bot of the design does, so a player who follows it plays the whole year as the bot
plays it rather than pricing races one by one. The bot is asked about `visible_state`, the game
as that seat knows it, so the advice can never depend on another seat's cards or the deck.
The terminal and the web page show `Advice.reason` as it is, and `ADVICE_OPTIMISES` once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from fairfight.ballot.advice_reasons import reason_for
from fairfight.ballot.advice_words import ADVICE_OPTIMISES
from fairfight.ballot.geo import game_map
from fairfight.ballot.hidden import visible_state
from fairfight.ballot.pollster import Pollster
from fairfight.ballot.state import NO_CARD, Decision, GameState, Phase
from fairfight.ballot.tables import BOARD

__all__ = [
    "ADVICE_OPTIMISES",
    "BIDS_KEPT",
    "Advice",
    "AdviceSeat",
    "advise",
    "before_declaring",
]

BIDS_KEPT = 256
"""Declare steps whose advised House bids a process keeps for the withdraw step's advice (a
seat's page at each step: a few hundred tables at once)."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The advised decision for one seat now, and why, in one sentence of the bot's numbers."""

    choice: Decision
    reason: str


def advise(state: GameState, seat: int, bids: Mapping[str, float] | None = None) -> Advice:
    """The Pollster's answer for `seat` in the current phase, from what that seat may see.

    At the withdraw step the Pollster remembers what it bid for House seats when it declared
    (a Speaker bid raises their worth); `bids` passes that memory when the caller kept it, and
    otherwise it is found again by declaring afresh on the board as it stood before the reveal.
    """
    view = visible_state(state, seat)
    choice, bot = _ask_bot(view, seat, bids)
    if view.phase is Phase.DECLARE:
        _KEPT_BIDS.keep(view, seat, bot.bids)
    return Advice(choice, reason_for(view, seat, choice, bot))


def _ask_bot(
    view: GameState, seat: int, bids: Mapping[str, float] | None
) -> tuple[Decision, Pollster]:
    """A fresh Pollster's answer for `seat` on `view`, and the bot (its bids after declaring)."""
    bot = Pollster()
    if view.phase is Phase.WITHDRAW:
        bot.bids = dict(bids) if bids is not None else _declare_bids(view, seat)
    return bot.decide(view, seat), bot


def _declare_bids(view: GameState, seat: int) -> dict[str, float]:
    """The House bids the Pollster would have made when declaring on this board: the ones the
    declare step's advice made, when this process gave it on that very view."""
    before = before_declaring(view)
    kept = _KEPT_BIDS.find(before, seat)
    if kept is not None:
        return kept
    bot = Pollster()
    bot.declare(before, seat)
    return dict(bot.bids)


class _DeclaredBids:
    """The House bids of the declare step's advice, found again by the view it was given.

    The withdraw step's advice needs the bids the Pollster made when it declared; it rebuilds
    the declare step's view (`before_declaring`) and declares on it afresh. That view is the
    one the declare step's advice was given except for the other seats' hidden hands, which
    now hold the cards their declarations revealed; the Pollster reads another seat's hand
    only by its size (the score counts the cards in hand), so the key keeps just the sizes,
    and the bids found under it are the ones declaring afresh would make."""

    def __init__(self, limit: int = BIDS_KEPT) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[int, GameState], dict[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _key(view: GameState, seat: int) -> tuple[int, GameState]:
        sizes = tuple(hand if n == seat else (NO_CARD,) * len(hand)
                      for n, hand in enumerate(view.hands))
        return seat, view.with_changes(hands=sizes)

    def keep(self, view: GameState, seat: int, bids: Mapping[str, float]) -> None:
        """Keep the bids declaring on `view` made (the least recently found dropped first)."""
        key = self._key(view, seat)
        with self._lock:
            self._kept[key] = dict(bids)
            self._kept.move_to_end(key)
            while len(self._kept) > self.limit:
                self._kept.popitem(last=False)

    def find(self, view: GameState, seat: int) -> dict[str, float] | None:
        """A copy of the bids kept for declaring on `view` in `seat`, or None."""
        key = self._key(view, seat)
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
        return None if found is None else dict(found)


_KEPT_BIDS = _DeclaredBids()


def before_declaring(state: GameState) -> GameState:
    """The withdraw step's state as it stood at the declare step: each hand takes back the
    cards its declarations spent and gives back the cards of its retired seats [4.5]."""
    gmap = game_map()
    hands = [list(hand) for hand in state.hands]
    reruns = {(d.player, d.race): d.card for d in state.declarations}
    for decl in state.declarations:
        holding = state.seats[gmap.seat_by_id[decl.race]]
        if not (holding.holder == decl.player and holding.card == decl.card):
            spent = (decl.card, decl.district_card)
            hands[decl.player].extend(card for card in spent if card != NO_CARD)
    for index in gmap.races_in(state.year):
        holding = state.seats[index]
        if holding.holder == BOARD or holding.card == NO_CARD:
            continue
        if reruns.get((holding.holder, gmap.seats[index].race_id)) == holding.card:
            continue
        for card in (holding.card, holding.district_card):
            if card == NO_CARD:
                continue
            hand = hands[holding.holder]
            hand.remove(card if card in hand else NO_CARD)
    return state.with_changes(
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        declarations=(),
        phase=Phase.DECLARE,
    )


class AdviceSeat:
    """A player that always takes the advice, keeping only the bids its own advice made."""

    name = "advice"

    def __init__(self) -> None:
        self.bids: dict[str, float] = {}

    def decide(self, state: GameState, seat: int) -> Decision:
        """The advised choice (as `advise` finds it, without the sentence), asked with the
        seat's view only; the bids of its declarations are kept for the withdraw step."""
        choice, bot = _ask_bot(visible_state(state, seat), seat, self.bids)
        if state.phase is Phase.DECLARE:
            self.bids = dict(bot.bids)
        return choice
