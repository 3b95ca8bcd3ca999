"""A game with one person at the table, driven step by step (the web's game, for instance).

A session is (config, key, seat names, the person's seat) plus every step's answers in order.
It is rebuilt by replaying those answers from the start, asking the bots again as it goes, so a
bot holds exactly the memory it would have had in one continuous game, and a record of the
session replays like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import Event
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.players import Player, key_commitment
from fairfight.ballot.record import HUMAN_NAME, RecordHeader, RecordReveal
from fairfight.ballot.rules import BallotConfig
from fairfight.ballot.state import Decision, GameState, Phase, decision_from_data, to_data
from fairfight.ballot.validation import check_decision

__all__ = [
    "Answers",
    "Session",
    "restore_session",
    "start_session",
]


Answers = dict[int, Decision]


@dataclass
class Session:
    """A running game: its state, every event so far and the bots' memories."""

    config: BallotConfig
    key: str
    names: tuple[str, ...]
    human: int
    state: GameState
    events: list[Event]
    bots: dict[int, Player]
    steps: list[dict[str, Any]] = field(default_factory=list)
    """Every step's answers as stored: {"seat": decision data}."""

    def waiting_for_human(self) -> bool:
        """True when the person must answer before the game can go on."""
        return self.state.phase is not Phase.OVER and self.human in requested_seats(self.state)

    def run_bots(self) -> None:
        """Let the bots play until the person is asked or the game is over."""
        while self.state.phase is not Phase.OVER and not self.waiting_for_human():
            self._step({})

    def answer(self, decision: Decision) -> None:
        """The person's answer (checked by the rules first), then the bots play on."""
        if not self.waiting_for_human():
            raise ValueError("nothing is asked of you now")
        check_decision(self.state, self.human, decision)
        self._step({self.human: decision})
        self.run_bots()

    def _step(self, given: Answers) -> None:
        answers: Answers = {}
        for seat in requested_seats(self.state):
            answers[seat] = (
                given[seat] if seat in given else self.bots[seat].decide(self.state, seat)
            )
        self.steps.append({str(seat): to_data(choice) for seat, choice in answers.items()})
        self.state, more = advance(self.state, answers)
        self.events.extend(more)

    def record(self) -> list[Event]:
        """The game's record (header, events, reveal); only for a finished game, since the
        record reveals the key."""
        if self.state.phase is not Phase.OVER:
            raise ValueError("the record is available once the game is over")
        header = RecordHeader(
            format="fairfight-ballot-record",
            version=1,
            config=self.config,
            players=list(self.names),
            commitment=key_commitment(self.key),
        )
        reveal = RecordReveal(
            event="reveal",
            key=self.key,
            scores=list(self.state.last_scores),
            winners=list(self.state.winners),
            reason=self.state.end_reason,
        )
        return [header.model_dump(mode="json"), *self.events, reveal.model_dump(mode="json")]


def start_session(config: BallotConfig, key: str, names: Sequence[str], human: int) -> Session:
    """A new game: the bots play until the person is first asked."""
    session = _fresh(config, key, names, human)
    session.run_bots()
    return session


def restore_session(
    config: BallotConfig, key: str, names: Sequence[str], human: int, steps: list[dict[str, Any]]
) -> Session:
    """Rebuild a stored game by replaying its steps (the bots are asked again as they go)."""
    session = _fresh(config, key, names, human)
    for stored in steps:
        person = stored.get(str(human))
        given = {human: decision_from_data(person)} if person is not None else {}
        session._step(given)
    return session


def _fresh(config: BallotConfig, key: str, names: Sequence[str], human: int) -> Session:
    seated = make_bots([name if seat != human else "pollster" for seat, name in enumerate(names)])
    bots = {seat: bot for seat, bot in enumerate(seated) if seat != human}
    state, events = new_game(config, key, len(names))
    labels = tuple(HUMAN_NAME if seat == human else name for seat, name in enumerate(names))
    return Session(config, key, labels, human, state, events, bots)
