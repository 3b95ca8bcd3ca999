"""Draw a share card (`fairfight.web.conquest.share_cards`) as a 1200×630 PNG with Pillow.

The letters are DejaVu Sans, shipped in the package (`fairfight/web/fonts`, licence beside
it), so nothing is read from the system and every machine draws the same picture; the font
inside Pillow has no accented letters, and region names have them. The map thumbnail is drawn
from the shipped outlines (`maps/<name>.shapes.json`) at twice the size and halved, which
smooths the polygons' edges. Drawing only lays out what the card says; it computes no game number.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from functools import cache
from importlib.resources import files

from PIL import Image, ImageDraw, ImageFont

from fairfight.conquest.maps.svg import BORDER, CHANGED, INSETS, SEA, load_shapes
from fairfight.web.byte_cache import ByteCappedCache
from fairfight.web.conquest.share_cards import (
    ATTACKER_COLOUR,
    DEFENDER_COLOUR,
    Card,
    CardSide,
    EpisodeCard,
    MapThumbnail,
    SeasonCard,
    SiteCard,
    card_digest,
)

__all__ = [
    "CACHE_BYTES",
    "CARD_SIZE",
    "RenderedCards",
    "blank_png",
    "draw_thumbnail",
    "render_card",
]

CARD_SIZE = (1200, 630)
"""Open Graph's recommended picture size (1.91:1)."""
CACHE_BYTES = 16 * 1024 * 1024
"""PNG bytes of rendered cards kept per process (about 250 cards of some 65 KB)."""
_MARGIN = 56
_MAP_BOX = (700, 56, 1144, 574)
"""Where the map sits on a card: left, top, right, bottom."""
_PAPER, _INK, _MUTED, _LINE = "#fbfbfc", "#1d2330", "#5b6473", "#d6dae1"
_ACCENT, _GOOD, _BAD, _WARN = "#2457a6", "#1f7a3f", "#b3261e", "#a15c00"
_BANNER_COLOURS = {"UPSET": _WARN, "FAN POWER": _GOOD, "SECURED": _GOOD, "FAN CLASH": _BAD,
                   "REBELLION": _ACCENT}
_SUPERSAMPLE = 2
_MIN_FRAME_KM = 700
"""The smallest stretch of land an episode's map shows, so a battle of islands has context."""
_MARKER_PX = 7
_MARKED_FOCUS = 8
"""Up to this many regions in a battle, each small one gets a marker (beyond, only the taken)."""
_RING_PX = 40
"""Battles whose regions span fewer pixels than this are also circled, so they can be found."""
_STEP = re.compile(r"[Mlz]|-?\d+")
_Ring = list[tuple[int, int]]


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(files("fairfight.web") / "fonts" / name), size)


def _width(draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool = False) -> float:
    return draw.textlength(text, font=_font(size, bold))


def _fitted(draw: ImageDraw.ImageDraw, text: str, widest: float, size: int,
            smallest: int, bold: bool = False) -> tuple[str, int]:
    """The largest size from `size` down to `smallest` that fits; then the text cut short."""
    while size > smallest and _width(draw, text, size, bold) > widest:
        size -= 2
    while len(text) > 1 and _width(draw, text, size, bold) > widest:
        text = text[:-2] + "…"
    return text, size


def _lines(draw: ImageDraw.ImageDraw, text: str, widest: float, size: int,
           most: int) -> list[str]:
    """`text` broken at spaces into at most `most` lines that fit (the last cut short)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _width(draw, f"{lines[-1]} {word}", size) <= widest:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1:])]
    return [_fitted(draw, line, widest, size, size)[0] for line in lines]


def _text(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, size: int,
          fill: str = _INK, *, bold: bool = False, anchor: str = "la") -> None:
    draw.text(at, text, font=_font(size, bold), fill=fill, anchor=anchor)


def _pill(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, colour: str,
          size: int = 20) -> float:
    """A banner as a rounded label; returns its right edge."""
    x, y = at
    width = _width(draw, text, size, bold=True) + 24
    draw.rounded_rectangle((x, y, x + width, y + size + 14), radius=8, fill=colour)
    _text(draw, (x + 12, y + 7), text, size, "#ffffff", bold=True)
    return x + width


# ----------------------------------------------------------------------------- the map


@cache
def _rings(shapes: str) -> dict[str, tuple[_Ring, ...]]:
    """Every region's outline as point lists, from its SVG path data (M, relative l, z)."""
    found: dict[str, tuple[_Ring, ...]] = {}
    for code, shape in load_shapes(shapes).items():
        rings: list[_Ring] = []
        tokens = _STEP.findall(shape.path)
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token == "M":
                x, y = int(tokens[index + 1]), int(tokens[index + 2])
                rings.append([(x, y)])
                index += 3
            elif token in ("l", "z"):
                index += 1
            else:
                x, y = x + int(token), y + int(tokens[index + 1])
                rings[-1].append((x, y))
                index += 2
        found[code] = tuple(rings)
    return found


