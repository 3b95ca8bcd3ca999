"""The drawn map's outlines as one cacheable SVG file, which every map on the pages points at.

The address carries the outlines' digest, so a browser may keep the file for a year: new
outlines get a new address.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from fairfight.conquest.mapsvg import shapes_document
from fairfight.web.conquest_map import DRAWN_MAP, SHAPES_PATH, shapes_version

__all__ = ["map_shapes", "router"]

router = APIRouter()


@router.get(SHAPES_PATH, include_in_schema=False)
def map_shapes(v: str | None = None) -> Response:
    """The outlines of the drawn map (`v`, the digest, only makes the address unique)."""
    cache = "public, max-age=31536000, immutable" if v == shapes_version() else "no-cache"
    return Response(shapes_document(DRAWN_MAP), media_type="image/svg+xml",
                    headers={"Cache-Control": cache})
