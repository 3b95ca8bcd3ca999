"""What a share card says: the values drawn on an episode's, a season's or the site's card.

A card is a frozen value built from a season snapshot (every number from the engine's entries
and the episodes helpers, as the pages print them); `card_digest` hashes it with the renderer's
version, and the card's address carries that digest, so an address always names the same
picture and may be cached for a year. Drawing is `fairfight.web.conquest.card_drawing`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import TypeVar

from fairfight.conquest.maps.svg import faction_colours, load_shapes, shapes_digest
from fairfight.core.records import canonical_json
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest import episode_views, views
from fairfight.web.conquest.catalog import Snapshot

__all__ = [
    "ATTACKER_COLOUR",
    "Card",
    "CardSide",
    "DEFENDER_COLOUR",
    "DIGESTS_BYTES",
    "DIGEST_CHARS",
    "EpisodeCard",
    "LEADERS_SHOWN",
    "LeaderLine",
    "MapThumbnail",
    "NEUTRAL_COLOUR",
    "RENDERER_VERSION",
    "SeasonCard",
    "SiteCard",
    "card_digest",
    "card_path",
    "episode_card",
    "season_card",
    "thumbnail_map",
]

RENDERER_VERSION = "1"
"""Bumped whenever the drawing changes, so every card gets a new address."""
DIGEST_CHARS = 16
"""Hex digits of the SHA-256 kept in a card's address (64 bits: no two cards share one)."""
LEADERS_SHOWN = 5
"""Standings rows on a season's card."""
ATTACKER_COLOUR = "#2457a6"
"""The attacker's side on a card: the odds bar's colours on the episode page."""
DEFENDER_COLOUR = "#d9a441"
NEUTRAL_COLOUR = "#e3e6eb"
"""Regions that took no part in the battle, on an episode's map."""


@dataclass(frozen=True, slots=True)
class MapThumbnail:
    """A small map: which shipped outlines, each region's fill, the regions outlined, and the
    regions the picture is framed on (empty: the whole map)."""

    shapes: str
    fills: tuple[tuple[str, str], ...]
    outlined: tuple[str, ...] = ()
    focus: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CardSide:
    """One fighter on an episode's card."""

    code: str
    name: str
    won: bool


@dataclass(frozen=True, slots=True)
class EpisodeCard:
    """An episode's result: both sides, who won, the rounds, the battle chance."""

    season: int
    number: int
    map_name: str
    attacker: CardSide
    defender: CardSide
    attacker_rounds: int
    defender_rounds: int
    chance_permille: int
    chance_text: str
    before_text: str | None
    banners: tuple[str, ...]
    taken: tuple[str, ...]
    champion_text: str | None
    thumbnail: MapThumbnail | None


@dataclass(frozen=True, slots=True)
class LeaderLine:
    """One row of a season card's standings."""

    code: str
    name: str
    holdings: int
    colour: str


@dataclass(frozen=True, slots=True)
class SeasonCard:
    """A season at a glance: battles aired, the leaders, the map by holder."""

    season: int
    map_name: str
    battles: int
    max_battles: int | None
    next_battle: int | None
    champion_text: str | None
    leaders: tuple[LeaderLine, ...]
    factions_standing: int
    thumbnail: MapThumbnail | None


@dataclass(frozen=True, slots=True)
class SiteCard:
    """The card of pages outside a season: the service's name and what it offers."""

    title: str
    tagline: str
    sections: tuple[str, ...]


Card = EpisodeCard | SeasonCard | SiteCard
_Built = TypeVar("_Built")
DIGESTS_BYTES = 2 * 1024 * 1024
"""Bytes of cards whose digest is kept per process, by `deep_size` of the card (the key: an
episode's or season's card with its map's colours weighs some 18 KB, so about 110 cards)."""
_DIGESTS: ByteCappedCache[Card, str] = ByteCappedCache(DIGESTS_BYTES, deep_size,
                                                       key_size_of=deep_size)


def _kind(card: Card) -> str:
    return {EpisodeCard: "episode", SeasonCard: "season", SiteCard: "site"}[type(card)]


def card_digest(card: Card, kept: ByteCappedCache[Card, str] = _DIGESTS) -> str:
    """The SHA-256 (first `DIGEST_CHARS` hex digits) of everything the picture is drawn from:
    the card's values, the outlines' digest when it has a map, and the renderer's version
    (worked out once while the card stays in `kept`)."""
    return kept.get_or_make(card, lambda: _digest(card))


def _digest(card: Card) -> str:
    thumbnail = getattr(card, "thumbnail", None)
    inputs = {
        "renderer": RENDERER_VERSION,
        "kind": _kind(card),
        "card": asdict(card),
        "outlines": None if thumbnail is None else shapes_digest(thumbnail.shapes)[1],
    }
    return hashlib.sha256(canonical_json(inputs)).hexdigest()[:DIGEST_CHARS]