def _frame(thumbnail: MapThumbnail, aspect: float) -> tuple[float, float, float, float]:
    """The stretch of map shown (west, north, east, south, km) at the box's aspect."""
    shapes = load_shapes(thumbnail.shapes)
    moved = {code for inset in INSETS.get(thumbnail.shapes, ()) for code in inset.only}
    chosen = [code for code in thumbnail.focus if code in shapes] or [
        code for code in shapes if code not in moved]
    west = min(shapes[c].bounds[0] for c in chosen)
    north = min(shapes[c].bounds[1] for c in chosen)
    east = max(shapes[c].bounds[2] for c in chosen)
    south = max(shapes[c].bounds[3] for c in chosen)
    pad = 1.25 if thumbnail.focus else 1.04
    width = max((east - west) * pad, _MIN_FRAME_KM if thumbnail.focus else 1)
    height = max((south - north) * pad, _MIN_FRAME_KM if thumbnail.focus else 1)
    width, height = max(width, height * aspect), max(height, width / aspect)
    middle_x, middle_y = (west + east) / 2, (north + south) / 2
    return (middle_x - width / 2, middle_y - height / 2,
            middle_x + width / 2, middle_y + height / 2)


def _circle_small_focus(draw: ImageDraw.ImageDraw, thumbnail: MapThumbnail,
                        placing: tuple[float, float, float]) -> None:
    west, north, scale = placing
    shapes = load_shapes(thumbnail.shapes)
    boxes = [shapes[code].bounds for code in thumbnail.focus]
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    if max(right - left, bottom - top) * scale >= _RING_PX * _SUPERSAMPLE:
        return
    x, y = ((left + right) / 2 - west) * scale, ((top + bottom) / 2 - north) * scale
    radius = _RING_PX * _SUPERSAMPLE
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), outline=CHANGED,
                 width=3 * _SUPERSAMPLE)


def draw_thumbnail(thumbnail: MapThumbnail, size: tuple[int, int]) -> Image.Image:
    """The map, coloured as the card says, framed on its focus, `size` pixels."""
    big = (size[0] * _SUPERSAMPLE, size[1] * _SUPERSAMPLE)
    image = Image.new("RGB", big, SEA)
    draw = ImageDraw.Draw(image)
    west, north, east, south = _frame(thumbnail, size[0] / size[1])
    scale = big[0] / (east - west)
    shapes, rings = load_shapes(thumbnail.shapes), _rings(thumbnail.shapes)
    fills = dict(thumbnail.fills)
    outlined = set(thumbnail.outlined)
    moved = {code for inset in INSETS.get(thumbnail.shapes, ()) for code in inset.only}
    markers: list[tuple[str, float, float]] = []
    order = sorted(fills, key=lambda code: code in outlined)
    for code in order:
        bounds = shapes[code].bounds
        if (bounds[2] < west or bounds[0] > east or bounds[3] < north or bounds[1] > south
                or (code in moved and code not in thumbnail.focus)):
            continue
        line, width = (CHANGED, 3 * _SUPERSAMPLE) if code in outlined else (BORDER, 1)
        for ring in rings[code]:
            points = [((x - west) * scale, (y - north) * scale) for x, y in ring]
            draw.polygon(points, fill=fills[code], outline=line, width=width)
        seen = max(bounds[2] - bounds[0], bounds[3] - bounds[1]) * scale / _SUPERSAMPLE
        few = len(thumbnail.focus) <= _MARKED_FOCUS
        if seen < _MARKER_PX * 2 and (code in outlined or few and code in thumbnail.focus):
            label = shapes[code].label
            markers.append((code, (label[0] - west) * scale, (label[1] - north) * scale))
    if thumbnail.focus:
        _circle_small_focus(draw, thumbnail, (west, north, scale))
    radius = _MARKER_PX * _SUPERSAMPLE
    for code, x, y in markers:
        line = CHANGED if code in outlined else BORDER
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fills[code],
                     outline=line, width=2 * _SUPERSAMPLE)
    return image.reduce(_SUPERSAMPLE)


