"""`fairfight conquest map build REGIONS.geojson FACTIONS.csv --out MAP.json`: a map from data.

A thin layer over `fairfight.conquest.maps.build`: it checks the output paths before any work,
builds and validates the map, writes the map, its shapes file and an outline picture, and
prints what the builder found.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from fairfight.console import console, emit_json, guarded
from fairfight.core.errors import InputError
from fairfight.inputs import check_output_file

__all__ = [
    "app",
    "build",
    "maps",
]

app = typer.Typer(help="Build conquest maps from boundary data.", no_args_is_help=True,
                  add_completion=False)


@app.callback()
def maps() -> None:
    """Build conquest maps from boundary data (GeoJSON) and a faction table (CSV)."""


def _beside(out: Path, suffix: str) -> Path:
    """`europe.json` -> `europe.shapes.json`: the files the package looks for next to a map."""
    return out.with_name(out.name.removesuffix(".json") + suffix)


@app.command()
@guarded
def build(
    regions: Path = typer.Argument(..., help="GeoJSON FeatureCollection: one (multi)polygon "
                                             "per region, its code in properties.code."),
    factions: Path = typer.Argument(..., help="CSV: code, name, population, population_year, "
                                              "population_basis, P, S, M, R, U, special, "
                                              "special_name, fact, citation."),
    out: Path = typer.Option(..., "--out", help="The map JSON to write."),
    name: str | None = typer.Option(None, "--name", help="The map's name (default: from --out)."),
    shapes: Path | None = typer.Option(
        None, "--shapes", help="The web map's outlines (default: NAME.shapes.json beside --out)."),
    svg: Path | None = typer.Option(
        None, "--svg", help="An outline picture (default: NAME.svg beside --out)."),
    max_remote_km: int | None = typer.Option(
        None, "--max-remote-km", min=0, max=20_000,
        help="Reach of the remote links that join cut-off groups (0: none; default 3500)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Land borders from shared boundaries, sea links by the coastline rule, checked ratings
    and specials; refuses (exit 2, one line) anything the engine would not play."""
    from fairfight.conquest.maps import build as mapbuild
    from fairfight.conquest.maps import geo as mapgeo
    from fairfight.conquest.maps import shapes as mapshapes

    shapes_path = shapes or _beside(out, ".shapes.json")
    svg_path = svg or _beside(out, ".svg")
    for path in (out, shapes_path, svg_path):
        check_output_file(path)
    map_name = name or out.name.removesuffix(".json")
    if not map_name.strip():
        raise InputError("--name", "a map needs a name")
    reach = mapgeo.MAX_REMOTE_KM if max_remote_km is None else max_remote_km
    built = mapbuild.build_map(regions, factions, map_name, reach)
    document = mapshapes.shapes_document(
        built.outlines, f"{regions.name}; fairfight conquest map build")
    names = {region["code"]: region["name"] for region in built.map_data["regions"]}
    out.write_text(mapbuild.map_text(built.map_data), encoding="utf-8")
    shapes_path.write_text(json.dumps(document, ensure_ascii=False, indent=0, sort_keys=True)
                           + "\n", encoding="utf-8")
    svg_path.write_text(mapshapes.outline_svg(document, names), encoding="utf-8")
    if as_json:
        emit_json(built.report.to_json())
        return
    for line in built.report.lines():
        console.print(line, markup=False, highlight=False)
    console.print(f"wrote {out}, {shapes_path}, {svg_path}", markup=False, highlight=False)
