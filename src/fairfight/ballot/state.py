"""The immutable game state, the decisions players send, and their canonical JSON form.

A state is plain data: frozen dataclasses of ints, strings and tuples. `state_to_data` and
`state_from_data` turn it into canonical JSON and back, so a saved game re-scores identically.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from operator import attrgetter
from typing import Any, TypeAlias, get_args, get_origin, get_type_hints

from fairfight.ballot.tables import BOARD, AmendmentChoice, BallotConfig, Party

__all__ = [
    "Amendment",
    "AmendmentDraft",
    "AmendmentVote",
    "Bill",
    "BillDraft",
    "DECISIONS",
    "DECISION_TYPES",
    "Decision",
    "Declaration",
    "Declarations",
    "Discards",
    "DraftPick",
    "GameState",
    "Holding",
    "NO_CARD",
    "Phase",
    "PresidentialWin",
    "Withdrawals",
    "YesNo",
    "decision_from_data",
    "state_from_data",
    "state_to_data",
    "to_data",
]


NO_CARD = -1
"""Placeholder for `no card` (an empty seat card or no district card attached)."""


class Phase(StrEnum):
    """The step of the year that waits for the players' decisions [3]."""

    DRAFT = "draft"
    """Each player picks one card from the pack in front of it, then packs pass."""
    DECLARE = "declare"
    """Secret, simultaneous declarations (and retirements) for this year's races."""
    WITHDRAW = "withdraw"
    """After the reveal, each player may withdraw any of its candidates."""
    AUTHOR = "author"
    """The Speaker writes the omnibill (party, two tags, optional repeal rider) or declines."""
    BILL_VOTE = "bill-vote"
    """Every player with seats in Congress votes yes or no for all its seats."""
    VETO = "veto"
    """A player president signs or vetoes a passed bill."""
    OVERRIDE_VOTE = "override-vote"
    """A fresh vote to override the veto with two thirds of both chambers."""
    IMPEACH_MOTION = "impeach-motion"
    """Players other than the president may move impeachment (first in turn order)."""
    IMPEACH_VOTE = "impeach-vote"
    """The Senate votes on the motion."""
    AMEND_PROPOSE = "amend-propose"
    """The player with the most governorships may propose an amendment."""
    AMEND_VOTE = "amend-vote"
    """Governors count for, against or abstain."""
    DISCARD = "discard"
    """Players above the hand limit discard down to it."""
    OVER = "over"
    """The game has ended."""


@dataclass(frozen=True, slots=True)
class Holding:
    """Who holds a seat, under which party, with which seated cards [1.5]."""

    holder: int = BOARD
    party: Party = Party.D
    card: int = NO_CARD
    district_card: int = NO_CARD


@dataclass(frozen=True, slots=True)
class Declaration:
    """A candidate entered in a race: card, declared party, optional district card [4.3]."""

    player: int
    race: str
    card: int
    party: Party
    district_card: int = NO_CARD


@dataclass(frozen=True, slots=True)
class Bill:
    """An omnibill: on the books once enacted, held by `holder` [7.3, 7.6]."""

    number: int
    year: int
    party: Party
    tags: tuple[str, ...]
    author: int
    holder: int = BOARD
    rider: int = NO_CARD


@dataclass(frozen=True, slots=True)
class Amendment:
    """An amendment proposal, pending convention or ratified amendment [8]."""

    number: int
    year: int
    tags: tuple[str, ...]
    proposer: int


