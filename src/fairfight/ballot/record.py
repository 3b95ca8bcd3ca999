"""Game records (JSON Lines) and their verification by replay.

Line 1 is the header: the config, the players and the SHA-256 commitment of the game key. Then
every event in order: decisions, dice, races, votes, scorings. The last line reveals the key
and the final scores. `verify_record` re-runs the game from the revealed key and the recorded
decisions and compares every event; the first difference raises VerificationError.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from fairfight.ballot.elections import Event
from fairfight.ballot.engine import advance, new_game, requested_seats
from fairfight.ballot.players import Player, key_commitment, play_game, play_on
from fairfight.ballot.state import Decision, GameState, Phase, decision_from_data, to_data
from fairfight.ballot.tables import BallotConfig
from fairfight.ballot.validation import check_decision
from fairfight.core.errors import InputError, RuleError, VerificationError
from fairfight.core.records import (
    ABSENT,
    as_read_back,
    canonical_json,
    first_difference,
    quoted,
    write_jsonl,
)
from fairfight.core.validation import input_error_from_validation
from fairfight.inputs import load_jsonl

__all__ = [
    "HUMAN_NAME",
    "KEY_PATTERN",
    "PAUSE_EVENT",
    "PausedGame",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RecordHeader",
    "RecordPause",
    "RecordReveal",
    "check_key",
    "coerced_field",
    "load_record",
    "pause_point",
    "paused_record",
    "read_paused",
    "record_game",
    "record_lines",
    "resume_game",
    "verify_record",
    "write_record",
]


RECORD_FORMAT = "fairfight-ballot-record"
RECORD_VERSION = 1
KEY_PATTERN = r"^([0-9a-f]{64}|[0-9]{1,20})$"
HUMAN_NAME = "human"
"""The header name of a seat played by a person: its decisions are taken as recorded."""
PAUSE_EVENT = "pause"
"""The last line of a game stopped before its end (in place of the reveal)."""


class RecordHeader(BaseModel):
    """The first line of a record."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["fairfight-ballot-record"]
    version: Literal[1]
    config: BallotConfig
    players: list[str] = Field(min_length=2, max_length=6)
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")


