"""Running a season: the operations behind each command, over the store and the engine.

Every operation takes the season file's path, does its work in one transaction (one per battle
when fighting several), and raises InputError / RuleError (exit 2) or VerificationError
(exit 1) with one line naming the field and the rule. Reading a season's public state and its
standings is `season_summary`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from fairfight.conquest.forecast import season_odds
from fairfight.conquest.record import archive, beacon_check, beacons
from fairfight.conquest.record.beacons import BEACON_DEFAULTS
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import integrity, ledger, log, season_keys, season_timelock
from fairfight.conquest.store.rows import SQLITE_INTEGER_MAX, check_stored_integer
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.conquest.store.season_summary import (
    SeasonAddress,
    SeasonSummary,
    Standing,
    champion,
    open_store,
    standings,
    summary,
    summary_in,
)
from fairfight.core.draws import commitment as seed_commitment
from fairfight.core.draws import new_seed
from fairfight.core.errors import InputError, RuleError
from fairfight.core.validation import parse_model

__all__ = [
    "BEACON_DEFAULTS",
    "Contribution",
    "SeasonAddress",
    "SeasonSummary",
    "Standing",
    "battle",
    "champion",
    "contribute",
    "create_season",
    "fight",
    "latest_head",
    "odds",
    "open_store",
    "record_beacon",
    "refunds_owed",
    "reveal",
    "standings",
    "summary",
    "summary_in",
    "unlock",
]

_HEX64 = r"^[0-9a-f]{64}$"


class _NewSeason(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: str | None = Field(default=None, pattern=_HEX64)
    max_battles: int | None = Field(default=None, ge=1, le=SQLITE_INTEGER_MAX)
    beacon_round: int | None = Field(default=None, ge=1, le=SQLITE_INTEGER_MAX)


class _ContributionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    faction: str = Field(min_length=1, max_length=32)
    amount: int
    key: str | None = Field(default=None, min_length=1, max_length=200)


class _BeaconValue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    randomness: str = Field(pattern=r"^[0-9a-fA-F]{64}$")
    signature: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]+$")


Contribution = ledger.Recorded
"""A recorded contribution (`entry`, the pool after it); `repeated` when its key was used."""


def create_season(
    path: SeasonAddress,
    map_data: dict[str, Any],
    map_name: str,
    *,
    seed: str | None = None,
    max_battles: int | None = None,
    beacon_round: int | None = None,
    published: datetime | None = None,
    ends_by: datetime | None = None,
) -> SeasonSummary:
    """Start a season: fix the seed, publish its commitment and the header [§8].

    The map is stored under `map_name`, so the header's name is the map's own and can be checked.
    A season naming a beacon round records when it is published (`published`, else the clock),
    so anyone can check that the round came out afterwards. A new season key signs the season
    log; its public half is the header's `log_key`, and the header is the log's leaf 0. With a
    planned end (`ends_by`), the seed is also timelocked to a drand round after it
    (`season_timelock`), so the season can be verified even if its operator never reveals.
    """
    request = parse_model(
        _NewSeason, {"seed": seed, "max_battles": max_battles, "beacon_round": beacon_round}
    )
    beacon: dict[str, Any] = {"beacon": None}
    if request.beacon_round is not None:
        beacon = beacons.header_fields(request.beacon_round, published or beacons.utc_now())
    map_data = {**map_data, "name": map_name}
    try:
        world = engine.compile_world(map_data)
        map_hash = engine.map_sha256(map_data)
    except engine.MapError as error:
        raise InputError(f"map.{error.field}", error.rule) from None
    secret = request.seed or new_seed()
    locked = season_timelock.header_fields(secret, ends_by, published or beacons.utc_now())
    private_key = season_keys.new_private_key()
    sources = archive.engine_sources()
    header = {
        "ruleset": "conquest",
        "engine_version": tables.ENGINE_VERSION,
        "engine_files": archive.engine_digests(sources),
        "map_name": map_name,
        "map_sha256": map_hash,
        "max_battles": request.max_battles,
        **beacon,
        tables.LOG_KEY: season_keys.public_key_hex(private_key),
        **locked,
    }
    store = SeasonStore.create(
        path,
        header,
        seed_commitment(secret),
        engine.canonical_map(map_data),
        engine.initial_board(world),
        secret,
        engine_files=sources,
        private_key=private_key,
    )
    address = store.address
    store.close()
    return summary(address)


def contribute(
    path: SeasonAddress, faction: str, amount: int, key: str | None = None
) -> Contribution:
    """Record a contribution, or refuse it (nothing written) under the rules of [§6].

    A batch of one through `ledger.record_contributions`, the web's path too; a key is bound
    to this season, faction and amount.
    """
    request = parse_model(_ContributionRequest, {"faction": faction, "amount": amount, "key": key})
    store = open_store(path, write=True)
    try:
        claim = None if request.key is None else ledger.command_line_claim(
            request.key, store.season_id, request.faction, request.amount)
        with store.transaction() as session:
            summary_in(session)  # a damaged season is refused before anything is written
            (outcome,) = ledger.record_contributions(
                session, [ledger.LedgerRequest(request.faction, request.amount, claim)])
            if isinstance(outcome, ledger.RefundOwed):  # only a paid request is refunded
                raise AssertionError("the command line names no payment")
            if not isinstance(outcome, ledger.Recorded):
                raise outcome
            return outcome
    finally:
        store.close()


def _season_key(store: SeasonStore, season: SeasonSummary) -> str:
    """The key the draws come from: the checked secret seed, mixed with the beacon if named."""
    spec = season.header["beacon"]
    if spec is not None and season.beacon is None:
        raise RuleError(
            "beacon",
            f"this season draws from {spec['name']} round {spec['round']}; "
            "record it with `conquest beacon` before the first battle",
        )
    seed = integrity.checked_secret_seed(store.secret_seed(), season.commitment)
    return engine.season_key(seed, None if season.beacon is None else season.beacon["randomness"])


def fight(
    path: SeasonAddress, count: int | None = 1, *,
    within: Callable[[Session, dict[str, Any]], None] | None = None, now: datetime | None = None,
) -> Iterator[dict[str, Any]]:
    """Fight up to `count` entries (None: to the end), one transaction each; yield each entry.

    `within` runs in each battle's transaction once the battle is recorded (the airing
    schedule records its slot there), so both commit or neither does. `now` is the airing
    clock the timelock's airing rule is judged by (default: `beacons.utc_now()`).
    """
    if count is not None:
        check_stored_integer("count", count)
    store = open_store(path, write=True)
    try:
        with store.transaction() as session:
            opening = summary_in(session)
        world, header = engine.compile_world(opening.map_data), opening.header
        key = _season_key(store, opening)
        fought = 0
        while count is None or fought < count:
            with store.transaction() as session:
                row = SeasonStore.season(session)
                board = integrity.checked_board(row.board, world)
                if board["ended"]:
                    if fought == 0:
                        raise RuleError("season", "the season is over; nothing left to fight")
                    return
                season_timelock.check_air_time(header, now or beacons.utc_now())
                state = {
                    "world": world,
                    "key": key,
                    "max_battles": header["max_battles"],
                    "board": board,
                }
                due = SeasonStore.ledger_for(session, board["next_battle"])
                state, entry = engine.play_step(state, [row.public() for row in due])
                SeasonStore.add_battle(session, entry, state["board"])
                if within is not None:
                    within(session, entry)
            fought += 1
            yield entry
    finally:
        store.close()


def battle(path: SeasonAddress, number: int) -> dict[str, Any]:
    """One fought entry by number."""
    check_stored_integer("battle", number)
    store = open_store(path)
    try:
        with store.transaction() as session:
            summary_in(session)  # a damaged season is refused whatever part is asked for
            entry = SeasonStore.history_entry(session, number)
    finally:
        store.close()
    if entry is None:
        raise InputError("battle", f"battle {number} has not been fought")
    return entry


def record_beacon(
    path: SeasonAddress, randomness: str, signature: str | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Record the named beacon round's public value; required before battle 1 [§8].

    Only a value proven to be the chain's own is stored (`beacon_check.checked_beacon`: the round
    has come out by `now`, else the clock; the randomness is SHA-256 of the signature; the
    signature verifies). The same value again is accepted; another value is refused.
    """
    value = parse_model(_BeaconValue, {"randomness": randomness, "signature": signature})
    store = open_store(path, write=True)
    try:
        with store.transaction() as session:
            season = summary_in(session)
            spec = season.header["beacon"]
            if spec is None:
                raise RuleError("beacon", "this season names no beacon round")
            if season.beacon is not None:
                asked = (value.randomness.lower(), (value.signature or "").lower())
                if asked != (season.beacon["randomness"], season.beacon["signature"] or ""):
                    raise RuleError("beacon", f"round {spec['round']} is already recorded")
                return season.beacon
            if season.battles:
                raise RuleError("beacon", "battles have been fought; the beacon came too late")
            beacon = beacon_check.checked_beacon(
                spec, value.randomness, value.signature, now or beacons.utc_now())
            SeasonStore.set_beacon(session, beacon)
            return beacon
    finally:
        store.close()


