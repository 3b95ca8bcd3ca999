"""Sharing the show over HTTP: card pictures under content-hashed addresses, the share tags of
every page, the Atom feed read back by feedparser, and framing allowed for the embed only."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
import struct
import zlib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import feedparser
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season
from fairfight.core.records import canonical_json
from fairfight.web import WebSettings, create_app
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest import card_drawing
from fairfight.web.conquest.card_drawing import RenderedCards, render_card
from fairfight.web.conquest.demo_season import build_demo_season
from fairfight.web.conquest.share_cards import (
    DIGEST_CHARS,
    RENDERER_VERSION,
    Card,
    SiteCard,
    card_digest,
)
from tests.web.conquest_support import SEED, make_app

PAGE_KINDS = {
    "front": "/",
    "seasons": "/conquest",
    "season home": "/conquest/1",
    "battles": "/conquest/1/battles",
    "episode": "/conquest/1/battles/2",
    "faction": "/conquest/1/factions/SX",
    "verify": "/conquest/1/verify",
    "rules": "/conquest/rules",
    "record verifier": "/verify",
    "clash": "/clash/exchange",
    "ballot": "/ballot",
    "warscore": "/warscore",
    "not found": "/conquest/1/battles/999",
}
CARD = re.compile(r"^/conquest/1/cards/(episode-(\d+)|season)-([0-9a-f]{16})\.png$")
ODD_SUFFIX = ' <b>&amp; "Co" \'s'
"""Added to every region's name in the escaping test: markup, an entity, both quotes."""