def _map(image: Image.Image, draw: ImageDraw.ImageDraw, thumbnail: MapThumbnail | None) -> None:
    left, top, right, bottom = _MAP_BOX
    if thumbnail is None:
        draw.rounded_rectangle(_MAP_BOX, radius=14, fill="#eef1f5", outline=_LINE, width=2)
        _text(draw, ((left + right) / 2, (top + bottom) / 2), "no drawn map", 24, _MUTED,
              anchor="mm")
        return
    picture = draw_thumbnail(thumbnail, (right - left, bottom - top))
    mask = Image.new("L", picture.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, *picture.size), radius=14, fill=255)
    image.paste(picture, (left, top), mask)
    draw.rounded_rectangle(_MAP_BOX, radius=14, outline=_LINE, width=2)


# ----------------------------------------------------------------------------- the cards


def _kicker(draw: ImageDraw.ImageDraw, text: str) -> None:
    _text(draw, (_MARGIN, 52), "FAIRFIGHT", 22, _ACCENT, bold=True)
    _text(draw, (_MARGIN + _width(draw, "FAIRFIGHT", 22, bold=True) + 18, 52), text, 22, _MUTED)


def _side(draw: ImageDraw.ImageDraw, top: int, role: str, side: CardSide, colour: str) -> None:
    widest = _MAP_BOX[0] - 48 - _MARGIN - 24
    draw.rectangle((_MARGIN, top, _MARGIN + 10, top + 104), fill=colour)
    x = _MARGIN + 28
    _text(draw, (x, top + 2), role.upper(), 20, _MUTED, bold=True)
    if side.won:
        badge_x = x + _width(draw, role.upper(), 20, bold=True) + 16
        _pill(draw, (badge_x, top - 4), "WINS", _GOOD, 18)
    name, size = _fitted(draw, side.name, widest, 50, 30, bold=True)
    _text(draw, (x, top + 34), name, size, _INK, bold=True)
    _text(draw, (x, top + 42 + size), side.code, 24, _MUTED)


def _odds_bar(draw: ImageDraw.ImageDraw, top: int, card: EpisodeCard) -> None:
    right = _MAP_BOX[0] - 48
    caption = f"Battle chance for {card.attacker.name}"
    caption, size = _fitted(draw, caption, right - _MARGIN - 150, 24, 18)
    _text(draw, (_MARGIN, top), caption, size, _INK)
    _text(draw, (right, top - 6), card.chance_text, 34, ATTACKER_COLOUR, bold=True, anchor="ra")
    bar_top = top + 40
    split = _MARGIN + (right - _MARGIN) * card.chance_permille / 1000
    draw.rectangle((_MARGIN, bar_top, right, bar_top + 34), fill=DEFENDER_COLOUR)
    if card.chance_permille:
        draw.rectangle((_MARGIN, bar_top, split, bar_top + 34), fill=ATTACKER_COLOUR)
    draw.rectangle((_MARGIN, bar_top, right, bar_top + 34), outline=_LINE, width=2)
    if card.before_text is not None:
        _text(draw, (_MARGIN, bar_top + 44), f"before fan power {card.before_text}", 20, _MUTED)


def _episode(image: Image.Image, draw: ImageDraw.ImageDraw, card: EpisodeCard) -> None:
    _kicker(draw, f"Conquest · Season {card.season} · {card.map_name}")
    _text(draw, (_MARGIN, 92), f"Battle {card.number}", 40, _INK, bold=True)
    _side(draw, 160, "attacker", card.attacker, ATTACKER_COLOUR)
    _side(draw, 290, "defender", card.defender, DEFENDER_COLOUR)
    rounds = f"Rounds {card.attacker_rounds}–{card.defender_rounds}"
    _text(draw, (_MARGIN, 420), rounds, 28, _INK, bold=True)
    x = _MARGIN + _width(draw, rounds, 28, bold=True) + 20
    for banner in card.banners:
        x = _pill(draw, (x, 418), banner, _BANNER_COLOURS.get(banner, _ACCENT)) + 10
    _odds_bar(draw, 470, card)
    widest = _MAP_BOX[0] - 48 - _MARGIN
    if card.champion_text:
        for index, line in enumerate(_lines(draw, card.champion_text, widest, 18, 2)):
            _text(draw, (_MARGIN, 582 + 22 * index), line, 18, _GOOD)
    else:
        _text(draw, (_MARGIN, 596), "Every result can be recomputed from the season's seed.",
              20, _MUTED)
    _map(image, draw, card.thumbnail)


