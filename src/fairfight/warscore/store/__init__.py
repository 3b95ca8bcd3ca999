"""Stored wars in the service's database (an SQLite file of its own, or PostgreSQL).

A war is a row (its configuration and the SHA-256 of the moderator's link); each nation's link
is a row holding only its SHA-256; rounds, sheets, the log and the published results are rows
of their own. Five modules: `schema` (the tables), `rows` (what a round reads as and who may
see a sheet), `reads` (reads any part of the service makes with its own handle), `war_store`
(the writes); the public names are re-exported here.
"""

from __future__ import annotations

from fairfight.warscore.store.reads import (
    Bind,
    connected,
    load_approvals,
    load_result,
    load_standing,
    load_war,
)
from fairfight.warscore.store.rows import RoundRow, SheetRow, Viewer, parties, round_rows
from fairfight.warscore.store.schema import LOG, METADATA, NATIONS, RESULTS, ROUNDS, SHEETS, WARS
from fairfight.warscore.store.war_store import (
    SUBMISSIONS_PER_CLIENT_PER_DAY,
    WARS_PER_CLIENT_PER_DAY,
    Clock,
    SheetSealed,
    WarStore,
)

__all__ = [
    "Bind",
    "Clock",
    "LOG",
    "METADATA",
    "NATIONS",
    "RESULTS",
    "ROUNDS",
    "RoundRow",
    "SHEETS",
    "SUBMISSIONS_PER_CLIENT_PER_DAY",
    "SheetRow",
    "SheetSealed",
    "Viewer",
    "WARS",
    "WARS_PER_CLIENT_PER_DAY",
    "WarStore",
    "connected",
    "load_approvals",
    "load_result",
    "load_standing",
    "load_war",
    "parties",
    "round_rows",
]