class _Head(HTMLParser):
    """The meta tags and alternate links of a page's head."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.alternates: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "meta" and ("property" in found or "name" in found):
            self.meta[found.get("property") or found["name"]] = found.get("content", "")
        if tag == "link" and found.get("rel") == "alternate":
            self.alternates.append(found)


def _head(html: str) -> _Head:
    parser = _Head()
    parser.feed(html)
    return parser


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG signature and IHDR chunk, with its CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    body = data[16:29]
    assert struct.unpack(">I", data[29:33])[0] == zlib.crc32(b"IHDR" + body)
    width, height = struct.unpack(">II", body[:8])
    assert data[-12:] == b"\x00\x00\x00\x00IEND\xaeB`\x82"
    return width, height


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def _og_image(client: TestClient, page: str) -> str:
    return _head(client.get(page).text).meta["og:image"]


def test_every_page_kind_carries_absolute_share_tags(client: TestClient) -> None:
    for kind, page in PAGE_KINDS.items():
        response = client.get(page)
        tags = _head(response.text).meta
        for name in ("og:title", "og:description", "og:image", "og:url", "twitter:card",
                     "twitter:image", "description", "og:image:alt"):
            assert tags.get(name), f"{kind}: {name} missing"
        assert tags["twitter:card"] == "summary_large_image", kind
        assert tags["og:url"] == "http://testserver" + page.split("?")[0], kind
        assert tags["og:image"].startswith("http://testserver/"), kind
        assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630"), kind
        title = re.search(r"<title>(.*?)</title>", response.text, re.S)
        assert title and tags["og:title"] == title.group(1).replace("&amp;", "&"), kind
        image = client.get(_path(tags["og:image"]))
        assert image.status_code == 200 and image.headers["content-type"] == "image/png", kind


def test_season_pages_share_their_card_and_feed_outside_pages_the_site_card(
        client: TestClient) -> None:
    episode = _head(client.get("/conquest/1/battles/2").text)
    assert CARD.match(_path(episode.meta["og:image"])).group(2) == "2"  # type: ignore[union-attr]
    assert "Battle 2 of season 1" in episode.meta["og:description"]
    for page in ("/conquest/1", "/conquest/1/battles", "/conquest/1/factions/SX",
                 "/conquest/1/verify", "/"):
        found = _head(client.get(page).text)
        assert "/conquest/1/cards/season-" in found.meta["og:image"], page
        feeds = [link for link in found.alternates
                 if link.get("type") == "application/atom+xml"]
        assert [link["href"] for link in feeds] == ["http://testserver/conquest/1/feed.atom"]
    assert "/conquest/1/cards/season-" in _og_image(client, "/conquest/1/battles/999")
    for page in ("/conquest/rules", "/verify", "/ballot", "/conquest/9"):
        assert "/cards/site-" in _og_image(client, page), page


def test_public_url_setting_makes_the_share_addresses(season_file: Path) -> None:
    app = create_app(WebSettings(database_url=f"sqlite:///{season_file}", forecast_seasons=0,
                                 public_url="https://show.example.org/"))
    with TestClient(app) as public:
        tags = _head(public.get("/conquest/1/battles/3").text).meta
    assert tags["og:url"] == "https://show.example.org/conquest/1/battles/3"
    assert tags["og:image"].startswith("https://show.example.org/conquest/1/cards/episode-3-")


def test_card_is_a_1200_by_630_png_drawn_the_same_every_time(season_file: Path) -> None:
    urls, pictures = [], []
    for _ in range(2):  # two services over the same season: nothing carried between them
        with TestClient(make_app(season_file)) as fresh:
            url = _path(_og_image(fresh, "/conquest/1/battles/2"))
            response = fresh.get(url)
            assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
            urls.append(url)
            pictures.append(response.content)
    assert urls[0] == urls[1] and pictures[0] == pictures[1]
    assert _png_size(pictures[0]) == (1200, 630)
    with Image.open(io.BytesIO(pictures[0])) as image:
        image.verify()
    with Image.open(io.BytesIO(pictures[0])) as image:
        assert image.size == (1200, 630) and image.mode == "RGB"
        # the odds bar's two colours are drawn (attacker blue, defender gold)
        colours = {colour for _, colour in image.getcolors(1 << 20) or []}
        assert (0x24, 0x57, 0xA6) in colours and (0xD9, 0xA4, 0x41) in colours


def test_each_episode_has_its_own_address_and_a_new_battle_moves_the_seasons(
        client: TestClient, season_file: Path) -> None:
    episodes = {_path(_og_image(client, f"/conquest/1/battles/{n}")) for n in range(1, 7)}
    assert len(episodes) == 6 and all(CARD.match(url) for url in episodes)
    before = _path(_og_image(client, "/conquest/1"))
    first_episode = _path(_og_image(client, "/conquest/1/battles/1"))
    list(season.fight(season_file, 1))
    after = _path(_og_image(client, "/conquest/1"))
    assert after != before and CARD.match(after)
    assert _path(_og_image(client, "/conquest/1/battles/1")) == first_episode
    stale = client.get(before, follow_redirects=False)
    assert stale.status_code == 302 and stale.headers["location"] == after
    assert stale.headers["cache-control"] == "no-cache"
    assert client.get(after).status_code == 200


def test_wrong_digest_redirects_and_unknown_battle_is_not_found(client: TestClient) -> None:
    current = _path(_og_image(client, "/conquest/1/battles/4"))
    for wrong in ("0123456789abcdef", "not-a-digest", "0" * 64):
        response = client.get(f"/conquest/1/cards/episode-4-{wrong}.png",
                              follow_redirects=False)
        assert response.status_code == 302 and response.headers["location"] == current
    assert client.get("/conquest/1/cards/episode-99-0123456789abcdef.png").status_code == 404
    assert client.get("/conquest/7/cards/season-0123456789abcdef.png").status_code == 404


def test_rendered_cards_stay_within_their_byte_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    cards = [SiteCard("fairfight", f"tagline {n}", ("Conquest",)) for n in range(4)]
    sizes = [len(render_card(card)) for card in cards]
    drawn: list[SiteCard] = []

    def counting(card: SiteCard) -> bytes:
        drawn.append(card)
        return render_card(card)

    monkeypatch.setattr(card_drawing, "render_card", counting)
    kept = RenderedCards(max_bytes=sizes[2] + sizes[3] + 10)
    for card in cards:
        kept.png(card)
        assert kept.kept_bytes <= kept.max_bytes
    assert kept.kept_bytes == sizes[2] + sizes[3]
    assert len(drawn) == 4
    assert kept.png(cards[3]) == render_card(cards[3]) and len(drawn) == 4  # kept: not drawn
    kept.png(cards[0])  # dropped when the bound was passed: drawn again
    assert len(drawn) == 5 and kept.kept_bytes <= kept.max_bytes


def test_card_digests_stay_within_their_byte_budget() -> None:
    """Digests are kept by card, weighed with the card; past the budget the least recently
    asked are dropped and worked out again, to the same digest."""
    cards = [SiteCard("fairfight", f"tagline {n}", ("Conquest", "Clash")) for n in range(6)]
    one = deep_size(cards[0]) + deep_size("0" * DIGEST_CHARS)
    budget = one * 5 // 2   # room for two cards, not three
    kept: ByteCappedCache[Card, str] = ByteCappedCache(budget, deep_size, key_size_of=deep_size)
    for card in cards:
        by_hand = hashlib.sha256(canonical_json({
            "renderer": RENDERER_VERSION, "kind": "site", "card": dataclasses.asdict(card),
            "outlines": None})).hexdigest()[:DIGEST_CHARS]
        assert card_digest(card, kept) == by_hand
        assert kept.bytes_used <= budget
    assert len(kept) == 2 and kept.get(cards[-1]) is not None and kept.get(cards[0]) is None


# ----------------------------------------------------------------------------- the feed


def test_feed_parses_with_stable_ids_record_times_and_a_self_link(
        client: TestClient, season_file: Path) -> None:
    response = client.get("/conquest/1/feed.atom")
    assert response.headers["content-type"].startswith("application/atom+xml")
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    summary = season.summary(season_file)
    commitment = summary.commitment
    assert parsed.feed.id == f"tag:fairfight,2026:conquest/season/{commitment}"
    selfs = [link.href for link in parsed.feed.links if link.rel == "self"]
    assert selfs == ["http://testserver/conquest/1/feed.atom"]
    assert len(parsed.entries) == summary.battles == 6
    ids = [entry.id for entry in parsed.entries]
    assert ids == [f"tag:fairfight,2026:conquest/season/{commitment}/battle/{n}"
                   for n in range(6, 0, -1)]
    for entry in parsed.entries:
        number = int(entry.id.rsplit("/", 1)[1])
        assert entry.link == f"http://testserver/conquest/1/battles/{number}"
        page = client.get(f"/conquest/1/battles/{number}").text
        signed = re.search(r"<dt>Signed</dt><dd class=\"mono\">([^<]+)</dd>", page)
        assert signed and entry.updated == signed.group(1)
        assert " beat " in entry.summary and "battle chance" in entry.summary
    assert parsed.feed.updated == max(entry.updated for entry in parsed.entries)
    # the same ids from another service over the same season, and after another battle
    with TestClient(make_app(season_file)) as other:
        again = feedparser.parse(other.get("/conquest/1/feed.atom").content)
    assert [entry.id for entry in again.entries] == ids
    list(season.fight(season_file, 1))
    grown = feedparser.parse(client.get("/conquest/1/feed.atom").content)
    assert [entry.id for entry in grown.entries] == [ids[0].replace("/6", "/7"), *ids]


@pytest.fixture(scope="module")
def odd_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo season whose region names all end in markup, an entity and quotes."""
    chosen = scenario.load_map("north-america")
    for region in chosen["regions"]:
        region["name"] = region["name"] + ODD_SUFFIX
    path = tmp_path_factory.mktemp("odd-names") / "season.db"
    build_demo_season(path, seed=SEED, map_data=chosen)
    return path


