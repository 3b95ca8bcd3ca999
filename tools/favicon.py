"""Draw the site's icon: `python tools/favicon.py` writes favicon.svg and favicon.ico.

One die on the site's accent blue, three pips on the diagonal: the service decides fights by
draws anyone can check. The SVG and the ICO come from the same coordinates (a 32-unit square),
so the two stay the same picture.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

STATIC = Path(__file__).resolve().parents[1] / "src" / "fairfight" / "web" / "static"
ACCENT, WHITE = "#2457a6", "#ffffff"
BACKGROUND = (0, 0, 32, 32, 7)        # x0, y0, x1, y1, corner radius
DIE = (6, 6, 26, 26, 4)
PIPS = ((11, 11), (16, 16), (21, 21))
PIP_RADIUS = 2.3


def svg() -> str:
    """The icon as SVG text."""
    def rect(box: tuple[float, ...], fill: str) -> str:
        x0, y0, x1, y1, r = box
        return (f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" rx="{r}" '
                f'fill="{fill}"/>')
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="{PIP_RADIUS}" fill="{ACCENT}"/>'
                   for x, y in PIPS)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
            f"{rect(BACKGROUND, ACCENT)}{rect(DIE, WHITE)}{pips}</svg>\n")


def raster(size: int) -> Image.Image:
    """The icon drawn at `size` pixels, four times larger first and scaled down (smooth edges)."""
    big = size * 4
    scale = big / 32
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for box, fill in ((BACKGROUND, ACCENT), (DIE, WHITE)):
        x0, y0, x1, y1, r = (value * scale for value in box)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=fill)
    for x, y in PIPS:
        r = PIP_RADIUS * scale
        draw.ellipse((x * scale - r, y * scale - r, x * scale + r, y * scale + r), fill=ACCENT)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    (STATIC / "favicon.svg").write_text(svg(), encoding="utf-8")
    raster(48).save(STATIC / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
