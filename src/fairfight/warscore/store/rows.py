"""What a stored round and its sheets read as, and who may see a sheet's text.

The rule of the sealed sheets lives here, in one function: a sheet's text is shown to its own
nation and to the moderator; to anyone else only once every party has sealed (the round is
published) or the moderator has closed the round. Its SHA-256 and state are public.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from fairfight.warscore.sealed import RoundKind
from fairfight.warscore.store.schema import ROUNDS, SHEETS

__all__ = ["RoundRow", "SheetRow", "Viewer", "parties", "round_rows"]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the moderator, one nation (by index), or anyone."""

    moderator: bool = False
    nation: int | None = None


@dataclass(frozen=True, slots=True)
class SheetRow:
    """A nation's sheet for a round: `submitted`, `sealed` or `returned` (for correction)."""

    nation: int
    body: str
    sha256: str
    state: str
    submitted: float
    sealed: float | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round: a battle or a year, `open`, `closed` or `published` (with its digest)."""

    round: int
    kind: RoundKind
    header: dict[str, Any]
    status: str
    digest: str | None
    sheets: tuple[SheetRow, ...]

    def sheet(self, nation: int) -> SheetRow | None:
        """This nation's sheet, if it sent one."""
        return next((s for s in self.sheets if s.nation == nation), None)

    def revealed(self) -> bool:
        """Every sheet's text is public once the round is published or closed."""
        return self.status != "open"

    def visible_to(self, viewer: Viewer, nation: int) -> bool:
        """Whether `viewer` may read the text of `nation`'s sheet in this round."""
        return self.revealed() or viewer.moderator or viewer.nation == nation


def parties(war: dict[str, Any], row: RoundRow) -> list[int]:
    """The nations (by index) that send a sheet in this round."""
    names = [nation["name"] for nation in war["nations"]]
    if row.kind is RoundKind.YEAR:
        fighting = row.header.get("nations", names)
        return [index for index, name in enumerate(names) if name in fighting]
    return [names.index(row.header["attacker"]), names.index(row.header["defender"])]


def round_rows(connection: Connection, war_id: str) -> list[RoundRow]:
    """Every round of a war in order, with its sheets."""
    rounds = connection.execute(select(ROUNDS).where(ROUNDS.c.war_id == war_id)
                                .order_by(ROUNDS.c.round)).all()
    sheets = connection.execute(select(SHEETS).where(SHEETS.c.war_id == war_id)
                                .order_by(SHEETS.c.round, SHEETS.c.nation)).all()
    return [RoundRow(r.round, RoundKind(r.kind), json.loads(r.header), r.status, r.digest,
                     tuple(SheetRow(s.nation, s.body, s.sha256, s.state, s.submitted, s.sealed)
                           for s in sheets if s.round == r.round))
            for r in rounds]