@pytest.fixture
def odd_client(odd_names: Path) -> Iterator[TestClient]:
    with TestClient(make_app(odd_names)) as test_client:
        yield test_client


def test_feed_and_tags_escape_names(odd_client: TestClient, odd_names: Path,
                                    client: TestClient) -> None:
    raw = odd_client.get("/conquest/1/feed.atom").content
    assert b"<b>" not in raw
    parsed = feedparser.parse(raw)
    assert not parsed.bozo, parsed.get("bozo_exception")
    history = season.summary(odd_names)
    names = {region["code"]: region["name"] for region in history.map_data["regions"]}
    newest = parsed.entries[0]
    assert newest.title.count(ODD_SUFFIX) == 2, newest.title
    assert any(names[code] in newest.summary for code in names)
    tags = _head(odd_client.get("/conquest/1/battles/1").text).meta
    assert tags["og:description"].count(ODD_SUFFIX) == 2
    assert odd_client.get(_path(tags["og:image"])).status_code == 200
    # the same battle with other names is another picture, so another address
    plain = _path(_og_image(client, "/conquest/1/battles/1"))
    assert CARD.match(plain) and plain != _path(tags["og:image"])


# ----------------------------------------------------------------------------- framing


def _frames_refused(headers: Any) -> bool:
    policy = headers.get("content-security-policy", "")
    return headers.get("x-frame-options") == "DENY" and "frame-ancestors 'none'" in policy


