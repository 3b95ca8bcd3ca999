"""The seasons a running service serves, and a cached public snapshot of each.

The catalog opens the database once and keeps it open. Reads go through `snapshot`, which
rebuilds a season's public state only when a cheap version probe (battles fought, last ledger
seq, beacon, reveal) says something changed, so the command line may write to the same
database at any time and the pages follow. Nothing here ever reads the secret seed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from fairfight.conquest.rules import engine
from fairfight.conquest.store import ledger, log
from fairfight.conquest.store.season import SeasonSummary, summary_in
from fairfight.conquest.store.season_store import SeasonStore, Version
from fairfight.core.errors import InputError
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest.database import SeasonDatabase

__all__ = ["SNAPSHOT_VIEWS_BYTES", "SeasonCatalog", "Snapshot", "Version", "once", "one_snapshot"]

_T = TypeVar("_T")

SNAPSHOT_VIEWS_BYTES = 16 * 1024 * 1024
"""Bytes of views one season's snapshot keeps (by `deep_size`): an episode weighs some 40 KB,
so a whole season's episodes, cards and checks fit many times over; the cap only matters
for a season far longer than the maps make."""


def _snapshot_views() -> ByteCappedCache[str, Any]:
    return ByteCappedCache(SNAPSHOT_VIEWS_BYTES, deep_size)


@dataclass(slots=True)
class Snapshot:
    """Everything public about one season at one version, plus derived lookups."""

    season_id: int
    version: Version
    summary: SeasonSummary
    history: list[dict[str, Any]]
    world: dict[str, Any]
    regions: dict[str, dict[str, Any]]
    head: dict[str, Any] | None = None
    """The season log's latest signed head (None for a season made before the log)."""
    views: ByteCappedCache[str, Any] = field(default_factory=_snapshot_views)
    """Views built from this snapshot, memoised by name (they never change for a version)."""
    own: dict[str, Any] = field(default_factory=dict)
    """The few views of this version every season page reads (the board the next battle
    sees, the season home's view), kept unweighed: they weigh about what the snapshot's own
    board does, and weighing each of them on every version cost more than making it."""
    fought: ByteCappedCache[str, Any] = field(default_factory=_snapshot_views)
    """Views that read only the battles fought, the map, the beacon and the reveal, never the
    ledger: shared by the snapshots that agree on those, so a stream of contributions (a
    new snapshot each) does not build them again."""

    @property
    def board(self) -> dict[str, Any]:
        """The current board (owners, pools, morale)."""
        return self.summary.board

    def name_of(self, code: str) -> str:
        """A region's (or faction's) display name."""
        region = self.regions.get(code)
        return str(region.get("name", code)) if region else code


_PINNED: ContextVar[dict[int, Snapshot] | None] = ContextVar("fairfight_snapshots",
                                                               default=None)


