"""The player interface and the game loop that asks players and advances the engine.

A player is anything with a `name` and a `decide(state, seat)` method: a bot, a terminal human
or (later) a web client. The loop is the only place where decisions enter the game.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Protocol

from fairfight.ballot.elections import Event
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.state import Decision, GameState, Phase
from fairfight.ballot.tables import BallotConfig

__all__ = [
    "EventSink",
    "Player",
    "key_commitment",
    "play_game",
    "play_on",
]


class Player(Protocol):
    """Whoever sits at a seat: answers the engine's requests with legal decisions."""

    @property
    def name(self) -> str:
        """A short label for records and standings (`pollster`, `machine`, `human`)."""
        ...

    def decide(self, state: GameState, seat: int) -> Decision:
        """The decision of `seat` for the current phase of `state`."""
        ...


EventSink = Callable[[Event], None]


def key_commitment(key: str) -> str:
    """SHA-256 of the key's ASCII text: what `printf %s KEY | sha256sum` prints [13]."""
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def play_game(
    config: BallotConfig,
    key: str,
    players: Sequence[Player],
    on_event: EventSink | None = None,
    max_years: int | None = None,
) -> tuple[GameState, list[Event]]:
    """Play a game (or its first `max_years` years); every event is returned in order."""
    state, events = new_game(config, key, len(players))
    if on_event is not None:
        for event in events:
            on_event(event)
    stop = config.start_year + max_years if max_years is not None else None
    state, more = play_on(state, players, on_event, stop)
    return state, events + more


def play_on(
    state: GameState,
    players: Sequence[Player],
    on_event: EventSink | None = None,
    stop_year: int | None = None,
) -> tuple[GameState, list[Event]]:
    """Ask the players and advance from `state` until the game ends (or `stop_year` starts);
    the events from there on, in order."""
    events: list[Event] = []
    while state.phase is not Phase.OVER and (stop_year is None or state.year < stop_year):
        answers = {seat: players[seat].decide(state, seat) for seat in requested_seats(state)}
        state, more = advance(state, answers)
        if on_event is not None:
            for event in more:
                on_event(event)
        events.extend(more)
    return state, events
