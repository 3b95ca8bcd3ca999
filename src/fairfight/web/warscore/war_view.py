"""What a war page shows, built once for the page and its JSON twin.

Every sheet's SHA-256 and state are shown to everyone; a sheet's text only to whom
`RoundRow.visible_to` allows (its nation, the moderator, or anyone once the round is
published or closed). No token or token digest is ever part of a view.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from fairfight.warscore.history import WarStanding
from fairfight.warscore.store import RoundRow, Viewer, WarStore, parties

__all__ = ["RoundView", "SheetView", "WarView", "war_view"]


class SheetView(BaseModel):
    """One party's sheet in a round as the viewer may see it."""

    nation: int
    name: str
    role: str
    state: str
    sha256: str | None
    text: str | None
    mine: bool


class RoundView(BaseModel):
    """A round: what it settles, its status, its result's digest, the parties' sheets."""

    round: int
    kind: str
    title: str
    header: dict[str, Any]
    status: str
    digest: str | None
    sheets: list[SheetView]


class WarView(BaseModel):
    """A stored war as one viewer sees it."""

    id: str
    name: str
    moderator: str
    years: list[int]
    nations: list[dict[str, Any]]
    scores: list[dict[str, Any]]
    battles: list[dict[str, Any]]
    rounds: list[RoundView]
    viewer: str
    viewer_nation: int | None
    log: list[dict[str, Any]]


def _title(row: RoundRow) -> str:
    if row.kind == "year":
        return f"National War Scores of {row.header['year']}"
    return (f"{row.header['battle']} ({row.header['year']}, {row.header['kind']}): "
            f"{row.header['attacker']} attacks {row.header['defender']}")


def _round(war: dict[str, Any], row: RoundRow, viewer: Viewer) -> RoundView:
    names = [nation["name"] for nation in war["nations"]]
    sheets = []
    for nation in parties(war, row):
        sheet = row.sheet(nation)
        role = ("attacker" if row.kind == "battle" and names[nation] == row.header["attacker"]
                else "defender" if row.kind == "battle" else "nation")
        sheets.append(SheetView(
            nation=nation, name=names[nation], role=role,
            state="not sent" if sheet is None else sheet.state,
            sha256=None if sheet is None else sheet.sha256,
            text=sheet.body if sheet is not None and row.visible_to(viewer, nation) else None,
            mine=viewer.nation == nation))
    return RoundView(round=row.round, kind=str(row.kind), title=_title(row), header=row.header,
                     status=row.status, digest=row.digest, sheets=sheets)


def war_view(store: WarStore, war: dict[str, Any], standing: WarStanding,
             viewer: Viewer) -> WarView:
    """The war as `viewer` may see it."""
    who = "moderator" if viewer.moderator else "nation" if viewer.nation is not None else "anyone"
    return WarView(
        id=war["id"], name=war["name"], moderator=war["moderator"], years=war["years"],
        nations=[{"index": i, **n, "capitulated_in": standing.nations[i].capitulated_in}
                 for i, n in enumerate(war["nations"])],
        scores=[{"year": y.year, "scores": y.scores, "digest": y.digest}
                for y in standing.years],
        battles=[{"round": b.round, "year": b.year, "battle": b.battle, "kind": b.kind,
                  "attacker": b.attacker, "defender": b.defender, "winner": b.winner,
                  "tier": b.tier, "percent": b.percent, "digest": b.digest}
                 for b in standing.battles],
        rounds=[_round(war, row, viewer) for row in store.rounds(war["id"])],
        viewer=who, viewer_nation=viewer.nation,
        log=store.log(war["id"]),
    )