@dataclass(frozen=True, slots=True)
class PresidentialWin:
    """A player's presidential election win; voided by impeachment in the term [7.8, 10.3]."""

    player: int
    year: int
    voided: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the engine needs to continue a game, and nothing more."""

    config: BallotConfig
    key: str
    players: int
    year: int
    phase: Phase
    start_player: int
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    shuffles: int
    hands: tuple[tuple[int, ...], ...]
    seats: tuple[Holding, ...]
    lean: tuple[int, ...]
    honeymoon: tuple[int, ...]
    bills: tuple[Bill, ...] = ()
    bills_created: int = 0
    authored: tuple[int, ...] = ()
    amendments: tuple[Amendment, ...] = ()
    amendments_created: int = 0
    pending_amendment: Amendment | None = None
    presidential_wins: tuple[PresidentialWin, ...] = ()
    impeached_this_term: bool = False
    lean_at_year_start: tuple[int, ...] = ()
    packs: tuple[tuple[int, ...], ...] = ()
    picks_made: int = 0
    declarations: tuple[Declaration, ...] = ()
    proposal: Bill | None = None
    votes: tuple[bool, ...] = ()
    amendment_proposal: Amendment | None = None
    amendment_counted: bool = False
    impeachment_mover: int = BOARD
    ended: bool = False
    end_reason: str = ""
    winners: tuple[int, ...] = ()
    last_scores: tuple[int, ...] = ()

    def turn_order(self) -> tuple[int, ...]:
        """Seats in turn order, from the start player [1.9]."""
        return tuple((self.start_player + i) % self.players for i in range(self.players))

    def presidency_open(self) -> bool:
        """True until the game's first presidential election is resolved: the seat has no
        holder yet (the board keeps it under a placeholder party that never counts). A config
        starts in a presidential year, so that election is in the first year [5.8]."""
        return self.year == self.config.start_year and self.phase in (
            Phase.DRAFT,
            Phase.DECLARE,
            Phase.WITHDRAW,
        )

    def with_changes(self, **changes: Any) -> GameState:
        """A copy with some fields replaced (the state itself never changes)."""
        values = list(_state_values(self))
        for name, value in changes.items():
            index = _STATE_FIELD_INDEX.get(name)
            if index is None:
                raise TypeError(f"a game state has no field {name!r}")
            values[index] = value
        return GameState(*values)


_STATE_FIELDS: tuple[str, ...] = tuple(item.name for item in fields(GameState))
_STATE_FIELD_INDEX: dict[str, int] = {name: number for number, name in enumerate(_STATE_FIELDS)}
_state_values = attrgetter(*_STATE_FIELDS)
"""Every field of a state at once (what `dataclasses.replace` reads one by one)."""


# ---- decisions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DraftPick:
    """Take this card from the pack in front of you."""

    card: int


@dataclass(frozen=True, slots=True)
class Declarations:
    """This year's declarations; a seat you hold and do not re-run is retired [4.5]."""

    entries: tuple[Declaration, ...] = ()


@dataclass(frozen=True, slots=True)
class Withdrawals:
    """The races you withdraw your candidate from [4.6]."""

    races: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BillDraft:
    """The Speaker's bill: two tags and an optional rider, or `tags=()` to decline [7.3]."""

    tags: tuple[str, ...] = ()
    rider: int = NO_CARD


@dataclass(frozen=True, slots=True)
class YesNo:
    """A yes/no answer: a vote, a veto, a motion."""

    yes: bool


@dataclass(frozen=True, slots=True)
class AmendmentDraft:
    """A proposed amendment's tags, or `()` to pass [8.5]."""

    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AmendmentVote:
    """For, against or abstain, for all your governorships [8.2]."""

    choice: AmendmentChoice


@dataclass(frozen=True, slots=True)
class Discards:
    """Cards discarded down to the hand limit [3.7]."""

    cards: tuple[int, ...] = ()


Decision: TypeAlias = (
    DraftPick
    | Declarations
    | Withdrawals
    | BillDraft
    | YesNo
    | AmendmentDraft
    | AmendmentVote
    | Discards
)

DECISIONS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        DraftPick,
        Declarations,
        Withdrawals,
        BillDraft,
        YesNo,
        AmendmentDraft,
        AmendmentVote,
        Discards,
    )
}

# Every record type by name: the decisions and the parts of a state they refer to.
DECISION_TYPES: dict[str, type[Any]] = {
    **DECISIONS,
    **{cls.__name__: cls for cls in (Declaration, Holding, Bill, Amendment, PresidentialWin)},
}


