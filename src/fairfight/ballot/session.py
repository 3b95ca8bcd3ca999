"""Games driven step by step: `Session` seats one person against bots, `TableGame` seats any
number of people (the web's tables).

A game is (config, key, seats) plus every step's answers in order. It is rebuilt by replaying
those answers from the start, asking the bots again as it goes, so a bot holds exactly the
memory it would have had in one continuous game, and a record of the game replays like any
other.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fairfight.ballot.bots import make_bots
from fairfight.ballot.elections import Event
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.players import Player
from fairfight.ballot.record import HUMAN_NAME, record_lines
from fairfight.ballot.state import Decision, GameState, Phase, decision_from_data, to_data
from fairfight.ballot.tables import BallotConfig
from fairfight.ballot.validation import check_decision
from fairfight.core.records import canonical_json

__all__ = [
    "Answers",
    "RulesChanged",
    "STAND_IN",
    "Session",
    "TableGame",
    "events_digest",
    "new_table_game",
    "replay_table_steps",
    "restore_session",
    "restore_table_game",
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
        return _record_lines(self.config, self.key, self.names, self.state, self.events)


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


STAND_IN = "pollster"
"""The bot that plays a seat whose person left, or a phase whose turn clock ran out."""


class RulesChanged(ValueError):
    """A stored game that this engine would play differently from how it was played."""

    def __init__(self, step: int) -> None:
        self.step = step
        super().__init__(
            f"this game was played under other rules: this engine plays step {step} "
            "differently, so it cannot go on here; it goes on under the version that started it"
        )


@dataclass
class TableGame:
    """A game with any number of people at the table, driven step by step.

    `kinds` names each seat's player as the table was set (`human` or a bot name);
    `stand_ins` maps a seat whose person left to the step from which the stand-in plays it.
    A stored step holds every seat's answer, so a person's answer (or one the turn clock gave
    to the stand-in) is taken as recorded, while bots are asked again and must agree.
    """

    config: BallotConfig
    key: str
    kinds: tuple[str, ...]
    stand_ins: dict[int, int]
    state: GameState
    events: list[Event]
    bots: dict[int, Player]
    steps: list[dict[str, Any]] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    """SHA-256 of the events so far, after each step: what a restore must reproduce."""
    phases: list[Phase] = field(default_factory=list)
    """The phase each step answered (a yes or a no means something else in each)."""
    marks: list[int] = field(default_factory=list)
    """How many events there were before each step (a step's own events follow that mark)."""
    hasher: Any = None
    """SHA-256 of the events so far, kept running so a step hashes only its own events."""

    def __post_init__(self) -> None:
        if self.hasher is None:
            self.hasher = _events_hasher(self.events)

    def private_copy(self) -> TableGame:
        """A copy that plays on without touching this game: its own lists, stand-ins and bots
        (with their memories), sharing only what never changes (the config, the frozen state,
        the events and stored answers already made, the bots' memos of a board's values)."""
        return TableGame(
            self.config, self.key, self.kinds, dict(self.stand_ins), self.state,
            list(self.events), copy.deepcopy(self.bots), list(self.steps), list(self.digests),
            list(self.phases), list(self.marks), self.hasher.copy(),
        )

    def played_by_person(self, seat: int) -> bool:
        """True when a person (not a bot nor a stand-in) answers for `seat` now."""
        return self.kinds[seat] == HUMAN_NAME and seat not in self.stand_ins

    def people_asked(self) -> tuple[int, ...]:
        """The seats whose people must answer before the game can go on."""
        if self.state.phase is Phase.OVER:
            return ()
        return tuple(s for s in requested_seats(self.state) if self.played_by_person(s))

    def version(self) -> int:
        """The state version: how many steps have been played."""
        return len(self.steps)

    def hand_to_stand_in(self, seat: int) -> None:
        """The person at `seat` leaves: the stand-in plays it from the next step on."""
        self.stand_ins[seat] = self.version()
        self.bots[seat] = make_bots([STAND_IN])[0]

    def play(self, given: Answers) -> None:
        """One step with the people's answers (every person asked must be in `given`),
        then the bots and stand-ins play until a person is asked or the game is over."""
        missing = [seat for seat in self.people_asked() if seat not in given]
        if missing:
            raise ValueError(f"seats {missing} have not answered")
        self._step(given)
        self.run_bots()

    def run_bots(self) -> None:
        """Let the bots play until a person is asked or the game is over."""
        while self.state.phase is not Phase.OVER and not self.people_asked():
            self._step({})

    def _step(self, given: Answers, stored: dict[str, Any] | None = None) -> None:
        answers: Answers = {}
        for seat in requested_seats(self.state):
            if seat in given:
                answers[seat] = given[seat]
                continue
            answers[seat] = self.bots[seat].decide(self.state, seat)
            if stored is not None and to_data(answers[seat]) != stored.get(str(seat)):
                raise RulesChanged(len(self.steps) + 1)
        self.steps.append({str(seat): to_data(choice) for seat, choice in answers.items()})
        self.phases.append(self.state.phase)
        self.state, more = advance(self.state, answers)
        self.marks.append(len(self.events))
        self.events.extend(more)
        for event in more:
            self.hasher.update(canonical_json(event))
        self.digests.append(self.hasher.hexdigest())

    def record(self) -> list[Event]:
        """The finished game's record: every seat played by a person at any time is named
        `human` (its decisions are taken as recorded); the key is revealed on the last line."""
        return _record_lines(self.config, self.key, self.kinds, self.state, self.events)


def _events_hasher(events: Sequence[Event]) -> Any:
    """SHA-256 fed the canonical JSON of every event so far (a game keeps it running, feeding
    each step's own events; `hexdigest()` is the digest stored with the step)."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(canonical_json(event))
    return digest


def events_digest(events: list[Event]) -> str:
    """SHA-256 of the canonical JSON of every event so far."""
    return str(_events_hasher(events).hexdigest())


def new_table_game(config: BallotConfig, key: str, kinds: Sequence[str]) -> TableGame:
    """A new game at a table: the bots play until a person is first asked."""
    game = _fresh_table(config, key, kinds)
    game.run_bots()
    return game


def restore_table_game(
    config: BallotConfig,
    key: str,
    kinds: Sequence[str],
    stand_ins: dict[int, int],
    steps: list[dict[str, Any]],
    digests: list[str],
) -> TableGame:
    """Rebuild a stored game: people's answers as stored, bots asked again; RulesChanged when
    a bot decides otherwise or the events differ from the stored digests."""
    game = _fresh_table(config, key, kinds)
    replay_table_steps(game, stand_ins, steps, digests)
    return game


def replay_table_steps(
    game: TableGame, stand_ins: dict[int, int], steps: list[dict[str, Any]], digests: list[str]
) -> None:
    """Play the stored `steps` that `game` has not played yet (it has played the first
    `game.version()` of them), checked as `restore_table_game` checks them; a person who left
    is handed to the stand-in at the step stored for it."""
    for number in range(game.version(), len(steps)):
        stored = steps[number]
        for seat, start in stand_ins.items():
            if start == number and game.stand_ins.get(seat) != start:
                game.hand_to_stand_in(seat)
        given = {
            int(seat): decision_from_data(data)
            for seat, data in stored.items()
            if game.played_by_person(int(seat))
        }
        game._step(given, stored)
        if number < len(digests) and game.digests[-1] != digests[number]:
            raise RulesChanged(number + 1)
    for seat, start in stand_ins.items():
        if start >= len(steps) and seat not in game.stand_ins:
            game.hand_to_stand_in(seat)


def _fresh_table(config: BallotConfig, key: str, kinds: Sequence[str]) -> TableGame:
    seated = make_bots([STAND_IN if kind == HUMAN_NAME else kind for kind in kinds])
    bots = {seat: bot for seat, bot in enumerate(seated) if kinds[seat] != HUMAN_NAME}
    state, events = new_game(config, key, len(kinds))
    return TableGame(config, key, tuple(kinds), {}, state, events, bots)


def _record_lines(
    config: BallotConfig, key: str, names: Sequence[str], state: GameState, events: list[Event]
) -> list[Event]:
    """The finished game's record (`record.record_lines`); refused while the game goes on,
    since the record reveals the key."""
    if state.phase is not Phase.OVER:
        raise ValueError("the record is available once the game is over")
    return record_lines(config, key, names, state, events)