def _leaders(draw: ImageDraw.ImageDraw, top: int, card: SeasonCard) -> None:
    right = _MAP_BOX[0] - 48
    _text(draw, (_MARGIN, top), "LEADERS", 20, _MUTED, bold=True)
    _text(draw, (right, top), "REGIONS", 20, _MUTED, bold=True, anchor="ra")
    for index, line in enumerate(card.leaders):
        y = top + 38 + index * 50
        draw.rounded_rectangle((_MARGIN, y + 2, _MARGIN + 26, y + 28), radius=5,
                               fill=line.colour, outline=BORDER, width=1)
        first = index == 0
        name, size = _fitted(draw, line.name, right - _MARGIN - 220, 30, 20, bold=first)
        _text(draw, (_MARGIN + 42, y), name, size, _INK, bold=first)
        _text(draw, (_MARGIN + 52 + _width(draw, name, size, first), y + 8), line.code, 20,
              _MUTED)
        _text(draw, (right, y), str(line.holdings), 30, _INK, bold=True, anchor="ra")


def _season(image: Image.Image, draw: ImageDraw.ImageDraw, card: SeasonCard) -> None:
    _kicker(draw, "Conquest · the season battle show")
    title, size = _fitted(draw, f"Season {card.season}: {card.map_name}",
                          _MAP_BOX[0] - 48 - _MARGIN, 48, 30, bold=True)
    _text(draw, (_MARGIN, 90), title, size, _INK, bold=True)
    aired = f"{card.battles:,} battle{'s' if card.battles != 1 else ''} aired"
    if card.max_battles:
        aired += f" of at most {card.max_battles:,}"
    _text(draw, (_MARGIN, 160), aired, 28, _INK)
    status = (card.champion_text or
              f"Next: battle {card.next_battle} · {card.factions_standing} factions standing")
    colour = _GOOD if card.champion_text else _MUTED
    for index, line in enumerate(_lines(draw, status, _MAP_BOX[0] - 48 - _MARGIN, 22, 2)):
        _text(draw, (_MARGIN, 200 + 26 * index), line, 22, colour)
    _leaders(draw, 262, card)
    _map(image, draw, card.thumbnail)


def _site(draw: ImageDraw.ImageDraw, card: SiteCard) -> None:
    width, height = CARD_SIZE
    draw.rectangle((0, 0, width, 16), fill=_ACCENT)
    _text(draw, (_MARGIN, 150), card.title, 110, _INK, bold=True)
    _text(draw, (_MARGIN, 300), card.tagline, 36, _MUTED)
    x: float = _MARGIN
    for section in card.sections:
        x = _pill(draw, (x, 400), section, _ACCENT, 28) + 16
    _text(draw, (_MARGIN, height - 80), "Every result can be recomputed from its seed.", 24,
          _MUTED)


def render_card(card: Card) -> bytes:
    """The card as PNG bytes (the same card always gives the same bytes)."""
    image = Image.new("RGB", CARD_SIZE, _PAPER)
    draw = ImageDraw.Draw(image)
    if isinstance(card, EpisodeCard):
        _episode(image, draw, card)
    elif isinstance(card, SeasonCard):
        _season(image, draw, card)
    else:
        _site(draw, card)
    return _png(image)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def blank_png(size: Sequence[int] = CARD_SIZE) -> bytes:
    """An empty card-sized PNG (the benchmark's baseline: encoding alone)."""
    return _png(Image.new("RGB", (size[0], size[1]), _PAPER))


class RenderedCards:
    """Cards already drawn, by digest, the least recently asked for dropped first once their
    PNG bytes pass `max_bytes` (a card is drawn again if asked for after that)."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self._kept: ByteCappedCache[str, bytes] = ByteCappedCache(max_bytes, len)

    @property
    def max_bytes(self) -> int:
        """The budget, in PNG bytes."""
        return self._kept.max_bytes

    @property
    def kept_bytes(self) -> int:
        """The bytes held now."""
        return self._kept.bytes_used

    def png(self, card: Card) -> bytes:
        """The card's PNG, drawn at most once while it stays in the cache."""
        return self._kept.get_or_make(card_digest(card), lambda: render_card(card))