# ---- canonical data --------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """Plain JSON data for a state, a decision or any of their parts (type names kept)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        # Hands, packs and seat lists are mostly plain ints: no call for each.
        return [item if type(item) in _PLAIN else to_data(item) for item in value]
    record = _RECORDS.get(kind)
    if record is not None:
        data = {"type": record[0]}
        for name in record[1]:
            field = getattr(value, name)
            data[name] = field if type(field) in _PLAIN else to_data(field)
        return data
    if kind in _MEMBER_KINDS:
        return value.value
    if isinstance(value, BallotConfig):
        return value.model_dump(mode="json")
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_data(item) for item in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    if hasattr(value, "__dataclass_fields__"):
        _RECORDS[kind] = _record(kind)
        return to_data(value)
    raise TypeError(f"cannot serialise {type(value).__name__}")


def _record(kind: type[Any]) -> tuple[str, tuple[str, ...]]:
    """How `to_data` writes a dataclass (`fields` rebuilds its list on every call)."""
    return kind.__name__, tuple(item.name for item in fields(kind))


_PLAIN: frozenset[type[Any]] = frozenset((int, str, bool, type(None)))
"""Values that are their own data (exact types: an enum member or a subclass takes the long way)."""
_RECORDS: dict[type[Any], tuple[str, tuple[str, ...]]] = {}
"""Each dataclass met so far: its type name and field names."""
_MEMBER_KINDS: frozenset[type[Any]] = frozenset((Party, AmendmentChoice, Phase))
"""The enums of states and decisions, written as their values."""


_ENUM_FIELDS: dict[str, type[StrEnum]] = {"party": Party, "choice": AmendmentChoice}


def _from(value: Any, name: str = "") -> Any:
    if isinstance(value, list):
        return tuple(_from(item, name) for item in value)
    if isinstance(value, dict) and "type" in value:
        cls = DECISION_TYPES[value["type"]]
        return cls(**{k: _from(v, k) for k, v in value.items() if k != "type"})
    if name in _ENUM_FIELDS and isinstance(value, str):
        return _ENUM_FIELDS[name](value)
    return value




def decision_from_data(data: Any, where: str = "choice") -> Decision:
    """Rebuild a decision written by `to_data`, refusing any value of the wrong type.

    A ValueError names the field (`choice.entries[1].card: ...`), so a replay can say which
    part of a recorded decision is malformed.
    """
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in DECISIONS:   # a list is not even hashable
        raise ValueError(f"{where}.type: not a decision ({', '.join(DECISIONS)})")
    result: Decision = _typed(data, DECISIONS[data["type"]], where)
    return result


@cache
def _hints(cls: type[Any]) -> dict[str, Any]:
    """A decision class's field types, in field order."""
    hints = get_type_hints(cls)
    return {item.name: hints[item.name] for item in fields(cls)}


def _typed(value: Any, hint: Any, where: str) -> Any:
    """`value` checked against a type of a decision's field, and rebuilt."""
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: expected true or false, found {value!r:.40}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{where}: expected a whole number, found {value!r:.40}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: expected text, found {value!r:.40}")
        return value
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        choices = [member.value for member in hint]
        if value not in choices:
            raise ValueError(f"{where}: expected one of {', '.join(choices)}, found {value!r:.40}")
        return hint(value)
    if get_origin(hint) is tuple:
        if not isinstance(value, list):
            raise ValueError(f"{where}: expected a list, found {value!r:.40}")
        item = get_args(hint)[0]
        return tuple(_typed(entry, item, f"{where}[{n}]") for n, entry in enumerate(value))
    if not isinstance(value, dict) or value.get("type") != hint.__name__:
        raise ValueError(f"{where}: expected a {hint.__name__}")
    hints = _hints(hint)
    names = list(hints)
    for name in value:
        if name != "type" and name not in names:
            raise ValueError(f"{where}.{name}: not a field of {hint.__name__}")
    for name in names:
        if name not in value:
            raise ValueError(f"{where}.{name}: missing")
    return hint(**{name: _typed(value[name], hints[name], f"{where}.{name}") for name in names})


def state_to_data(state: GameState) -> dict[str, Any]:
    """The state as canonical-JSON-ready data."""
    data: dict[str, Any] = to_data(state)
    return data


def state_from_data(data: dict[str, Any]) -> GameState:
    """Rebuild a state saved by `state_to_data`."""
    values = {k: _from(v, k) for k, v in data.items() if k not in ("type", "config")}
    values["phase"] = Phase(values["phase"])
    config = BallotConfig.model_validate(data["config"])
    return GameState(config=config, **values)
