"""The public state of a season, read from its store and checked, and the standings drawn from it.

Kept apart from `season`, whose operations change a season: the web's catalogue and standings
need only these, and `season` reads through `summary_in` before it writes to a season, so a
damaged season is refused before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from fairfight.conquest.rules import engine
from fairfight.conquest.store import integrity
from fairfight.conquest.store.rows import season_of
from fairfight.conquest.store.season_store import SeasonStore

__all__ = [
    "SeasonAddress",
    "SeasonSummary",
    "Standing",
    "champion",
    "open_store",
    "standings",
    "summary",
    "summary_in",
]


SeasonAddress = Path | str
"""A season file, or a season of a server database written `URL#ID` (see `server_store`)."""


def open_store(path: SeasonAddress, *, write: bool = False) -> SeasonStore:
    """Open a season file (refusing one that is not a season); read-only unless `write`."""
    return SeasonStore.open(path, write=write)


@dataclass(frozen=True, slots=True)
class SeasonSummary:
    """Everything public about a season at this moment."""

    header: dict[str, Any]
    commitment: str
    map_data: dict[str, Any]
    board: dict[str, Any]
    ledger: list[dict[str, Any]]
    battles: int
    beacon: dict[str, Any] | None
    revealed_seed: str | None
    season_id: int = 1
    """The season's id within its database (always 1 for a season file)."""
    stored_texts: tuple[str, str] = field(default=("", ""), repr=False, compare=False)
    """The header's and the board's stored JSON texts this summary was checked from: a later
    read of the same texts takes this summary's checked header and board (`summary_in`)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One faction's line in the standings."""

    faction: str
    standing: bool
    holdings: int
    people: int
    power: int
    morale_bp: int
    pool: int
    pool_state: str


def summary_in(session: Session, before: SeasonSummary | None = None) -> SeasonSummary:
    """The public state of a season, read inside an open transaction.

    `before`, a summary of the same season read earlier, lends its ledger entries when the
    same battles were fought since: the ledger only grows (an entry is never changed or
    removed), and an entry checked against the same next battle is checked still, so only
    the entries after its last are read and checked. Under a stream of contributions the
    whole ledger was read again for every one of them, thousands of rows each time.
    For the same reason a header or board stored in the very text `before` was checked from is
    not parsed and checked again (a contribution changes neither: the pools it fills are
    applied from the ledger); the dicts are then shared, as the checked map already is, and
    nothing may change them in place."""
    row = SeasonStore.season(session)
    lender = before if before is not None and before.season_id == season_of(session) else None
    header = lender.header if lender is not None and lender.stored_texts[0] == row.header \
        else integrity.checked_header(row.header)
    integrity.checked_commitment(row.commitment)
    map_data, world = integrity.checked_map(row.map_data, header)
    board = lender.board if lender is not None and lender.stored_texts[1] == row.board \
        else integrity.checked_board(row.board, world)
    integrity.checked_history_count(SeasonStore.history_count(session), board)
    kept = lender.ledger if lender is not None \
        and lender.board["next_battle"] == board["next_battle"] else []
    ledger = [*kept, *(
        integrity.checked_ledger_row(entry, world, board["next_battle"])
        for entry in SeasonStore.ledger(session, kept[-1]["seq"] if kept else 0)
    )]
    return SeasonSummary(
        header=header,
        commitment=row.commitment,
        map_data=map_data,
        board=board,
        ledger=ledger,
        battles=board["next_battle"] - 1,
        beacon=integrity.checked_beacon(row.beacon),
        revealed_seed=integrity.checked_revealed_seed(row.revealed_seed, row.commitment),
        season_id=season_of(session),
        stored_texts=(row.header, row.board),
    )


def summary(path: SeasonAddress) -> SeasonSummary:
    """The public state of a season."""
    store = open_store(path)
    try:
        with store.transaction() as session:
            return summary_in(session)
    finally:
        store.close()


def standings(season: SeasonSummary, world: dict[str, Any] | None = None) -> list[Standing]:
    """Every faction with holdings or an open pool: biggest first, then by code. `world` is
    the season's compiled map when the caller holds it (compiling it again costs more than
    the standings themselves)."""
    world = engine.compile_world(season.map_data) if world is None else world
    board, next_battle = season.board, season.board["next_battle"]
    rows = []
    for code, faction in board["factions"].items():
        held = sum(1 for region in board["regions"].values() if region["owner"] == code)
        headcount = engine.people(world, board, code, next_battle) if held else 0
        rows.append(
            Standing(
                faction=code,
                standing=bool(faction["standing"]),
                holdings=held,
                people=headcount,
                power=engine.population_power(headcount) if held else 0,
                morale_bp=faction["morale"],
                pool=faction["pool"],
                pool_state=faction["pool_state"],
            )
        )
    rows.sort(key=lambda row: (-row.holdings, -row.power, row.faction))
    return rows


def champion(season: SeasonSummary) -> Standing | None:
    """The title holder once the season has ended: the first of the final standings (most
    regions, then most population power, then the lowest code); None before the end."""
    return standings(season)[0] if season.board["ended"] else None
