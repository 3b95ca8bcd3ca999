"""Checks on what a season file holds, before any command acts on it.

SQLite happily stores text where a number belongs or half a JSON document; the engine would
then fail deep inside a battle. Each check here names the table and column and what is wrong
(`damaged season file: season.board: factions.US-TX.morale: ...`), so the operator knows which
backup to restore, and nothing is written from a damaged season.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from fairfight.conquest.record import verifier
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store.season_file import DAMAGED
from fairfight.conquest.store.season_store import SQLITE_INTEGER_MAX, load_column
from fairfight.core.draws import verify_reveal
from fairfight.core.errors import InputError

__all__ = [
    "checked_beacon",
    "checked_board",
    "checked_commitment",
    "checked_header",
    "checked_history_count",
    "checked_ledger_row",
    "checked_map",
    "checked_revealed_seed",
    "checked_secret_seed",
]

_BOARD_FIELDS = ("ended", "factions", "next_battle", "regions")
_FACTION_FIELDS = ("morale", "pool", "pool_state", "standing")
_REGION_FIELDS = ("captured_at", "owner")
_POOL_STATES = tuple(state.value for state in tables.PoolState)


def _damaged(place: str, what: str) -> InputError:
    return InputError(DAMAGED, f"{place}: {what}")


def _whole(value: Any, low: int, high: int = SQLITE_INTEGER_MAX) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _object(place: str, value: Any, fields: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _damaged(place, "must be a JSON object")
    if set(value) != set(fields):
        odd = sorted(set(value) ^ set(fields))[0]
        raise _damaged(place, f"{odd}: {'unknown' if odd in value else 'missing'} field")
    return value


def checked_header(text: Any) -> dict[str, Any]:
    """The public header, with every field the verifier will check."""
    header = load_column("season.header", text)
    try:
        verifier.check_header(header)
    except engine.ReplayMismatch as mismatch:
        raise _damaged("season.header", mismatch.detail) from None
    value: dict[str, Any] = header
    return value


def checked_map(text: Any, header: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The stored map and the world the engine plays on it; its hash must match the header.

    A season's map never changes, and the service reads it with every new version of the
    season (fifty times a second under a stream of contributions): the check of the same
    text against the same hash is remembered (`_checked_map_text`), about 13 ms each. The
    map and world returned are then shared by every reader of that text, as the engine
    already shares compiled fronts: nothing may change them in place."""
    if isinstance(text, str):
        return _checked_map_text(text, str(header["map_sha256"]))
    return _checked_map_uncached(text, header)


@functools.lru_cache(maxsize=8)
def _checked_map_text(text: str, digest: str) -> tuple[dict[str, Any], dict[str, Any]]:
    return _checked_map_uncached(text, {"map_sha256": digest})


def _checked_map_uncached(text: Any,
                          header: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    map_data = load_column("season.map_data", text)
    if not isinstance(map_data, dict):
        raise _damaged("season.map_data", "must be a JSON object")
    try:
        world = engine.compile_world(map_data)
        digest = engine.map_sha256(map_data)
    except engine.MapError as error:
        raise _damaged("season.map_data", f"{error.field}: {error.rule}") from None
    if digest != header["map_sha256"]:
        raise _damaged("season.map_data", "its SHA-256 does not match the header's map_sha256")
    return map_data, world


def checked_board(text: Any, world: dict[str, Any]) -> dict[str, Any]:
    """The current board: one entry per region and faction of the map, each value in range."""
    place = "season.board"
    board = _object(place, load_column(place, text), _BOARD_FIELDS)
    if not _whole(board["next_battle"], 1) or not isinstance(board["ended"], bool):
        raise _damaged(place, "next_battle must be a whole number >= 1 and ended true or false")
    codes = set(world["regions"])
    for part in ("factions", "regions"):
        if not isinstance(board[part], dict) or set(board[part]) != codes:
            raise _damaged(place, f"{part}: must list exactly the map's regions")
    for code, faction in board["factions"].items():
        where = f"{place}: factions.{code}"
        _object(where, faction, _FACTION_FIELDS)
        if not isinstance(faction["standing"], bool):
            raise _damaged(where, "standing must be true or false")
        if not _whole(faction["morale"], 0, tables.MORALE_CAP_BP):
            raise _damaged(where, f"morale must be a whole number from 0 to {tables.MORALE_CAP_BP}")
        if not _whole(faction["pool"], 0, tables.POOL_CAP) or faction["pool"] % tables.POOL_STEP:
            raise _damaged(where, f"pool must be $0 to ${tables.POOL_CAP} in ${tables.POOL_STEP}s")
        if faction["pool_state"] not in _POOL_STATES:
            raise _damaged(where, f"pool_state must be one of {', '.join(_POOL_STATES)}")
    for code, region in board["regions"].items():
        where = f"{place}: regions.{code}"
        _object(where, region, _REGION_FIELDS)
        if region["owner"] not in codes:
            raise _damaged(where, "owner is not a region of the map")
        taken = region["captured_at"]
        if taken is not None and not _whole(taken, 1, board["next_battle"] - 1):
            raise _damaged(where, "captured_at must be null or a battle already fought")
    return board


def checked_beacon(text: Any) -> dict[str, Any] | None:
    """The recorded beacon round, if any."""
    if text is None:
        return None
    beacon = _object(
        "season.beacon", load_column("season.beacon", text), ("randomness", "round", "signature")
    )
    if not _whole(beacon["round"], 1) or not isinstance(beacon["randomness"], str):
        raise _damaged("season.beacon", "needs a round number and its randomness")
    return beacon


def checked_commitment(value: Any) -> str:
    """The published commitment: 64 lowercase hex digits."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{64}", value):
        raise _damaged("season.commitment", "must be 64 lowercase hex digits")
    return value


def checked_revealed_seed(value: Any, commitment: str) -> str | None:
    """The revealed seed, which must match the commitment."""
    if value is not None and (not isinstance(value, str) or not verify_reveal(value, commitment)):
        raise _damaged("season.revealed_seed", "does not match the season's commitment")
    return value


def checked_secret_seed(seed: str, commitment: str) -> str:
    """The secret seed read from its keeper, which must match the published commitment."""
    if not verify_reveal(seed, commitment):
        raise _damaged("seed file", "the seed does not match the season's commitment")
    return seed


def checked_ledger_row(row: Any, world: dict[str, Any], next_battle: int) -> dict[str, Any]:
    """One stored contribution, as published; every column of the right kind and in range."""
    entry: dict[str, Any] = row.public()
    seq = entry["seq"]
    where = f"ledger.seq {seq!r}" if _whole(seq, 1) else "ledger.seq"
    if not _whole(seq, 1):
        raise _damaged(where, "must be a whole number >= 1")
    if not _whole(entry["before_battle"], 1, next_battle):
        raise _damaged(f"{where}.before_battle", f"must be a battle from 1 to {next_battle}")
    if entry["faction"] not in world["regions"]:
        raise _damaged(f"{where}.faction", "is not a faction of the map")
    amount = entry["amount"]
    if not _whole(amount, tables.POOL_STEP, tables.POOL_CAP) or amount % tables.POOL_STEP:
        raise _damaged(f"{where}.amount", f"must be ${tables.POOL_STEP} to ${tables.POOL_CAP}")
    return entry


def checked_history_count(count: int, board: dict[str, Any]) -> None:
    """As many history rows as the board says battles were fought."""
    fought = board["next_battle"] - 1
    if count != fought:
        raise _damaged("history", f"{count} entries stored, but the board counts {fought} battles")