def latest_head(path: SeasonAddress) -> dict[str, Any] | None:
    """The season log's latest signed head (None for a season made before the log)."""
    store = open_store(path)
    try:
        with store.transaction() as session:
            summary_in(session)  # a damaged season is refused, not its head shown
            return log.latest_head(session)
    finally:
        store.close()


def refunds_owed(path: SeasonAddress) -> list[dict[str, Any]]:
    """The public part of every refund owed (`ledger.refunds_owed`), for the console and the
    archive: event id, faction, amount, the battle it was dated to, field and reason."""
    store = open_store(path)
    try:
        with store.transaction() as session:
            return ledger.refunds_owed(session)
    finally:
        store.close()


def reveal(path: SeasonAddress) -> str:
    """Publish the seed; refused until the season has ended."""
    store = open_store(path, write=True)
    try:
        with store.transaction() as session:
            season = summary_in(session)
            if not season.board["ended"]:
                raise RuleError(
                    "season",
                    f"the seed is revealed only after the season ends "
                    f"({season.battles} battles fought so far)",
                )
            if season.revealed_seed is not None:  # revealed once: the log's last leaf stays last
                return season.revealed_seed
            seed = integrity.checked_secret_seed(store.secret_seed(), season.commitment)
            SeasonStore.set_revealed(session, seed)
            return seed
    finally:
        store.close()


def unlock(path: SeasonAddress, signature: str) -> str:
    """The seed, opened from the header's timelock with the unlock round's beacon signature and
    checked against the commitment; reads only public data, so it works without the operator."""
    season = summary(path)
    return season_timelock.unlock_seed(season.header, season.commitment, signature)


def _public_state(season: SeasonSummary) -> dict[str, Any]:
    """An engine state for previews (no key: nothing is drawn)."""
    return {
        "world": engine.compile_world(season.map_data),
        "key": "",
        "max_battles": season.header["max_battles"],
        "board": season.board,
    }


def odds(
    path: SeasonAddress, attacker: str, defender: str, border: str | None = None
) -> list[dict[str, Any]]:
    """Exact chances of a hypothetical battle now, one preview per border kind the two share."""
    season = summary(path)
    if season.board["ended"]:
        raise RuleError("season", "the season is over")
    return season_odds.previews(_public_state(season), season.ledger, attacker, defender, border)
