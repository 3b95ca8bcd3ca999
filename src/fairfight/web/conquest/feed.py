"""A season's Atom feed (RFC 4287): one entry per aired battle, newest first.

Ids are tag URIs (RFC 4151) made from the season's commitment and the battle number, never
from the service's address or its database id, so an entry keeps its id when the service moves
or the season is served from another database. An entry's `updated` is the time of the signed
head published with its battle: the record's own clock, not the time the feed was asked for.
"""

from __future__ import annotations

import threading
from typing import Any
from xml.etree import ElementTree

from fairfight import __version__
from fairfight.conquest.rules import episodes
from fairfight.conquest.store import log
from fairfight.web.conquest import views
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot

__all__ = [
    "ATOM",
    "BattleTimes",
    "FEED_TAG",
    "NO_RECORD_TIME",
    "battle_id",
    "entry_summary",
    "feed_path",
    "season_feed",
    "season_id_tag",
]

ATOM = "http://www.w3.org/2005/Atom"
FEED_TAG = "tag:fairfight,2026"
"""The tagging entity of every id: the project's name and the year the scheme was fixed."""
NO_RECORD_TIME = "1970-01-01T00:00:00Z"
"""`updated` of a battle with no signed head and a season header with no publication time (a
season made before the season log): a fixed time, so the feed never pretends it is new."""


def feed_path(season_id: int) -> str:
    """Where a season's feed is served."""
    return f"/conquest/{season_id}/feed.atom"


def season_id_tag(commitment: str) -> str:
    """The feed's id: it names the season by its commitment."""
    return f"{FEED_TAG}:conquest/season/{commitment}"


def battle_id(commitment: str, number: int) -> str:
    """An entry's id: the season's id and the battle number (it never changes)."""
    return f"{season_id_tag(commitment)}/battle/{number}"


class BattleTimes:
    """The signed head time of each aired battle, read once per season and kept (an aired
    battle's head never changes), so a feed of 136 battles does not read 136 heads each time."""

    def __init__(self) -> None:
        self._known: dict[tuple[int, str], dict[int, str | None]] = {}
        self._lock = threading.Lock()

    def times(self, catalog: SeasonCatalog, snap: Snapshot) -> dict[int, str | None]:
        """Battle number -> its head's time (None: no head covers it)."""
        key = (snap.season_id, snap.summary.commitment)
        with self._lock:
            known = dict(self._known.get(key, {}))
        missing = [n for n in range(1, len(snap.history) + 1) if known.get(n) is None]
        if missing:
            with catalog.read(snap.season_id) as session:
                for number in missing:
                    head = log.battle_head(session, number)
                    known[number] = None if head is None else str(head["time"])
            with self._lock:
                self._known[key] = known
        return known


def entry_summary(snap: Snapshot, entry: dict[str, Any]) -> str:
    """One battle in a sentence: who beat whom at what chance, rounds, banners, regions taken."""
    line = views.battle_line(snap.season_id, entry, views.names(snap))
    rounds = f"{entry['attacker_rounds']}–{episodes.defender_rounds(entry)}"
    text = (f"{line.winner_name} ({line.winner}) beat {line.loser_name} ({line.loser}) at a "
            f"{line.winner_chance_text} battle chance; rounds {rounds} for the attacker.")
    if line.banners:
        text += " " + ", ".join(line.banners) + "."
    taken = [snap.name_of(code) for code in entry["changed_hands"]]
    if taken:
        text += " Changed hands: " + ", ".join(taken) + "."
    return text


def _element(parent: ElementTree.Element, tag: str, text: str | None = None,
             **attributes: str) -> ElementTree.Element:
    child = ElementTree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
    if text is not None:
        child.text = text
    return child


def season_feed(snap: Snapshot, times: dict[int, str | None], base_url: str) -> bytes:
    """The Atom document of the season as of `snap` (`base_url`: the service's public root)."""
    ElementTree.register_namespace("", ATOM)
    commitment = snap.summary.commitment
    fallback = snap.summary.header.get("published") or NO_RECORD_TIME
    home = base_url + views.season_url(snap.season_id)
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    _element(feed, "id", season_id_tag(commitment))
    _element(feed, "title", f"Season {snap.season_id}: {snap.summary.header['map_name']} "
             "· fairfight conquest")
    _element(feed, "subtitle", "Every aired battle of the season, newest first.")
    stamps = [times.get(n) or fallback for n in range(1, len(snap.history) + 1)]
    latest_head = None if snap.head is None else str(snap.head["time"])
    _element(feed, "updated", max(stamps, default=latest_head or fallback))
    _element(feed, "link", rel="self", type="application/atom+xml",
             href=base_url + feed_path(snap.season_id))
    _element(feed, "link", rel="alternate", type="text/html", href=home)
    author = _element(feed, "author")
    _element(author, "name", "fairfight")
    _element(feed, "generator", "fairfight", version=__version__)
    for entry in reversed(snap.history):
        number = int(entry["number"])
        line = views.battle_line(snap.season_id, entry, views.names(snap))
        item = _element(feed, "entry")
        _element(item, "id", battle_id(commitment, number))
        _element(item, "title", f"Battle {number}: {line.winner_name} beat {line.loser_name}")
        _element(item, "updated", stamps[number - 1])
        _element(item, "link", rel="alternate", type="text/html", href=base_url + line.url)
        _element(item, "summary", entry_summary(snap, entry), type="text")
    body: bytes = ElementTree.tostring(feed, encoding="utf-8", xml_declaration=True)
    return body