def test_only_the_embed_may_be_framed(client: TestClient) -> None:
    embed = client.get("/embed/seasons/1")
    assert embed.status_code == 200
    assert "x-frame-options" not in embed.headers
    assert "frame-ancestors *" in embed.headers["content-security-policy"]
    assert "script-src 'self'" in embed.headers["content-security-policy"]
    for page in ("/", "/conquest/1", "/conquest/1/battles/2", "/conquest/1/feed.atom",
                 _path(_og_image(client, "/conquest/1")), "/api/health", "/no/such/page",
                 "/static/conquest/embed.js", "/embedded", "/conquest/embed/seasons/1"):
        assert _frames_refused(client.get(page).headers), page
    assert client.get("/embed/seasons/9").status_code == 404


def test_embed_shows_standings_next_battle_and_its_script(client: TestClient) -> None:
    html = client.get("/embed/seasons/1").text
    assert 'id="embed-standings"' in html and "next is <strong>battle 7</strong>" in html
    assert '<script src="/static/conquest/embed.js" defer></script>' in html
    assert "<script>" not in html
    rows = re.findall(r'<tr data-faction="([^"]+)"', html)
    standings = client.get("/api/seasons/1/standings").json()
    listed = standings["standings"] if isinstance(standings, dict) else standings
    assert rows == [row["faction"] for row in listed][:10]
    script = client.get("/static/conquest/embed.js").text
    assert 'type: "fairfight:height"' in script and "postMessage" in script
    home = client.get("/conquest/1").text
    assert "&lt;iframe id=&#34;fairfight-season-1&#34;" in home or \
        "&lt;iframe id=\"fairfight-season-1\"" in home
    assert "http://testserver/embed/seasons/1" in home


def test_a_season_on_a_map_without_outlines_gets_cards_without_a_map(tmp_path: Path) -> None:
    path = tmp_path / "generated.db"
    chosen = synthetic_map(12, 16, 4)
    for region in chosen["regions"]:
        region["name"] = f"{region['name']}, a region whose name is far too long for a card"
    season.create_season(path, chosen, "generated", seed=SEED)
    list(season.fight(path, 2))
    with TestClient(make_app(path)) as generated:
        for page in ("/conquest/1", "/conquest/1/battles/1", "/conquest/1/battles/2"):
            picture = generated.get(_path(_og_image(generated, page)))
            assert picture.status_code == 200, page
            assert _png_size(picture.content) == (1200, 630), page
