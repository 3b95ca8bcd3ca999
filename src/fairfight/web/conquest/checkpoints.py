"""Each season's signed heads served as C2SP checkpoint notes, and the key to check them.

The origin names the service by the host of its configured `public_url` and the season by its
commitment (`conquest.store.checkpoints.origin`). Without a `public_url` the host is
`localhost`, never the request's `Host`: a log's origin must not change with the name a client
used to reach it (nor may any client make the service sign under names of its choosing). A
note is signed once per head and origin, in a writing transaction (the only kind that holds
the season key): the newest is kept here until a newer head exists, older ones (asked for by
size) in a bounded table, the first asked for dropped first. A size no head has is refused
from a reading transaction, so only a real head ever takes the write lock.
"""

from __future__ import annotations

import threading
from urllib.parse import urlsplit

from fastapi import Request

from fairfight.conquest.rules import tables
from fairfight.conquest.store import checkpoints, cosignatures, log
from fairfight.core.signed_note import NoteError
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.refusals import Refusal

__all__ = ["CheckpointNotes", "OLD_NOTES_KEPT", "UNCONFIGURED_HOST", "configured_host",
           "public_host"]

OLD_NOTES_KEPT = 4096
"""How many notes of older heads are kept signed (about 300 bytes each)."""

UNCONFIGURED_HOST = "localhost"
"""The origin's host when no `public_url` is configured."""


def public_host(request: Request) -> str:
    """The host of the service's public URL (`localhost` when none is configured)."""
    return configured_host(getattr(request.app.state.settings, "public_url", None))


def configured_host(configured: str | None) -> str:
    """The host (and port) of a configured public URL, `localhost` for none; a URL without a
    usable host is refused (400 naming `public_url`)."""
    if not configured:
        return UNCONFIGURED_HOST
    parts = urlsplit(configured)
    try:  # the host and port only: never the user name or password a URL may carry
        name, port = parts.hostname or "", parts.port
    except ValueError:
        name, port = "", None
    host = (f"[{name}]" if ":" in name else name) + (f":{port}" if port else "")
    if not name or "+" in host or any(c.isspace() for c in host):
        raise Refusal(400, "public_url", f"{configured!r} names no host a log origin can use")
    return host


class CheckpointNotes:
    """Signed checkpoint notes by (season, origin host), each the newest head's when signed."""

    def __init__(self, catalog: SeasonCatalog) -> None:
        self._catalog = catalog
        self._notes: dict[tuple[int, str], checkpoints.Signed] = {}
        self._old: dict[tuple[int, str, int], str] = {}
        self._lock = threading.Lock()

    def _log_of(self, season_id: int) -> tuple[int, str, str]:
        """(newest head's size, commitment, log key) of a season; 404 without a log."""
        snap = self._catalog.snapshot(season_id)
        key = snap.summary.header.get(tables.LOG_KEY)
        if snap.head is None or not isinstance(key, str):
            raise Refusal(404, "season", f"season {season_id} keeps no signed log")
        return int(snap.head["size"]), str(snap.head["season"]), key

    def note(self, season_id: int, host: str, size: int | None = None) -> str:
        """The checkpoint of the head of `size` leaves, the newest when None (each signed
        once); 404 naming the size when no head has it."""
        with self._catalog.read(season_id) as session:
            newest = log.size(session)  # one small read: the snapshot would load the season
            exists = size is None or checkpoints.head_of_size(session, size) is not None
        if newest == 0:
            raise Refusal(404, "season", f"season {season_id} keeps no signed log")
        if not exists:
            raise Refusal(404, "size", f"no signed head of season {season_id} covers exactly "
                          f"{size} leaves")
        if size is not None and size != newest:
            return self._old_note(season_id, host, size)
        with self._lock:
            kept = self._notes.get((season_id, host))
        if kept is not None and kept[0] >= newest:
            return kept[1]
        signed = self._sign(season_id, host, newest)  # never a head committed since the read
        with self._lock:
            if (season_id, host) not in self._notes or self._notes[season_id, host][0] < signed[0]:
                self._notes[season_id, host] = signed
        return signed[1]

    def _old_note(self, season_id: int, host: str, size: int) -> str:
        with self._lock:
            kept = self._old.get((season_id, host, size))
        if kept is not None:
            return kept
        signed = self._sign(season_id, host, size)
        with self._lock:
            while len(self._old) >= OLD_NOTES_KEPT:
                del self._old[next(iter(self._old))]
            self._old[season_id, host, size] = signed[1]
        return signed[1]

    def _sign(self, season_id: int, host: str, size: int | None) -> checkpoints.Signed:
        with self._catalog.database.transaction(season_id, write=True) as session:
            signed = checkpoints.sign_checkpoint(session, host, size)
        if signed is None:
            raise Refusal(404, "season", f"season {season_id} keeps no signed log")
        return signed

    def cosigned_note(self, season_id: int, host: str, size: int | None = None) -> str:
        """The checkpoint with every stored witness cosignature of it appended (C2SP notes
        allow signature lines a client does not know; it skips them)."""
        note = self.note(season_id, host, size)
        origin, stated = note.split("\n", 2)[:2]
        with self._catalog.read(season_id) as session:
            return note + "".join(cosignatures.lines(session, origin, int(stated)))

    def vkey(self, season_id: int, host: str) -> str:
        """The verifier key (`<origin>+<key id>+<base64 key>`) the season's checkpoints name."""
        _, commitment, key = self._log_of(season_id)
        try:
            return checkpoints.verifier(host, commitment, key).vkey()
        except (NoteError, ValueError):
            raise Refusal(404, "season", f"season {season_id} has no usable log key") from None