_ONCE: ContextVar[dict[Hashable, Any] | None] = ContextVar("fairfight_render_once",
                                                           default=None)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Within the block (one page's render, in one thread), `SeasonCatalog.snapshot` answers
    each season's first snapshot again instead of reading the version anew, and `once`
    answers its first value again. Inside another such block, the outer one holds on: the
    page's key and its render share what the key read (`PageCache.newest_page`)."""
    if _PINNED.get() is not None:
        yield
        return
    token, once = _PINNED.set({}), _ONCE.set({})
    try:
        yield
    finally:
        _ONCE.reset(once)
        _PINNED.reset(token)


def once(key: Hashable, make: Callable[[], _T]) -> _T:
    """`make()`, made once per page render (`one_snapshot`) under `key`, and each time
    outside one. A season home asked for its countdown twice (the header and the page's
    own), each a read of the schedule: some 4 ms of a 24 ms render."""
    made = _ONCE.get()
    if made is None:
        return make()
    if key not in made:
        made[key] = make()
    found: _T = made[key]
    return found


class SeasonCatalog:
    """Seasons of one database, by stable id, with snapshots cached per version."""

    def __init__(self, database: SeasonDatabase) -> None:
        self.database = database
        self._cache: dict[int, Snapshot] = {}
        self._lock = threading.Lock()
        self._rebuilding: dict[int, threading.Lock] = {}
        """One rebuild per season at a time: the pages that miss after a change (the home
        and a card for every faction asked) each needed the new snapshot, and each rebuilt
        it in a thread of its own, reading the whole ledger again; now the others wait for
        the first and take its snapshot, or one newer."""
        self._seen: dict[int, tuple[int, Snapshot]] = {}
        """Per season, the snapshot last read on a season file with the file's change number
        read before it (`SeasonDatabase.changes`): while the number stays, nothing was
        committed and the snapshot is answered without a read transaction. A faction card
        asked after a contribution read the version again for its snapshot, and every card
        paid that transaction (about a third of its render)."""
        self._reads: dict[tuple[int, str], tuple[int, Any]] = {}
        """Answers of `read_unchanged`, with the change number read before each."""
        self._held: set[int] = set()
        """Seasons a server database was seen to hold: the service never removes one, so
        `require` asks the database again only for an id not seen yet (a write's own lock
        still finds a season that went away)."""

    def close(self) -> None:
        """Release the database (connections, file handles)."""
        self.database.close()

    def season_ids(self) -> list[int]:
        """Every season's id, in creation order."""
        return self.database.season_ids()

    def require(self, season_id: int) -> None:
        """Refuse a season id this database does not hold (a 404 on the web)."""
        if season_id in self._held:
            return
        held = self.database.season_ids()
        if season_id not in held:
            raise LookupError(f"no season {season_id}")
        if self.database.server:
            self._held.update(held)

    @contextmanager
    def read(self, season_id: int) -> Iterator[Session]:
        """A read transaction on one season."""
        self.require(season_id)
        with self.database.transaction(season_id, write=False) as session:
            yield session

    def read_unchanged(self, season_id: int, name: str, read: Callable[[Session], _T]) -> _T:
        """`read` in a read transaction on the season, or on a season file its answer from
        the last time while nothing was committed since (`SeasonDatabase.changes`). For
        what every page reads: a faction card read the schedule for its countdown, a
        transaction of its own that cost about a quarter of its render."""
        changes = self.database.changes()
        seen = self._reads.get((season_id, name))
        if changes is not None and seen is not None and seen[0] == changes:
            found: _T = seen[1]
            return found
        with self.read(season_id) as session:
            found = read(session)
        if changes is not None:  # read after `changes`: as new as what that number saw
            self._reads[(season_id, name)] = (changes, found)
        return found

    def snapshot(self, season_id: int) -> Snapshot:
        """The season's public state now (rebuilt only when its version moved). Within a
        page's render (`one_snapshot`) every call answers the render's first snapshot: a
        page shows one version, and under a stream of contributions the version moves
        several times while one page renders."""
        pinned = _PINNED.get()
        if pinned is not None and season_id in pinned:
            return pinned[season_id]
        changes = self.database.changes()
        seen = self._seen.get(season_id)
        if changes is not None and seen is not None and seen[0] == changes:
            if pinned is not None:  # nothing committed since it was read: no query
                pinned[season_id] = seen[1]
            return seen[1]
        with self.read(season_id) as session:
            version = SeasonStore.version(session)
            cached = self._cache.get(season_id)
            if cached is None or cached.version != version:
                with self._rebuilding.setdefault(season_id, threading.Lock()):
                    cached = self._cache.get(season_id)  # maybe rebuilt while this waited
                    if cached is None or cached.version < version:
                        cached = self._rebuilt(session, season_id, version, cached)
        if changes is not None:  # read after `changes`: as new as what that number saw
            self._seen[season_id] = (changes, cached)
        if pinned is not None:
            pinned[season_id] = cached
        return cached

    def _rebuilt(self, session: Session, season_id: int, version: Version,
                 before: Snapshot | None) -> Snapshot:
        """A new snapshot, reusing what cannot have changed since `before`: the compiled
        map (the same map text reads as the same objects) and the history when no battle
        was fought since."""
        summary = summary_in(session, before.summary if before is not None else None)
        same_battles = before is not None and before.version[0] == version[0]
        history = before.history if before is not None and same_battles \
            else SeasonStore.history(session)
        same_map = before is not None and before.summary.map_data is summary.map_data
        same_fought = same_map and same_battles and before is not None \
            and before.version[2:] == version[2:]
        fresh = Snapshot(
            season_id=season_id,
            version=version,
            summary=summary,
            history=history,
            world=before.world if before is not None and same_map
            else engine.compile_world(summary.map_data),
            regions=before.regions if before is not None and same_map
            else {region["code"]: region for region in summary.map_data["regions"]},
            head=log.latest_head(session),
        )
        if same_fought and before is not None:
            fresh.fought = before.fought
        with self._lock:
            current = self._cache.get(season_id)
            if current is None or current.version <= version:
                self._cache[season_id] = fresh
        return fresh

    def snapshot_at(self, season_id: int, version: Version) -> Snapshot:
        """The snapshot of a version just read: the kept one when it is that version, else
        the season now (never older than `version`)."""
        cached = self._cache.get(season_id)
        if cached is not None and cached.version == version:
            return cached
        return self.snapshot(season_id)

    def kept_at(self, season_id: int, version: Version) -> Snapshot | None:
        """The kept snapshot if it is of `version`, else None (nothing is read or built)."""
        cached = self._cache.get(season_id)
        return cached if cached is not None and cached.version == version else None

    def snapshot_for_countdown(self, season_id: int, version: Version,
                               build: bool = True) -> Snapshot:
        """A snapshot that agrees with `version` on the battles fought, the beacon and the
        reveal: the kept one when only ledger entries came since (a contribution changes
        neither the next battle nor whether the season ended, all a countdown reads), else
        `snapshot_at`. Under a stream of contributions the page cache reads the countdown
        on every new version; rebuilding the whole snapshot there cost some 20 ms each.
        Without `build`, a LookupError rather than a read."""
        cached = self._cache.get(season_id)
        if (cached is not None and cached.version[0] == version[0]
                and cached.version[2:] == version[2:]):
            return cached
        if not build:
            raise LookupError("no snapshot of the version's battles is kept")
        return self.snapshot_at(season_id, version)

    def log_files(self, season_id: int) -> dict[str, Any]:
        """The season log and the refunds owed (public part), as the archive publishes them."""
        with self.read(season_id) as session:
            return {"log": log.log_record(session), "refunds": ledger.refunds_owed(session)}

    def battle(self, season_id: int, number: int) -> dict[str, Any]:
        """One fought history entry, or InputError naming the battle."""
        snap = self.snapshot(season_id)
        if not 1 <= number <= len(snap.history):
            raise LookupError(f"battle {number} has not been fought")
        return snap.history[number - 1]

    def world(self, season_id: int) -> dict[str, Any]:
        """The compiled map of a season (it never changes once the season exists)."""
        return self.snapshot(season_id).world

    def check_faction(self, season_id: int, code: str) -> Snapshot:
        """The snapshot, after checking that the faction exists."""
        snap = self.snapshot(season_id)
        if code not in snap.board["factions"]:
            raise InputError("faction", f"no faction has the code {code!r}")
        return snap