class RecordReveal(BaseModel):
    """The last line of a record: the key and the final result."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: Literal["reveal"]
    key: str = Field(pattern=KEY_PATTERN)
    scores: list[int]
    winners: list[int]
    reason: str


class RecordPause(BaseModel):
    """The last line of a paused game: the key, kept so that the same table can play on.

    A paused record is a local file (the terminal's own game), so the key it keeps is no secret
    from anyone the commitment protects; a finished record ends with the reveal instead.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: Literal["pause"]
    key: str = Field(pattern=KEY_PATTERN)
    year: StrictInt
    phase: Phase


def check_key(key: str) -> str:
    """A game key is 64 lowercase hex digits (a fresh seed) or a decimal game number."""
    import re

    if not re.fullmatch(KEY_PATTERN, key):
        raise InputError("seed", "must be 64 lowercase hex digits or a decimal game number")
    return key


def record_game(
    config: BallotConfig,
    key: str,
    players: Sequence[Player],
    on_event: Any = None,
) -> tuple[GameState, list[Event]]:
    """Play a game and return its record lines (header, events, reveal)."""
    state, events = play_game(config, check_key(key), players, on_event)
    return state, record_lines(config, key, [player.name for player in players], state, events)


def _header(config: BallotConfig, key: str, names: Sequence[str]) -> Event:
    return RecordHeader(
        format=RECORD_FORMAT,
        version=RECORD_VERSION,
        config=config,
        players=list(names),
        commitment=key_commitment(key),
    ).model_dump(mode="json")


def record_lines(
    config: BallotConfig, key: str, names: Sequence[str], state: GameState, events: list[Event]
) -> list[Event]:
    """The lines of a finished game's record: header, every event, the reveal."""
    reveal = RecordReveal(
        event="reveal",
        key=key,
        scores=list(state.last_scores),
        winners=list(state.winners),
        reason=state.end_reason,
    )
    return [_header(config, key, names), *events, reveal.model_dump(mode="json")]


def paused_record(
    config: BallotConfig, key: str, names: Sequence[str], events: list[Event]
) -> list[Event]:
    """The lines of a game stopped between two steps: header, the events so far, the pause."""
    year, phase = pause_point(config, events)
    pause = RecordPause(event="pause", key=key, year=year, phase=phase)
    return [_header(config, key, names), *events, pause.model_dump(mode="json")]


def pause_point(config: BallotConfig, events: Sequence[Any]) -> tuple[Any, Any]:
    """The year and phase a game stopped after `events` waits at: those of its last decision
    (as recorded), or the first draft of its first year. The pause line records it; resuming
    checks it."""
    year: Any = config.start_year
    phase: Any = Phase.DRAFT
    for event in events:
        if isinstance(event, dict) and event.get("event") == "decision":
            year, phase = event.get("year"), event.get("phase")
    return year, phase


class PausedGame(BaseModel):
    """A paused record read back: who sits where, the key and the events played so far."""

    model_config = ConfigDict(frozen=True)

    header: RecordHeader
    pause: RecordPause
    events: list[Event]


def _line_problem(error: ValidationError, line: int) -> InputError:
    """The first problem of a record line, naming the line, the field, the rule and the value."""
    problem = input_error_from_validation(error)
    given = quoted(repr(error.errors()[0].get("input")), 60)
    return InputError("--resume", f"line {line}: {problem.field}: {problem.rule} (given {given})")


def coerced_field(given: Any, read: Any, path: str = "") -> str | None:
    """The first field whose value a model took only by converting it (`true` or `"5"` for a
    number, `5.0` for a whole one), as `path: given ...`; None when every value was taken as
    written. `read` is the model's dump in JSON mode; fields `given` lacks are not compared."""
    if isinstance(given, dict) and isinstance(read, dict):
        for key, value in given.items():
            if key in read:
                found = coerced_field(value, read[key], f"{path}.{key}" if path else key)
                if found is not None:
                    return found
        return None
    if isinstance(given, list) and isinstance(read, list) and len(given) == len(read):
        for index, (value, other) in enumerate(zip(given, read, strict=True)):
            found = coerced_field(value, other, f"{path}[{index}]")
            if found is not None:
                return found
        return None
    if type(given) is type(read) and given == read:
        return None
    return f"{path or 'value'}: {quoted(repr(given), 40)} is not of the field's type"


def _taken_as_written(model: BaseModel, given: Any) -> str | None:
    """Why `model`, validated from `given`, is not exactly what the line says, or None."""
    return coerced_field(given, model.model_dump(mode="json"))


def read_paused(lines: list[Event]) -> PausedGame:
    """Check a paused record's header and every field of its pause line: the key against the
    commitment, the year and phase against where the recorded events stop."""
    if len(lines) < 2:
        raise InputError("resume", "a paused record has a header line and a pause line")
    try:
        header = RecordHeader.model_validate(lines[0])
    except ValidationError as error:
        raise _line_problem(error, 1) from None
    last = lines[-1]
    if isinstance(last, dict) and last.get("event") == "reveal":
        raise InputError("resume", "this game is over; check it with `fairfight ballot replay`")
    if not isinstance(last, dict) or last.get("event") != PAUSE_EVENT:
        raise InputError("--resume", f"line {len(lines)}: expected the pause line "
                         '({"event": "pause", ...}) at the end of a paused record')
    try:
        pause = RecordPause.model_validate(last)
    except ValidationError as error:
        raise _line_problem(error, len(lines)) from None
    for number, model, given in ((1, header, lines[0]), (len(lines), pause, last)):
        coerced = _taken_as_written(model, given)
        if coerced is not None:
            raise InputError("--resume", f"line {number}: {coerced}")
    if key_commitment(pause.key) != header.commitment:
        raise InputError("resume", f"line {len(lines)}: the key does not match the commitment")
    config, events = header.config, lines[1:-1]
    if not config.start_year <= pause.year <= config.last_year():
        raise InputError("--resume", f"line {len(lines)}: year: {quoted(str(pause.year), 40)} "
                         f"is outside the game's years ({config.start_year} to "
                         f"{config.last_year()})")
    year, phase = pause_point(config, events)
    if (pause.year, pause.phase) != (year, phase):
        raise InputError("--resume", f"line {len(lines)}: the pause line says {pause.year} "
                         f"{pause.phase}, but the recorded events stop at "
                         f"{quoted(str(year), 40)} {quoted(str(phase), 40)}")
    return PausedGame(header=header, pause=pause, events=events)


def resume_game(
    paused: PausedGame, players: Sequence[Player], on_event: Any = None
) -> tuple[GameState, list[Event]]:
    """Replay a paused game to its last step, then play on with `players`.

    The recorded events are checked as `verify_record` checks them, and each bot is asked
    every recorded question again (so it remembers what it would have in one sitting); a
    person's recorded decisions are taken as written. Only the new events go to `on_event`;
    every event, old and new, is returned.
    """
    body = paused.events
    bots = {seat: p for seat, p in enumerate(players) if p.name != HUMAN_NAME}
    config, key = paused.header.config, paused.pause.key
    state, _ = _replay(config, key, len(players), body, bots, False)
    state, more = play_on(state, players, on_event)
    return state, [*body, *more]


def write_record(path: Path, lines: list[Event]) -> None:
    """Write record lines as canonical JSON Lines."""
    write_jsonl(path, lines)


def load_record(path: Path) -> list[Event]:
    """Read a record file through the sturdy reader: every problem names the file and line."""
    return [value for _, value in load_jsonl(path)]


def _difference(recorded: Any, computed: Any, where: str = "") -> str:
    """The path of the first field where two events differ, with both values, as a line."""
    found = first_difference(as_read_back(recorded), as_read_back(computed), where)
    if found is None:
        return f"{where or 'event'}: differs only in how it is written"
    path, old, new = found
    return f"{path}: recorded {_shown(old)}, recomputed {_shown(new)}"


def _shown(value: Any) -> str:
    """A value as a difference quotes it, at most `records.QUOTED_LENGTH` characters."""
    return "nothing" if value is ABSENT else quoted(repr(value))


def _describe(event: Any) -> str:
    if not isinstance(event, dict):
        return "a non-object line"
    parts = [quoted(str(event.get("event", "?")), 40)]
    for field in ("year", "race", "phase", "seat"):
        if field in event:
            parts.append(f"{field} {quoted(str(event[field]), 40)}")
    return ", ".join(parts)


def verify_record(lines: list[Event]) -> GameState:
    """Re-run a record; raise VerificationError at the first line that differs.

    Every decision is checked at its own line: its type and fields, its legality for the seat
    that made it, and, for a bot seat, that the bot named in the header makes the same
    decision. Every event the engine produces must then equal the recorded line.
    """
    if len(lines) < 2:
        raise VerificationError("record", "needs a header line and a reveal line")
    try:
        header = RecordHeader.model_validate(lines[0])
        reveal = RecordReveal.model_validate(lines[-1])
    except ValidationError as error:
        place = "line 1" if error.title == "RecordHeader" else f"line {len(lines)}"
        problem = input_error_from_validation(error)
        raise VerificationError(place, f"{problem.field}: {problem.rule}") from None
    for number, model, given in ((1, header, lines[0]), (len(lines), reveal, lines[-1])):
        coerced = _taken_as_written(model, given)
        if coerced is not None:
            raise VerificationError(f"line {number}", coerced)
    bots = _header_players(header, reveal, len(lines))
    if key_commitment(reveal.key) != header.commitment:
        raise VerificationError(
            f"line {len(lines)}", "the revealed key does not match the commitment"
        )
    body = lines[1:-1]
    state, position = _replay(header.config, reveal.key, len(header.players), body, bots, True)
    if position != len(body):
        raise VerificationError(f"line {position + 2}", "events after the end of the game")
    if list(state.last_scores) != reveal.scores or list(state.winners) != reveal.winners:
        raise VerificationError(f"line {len(lines)}", "final scores or winners differ")
    if reveal.reason != state.end_reason:
        raise VerificationError(f"line {len(lines)}", f"reason: recorded "
                                f"{quoted(repr(reveal.reason), 40)}, recomputed "
                                f"{state.end_reason!r}")
    return state


def _replay(
    config: BallotConfig,
    key: str,
    seats: int,
    body: list[Event],
    bots: dict[int, Player],
    to_the_end: bool,
) -> tuple[GameState, int]:
    """Re-run recorded decisions, checking each event against its line; stop at the end of
    the game, or (`to_the_end` False) where the record stops. Returns the state and how many
    lines were read."""
    position = 0

    def compare(generated: list[Event]) -> None:
        nonlocal position
        for event in generated:
            line = position + 2
            if position >= len(body):
                raise VerificationError(f"line {line}", f"record ends before {_describe(event)}")
            recorded = body[position]
            if canonical_json(recorded) != canonical_json(event):
                raise VerificationError(
                    f"line {line} ({_describe(recorded)})", _difference(recorded, event)
                )
            position += 1

    state, events = new_game(config, key, seats)
    compare(events)
    while state.phase is not Phase.OVER and (to_the_end or position < len(body)):
        answers = {}
        for offset, seat in enumerate(requested_seats(state)):
            line = position + offset + 2
            recorded = body[position + offset] if position + offset < len(body) else None
            answers[seat] = _recorded_decision(state, seat, recorded, line, bots)
        try:
            state, events = advance(state, answers)
        except (InputError, ValueError) as error:
            raise VerificationError(f"line {position + 2}", f"illegal decision: {error}") from None
        compare(events)
    return state, position


def _header_players(header: RecordHeader, reveal: RecordReveal, last: int) -> dict[int, Player]:
    """The header's players must be known names within the config's bounds; bots by seat."""
    from fairfight.ballot.bots import BOT_NAMES, make_bots

    names = header.players
    for seat, name in enumerate(names):
        if name not in (*BOT_NAMES, HUMAN_NAME):
            known = ", ".join((*BOT_NAMES, HUMAN_NAME))
            raise VerificationError(
                "line 1", f"players[{seat}]: {name!r:.40} is not one of {known}"
            )
    config = header.config
    if not config.players_min <= len(names) <= config.players_max:
        raise VerificationError(
            "line 1",
            f"players: {len(names)} seats; the config plays "
            f"{config.players_min} to {config.players_max}",
        )
    for field, values in (("scores", reveal.scores), ("winners", reveal.winners)):
        if field == "scores" and len(values) != len(names):
            raise VerificationError(f"line {last}", f"scores: {len(values)} for {len(names)} seats")
        if field == "winners" and any(not 0 <= seat < len(names) for seat in values):
            raise VerificationError(f"line {last}", "winners: a seat outside the table")
    seated = make_bots([name if name != HUMAN_NAME else BOT_NAMES[0] for name in names])
    return {seat: seated[seat] for seat, name in enumerate(names) if name != HUMAN_NAME}


def _recorded_decision(
    state: GameState, seat: int, recorded: Any, line: int, bots: dict[int, Player]
) -> Decision:
    """The decision on this line, checked where it stands: shape, types, legality, the bot."""
    place = f"line {line}"
    expected = f"seat {seat}'s {state.phase} decision of {state.year}"
    if not isinstance(recorded, dict) or recorded.get("event") != "decision":
        raise VerificationError(place, f"expected {expected}")
    for field, value in (("seat", seat), ("year", state.year), ("phase", state.phase.value)):
        if recorded.get(field) != value:
            raise VerificationError(
                place, f"{field}: recorded {recorded.get(field)!r:.40}, expected {expected}"
            )
    try:
        decision = decision_from_data(recorded.get("choice"))
    except ValueError as error:
        raise VerificationError(place, f"seat {seat}: {error}") from None
    try:
        check_decision(state, seat, decision)
    except RuleError as error:
        raise VerificationError(
            place, f"seat {seat}: illegal {state.phase} decision: {error}"
        ) from None
    bot = bots.get(seat)
    if bot is not None:
        computed = bot.decide(state, seat)
        if computed != decision:
            difference = _difference(to_data(decision), to_data(computed), "choice")
            raise VerificationError(
                place, f"seat {seat} ({bot.name}) would decide otherwise: {difference}"
            )
    return decision