def card_path(card: Card) -> str:
    """The card's address (a path): its kind, its season and battle, its digest."""
    digest = card_digest(card)
    if isinstance(card, EpisodeCard):
        return f"/conquest/{card.season}/cards/episode-{card.number}-{digest}.png"
    if isinstance(card, SeasonCard):
        return f"/conquest/{card.season}/cards/season-{digest}.png"
    return f"/cards/site-{digest}.png"


@cache
def _shipped_outlines() -> dict[frozenset[str], str]:
    folder = resources.files("fairfight.conquest").joinpath("maps")
    found = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".shapes.json"):
            name = entry.name.removesuffix(".shapes.json")
            found[frozenset(load_shapes(name))] = name
    return found


def thumbnail_map(region_codes: frozenset[str]) -> str | None:
    """The shipped outlines whose regions are exactly the season's (None: nothing to draw)."""
    return _shipped_outlines().get(region_codes)


def _owners_before(snap: Snapshot, number: int) -> dict[str, str]:
    state = views.map_state(snap, number - 1)
    return {region.code: region.owner for region in state.regions}


def _episode_thumbnail(snap: Snapshot, number: int) -> MapThumbnail | None:
    shapes = thumbnail_map(frozenset(snap.regions))
    if shapes is None:
        return None
    entry = snap.history[number - 1]
    colour = {entry["attacker"]: ATTACKER_COLOUR, entry["defender"]: DEFENDER_COLOUR}
    owners = _owners_before(snap, number)
    fills = tuple((code, colour.get(owner, NEUTRAL_COLOUR)) for code, owner in owners.items())
    sides = {code for code, owner in owners.items() if owner in colour}
    taken = tuple(entry["changed_hands"])
    return MapThumbnail(shapes, fills, taken, tuple(sorted(sides | set(taken))))


def _memoised(snap: Snapshot, key: str, build: Callable[[], _Built]) -> _Built:
    """`build()`, once per snapshot (a snapshot is one version of the season)."""
    found: _Built = snap.views.get_or_make(key, build)
    return found


def episode_card(snap: Snapshot, number: int) -> EpisodeCard:
    """Battle `number`'s card, from the episode page's own view (an aired battle never
    changes)."""
    card: EpisodeCard = snap.fought.get_or_make(f"share-card:episode:{number}",
                                                lambda: _episode_card(snap, number))
    return card


def _episode_card(snap: Snapshot, number: int) -> EpisodeCard:
    shown = episode_views.episode(snap, number)
    odds = shown.odds
    return EpisodeCard(
        season=snap.season_id,
        number=number,
        map_name=snap.summary.header["map_name"],
        attacker=CardSide(shown.attacker.faction, shown.attacker.name,
                          shown.winner == shown.attacker.faction),
        defender=CardSide(shown.defender.faction, shown.defender.name,
                          shown.winner == shown.defender.faction),
        attacker_rounds=shown.attacker_rounds,
        defender_rounds=shown.defender_rounds,
        chance_permille=odds.after_permille,
        chance_text=odds.after_text,
        before_text=None if odds.before == odds.after else odds.before_text,
        banners=tuple(shown.banners),
        taken=tuple(shown.changed_hands),
        champion_text=shown.champion_text,
        thumbnail=_episode_thumbnail(snap, number),
    )


def season_card(snap: Snapshot) -> SeasonCard:
    """The season's card as of this snapshot (a new battle gives a new card and address).
    Made once for the battles fought: it prints the standing factions by regions held, the
    battles and the champion, and a contribution only adds to a pool
    (`engine.apply_contribution`)."""
    card: SeasonCard = snap.fought.get_or_make("share-card:season", lambda: _season_card(snap))
    return card


def _season_card(snap: Snapshot) -> SeasonCard:
    shapes = thumbnail_map(frozenset(snap.regions))
    palette = faction_colours(shapes) if shapes else {}
    owners = {region.code: region.owner for region in views.map_state(snap).regions}
    season = views.season_view(snap, payments_only=False)
    leaders = tuple(
        LeaderLine(row.faction, row.name, row.holdings, palette.get(row.faction, NEUTRAL_COLOUR))
        for row in season.standings if row.standing
    )
    return SeasonCard(
        season=snap.season_id,
        map_name=season.map_name,
        battles=season.battles,
        max_battles=season.max_battles,
        next_battle=None if season.ended else season.next_battle,
        champion_text=season.champion_text,
        leaders=leaders[:LEADERS_SHOWN],
        factions_standing=len(leaders),
        thumbnail=None if shapes is None else MapThumbnail(
            shapes, tuple((code, palette.get(owner, NEUTRAL_COLOUR))
                          for code, owner in sorted(owners.items()))),
    )
