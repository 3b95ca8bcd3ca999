"""Each drawn map's outlines as one cacheable SVG file, which every map on the pages points at.

The address names the map and carries the outlines' digest, so a browser may keep the file for
a year: new outlines get a new address. A map that is not drawn is a 404 naming the maps that
are.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from fairfight.conquest.maps.svg import shapes_document
from fairfight.web.conquest.map_drawing import drawn_map_name, shapes_version
from fairfight.web.conquest.refusals import Refusal

__all__ = ["map_shapes", "router"]

router = APIRouter()


@router.get("/conquest/maps/{map_name}.svg", include_in_schema=False)
def map_shapes(map_name: str, v: str | None = None) -> Response:
    """The outlines of a drawn map (`v`, the digest, only makes the address unique)."""
    try:
        name = drawn_map_name(map_name)
    except LookupError as error:
        raise Refusal(404, "map", str(error)) from None
    cache = "public, max-age=31536000, immutable" if v == shapes_version(name) else "no-cache"
    return Response(shapes_document(name), media_type="image/svg+xml",
                    headers={"Cache-Control": cache})
