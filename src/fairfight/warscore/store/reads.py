"""Reads of the war store that other parts of the service make with their own database handle.

Each takes an Engine, a Connection or a Session (`Bind`), so a route, the store itself or
another ruleset's code reads a war or a result the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeAlias

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from fairfight.warscore.history import Approval, WarStanding, standing_of
from fairfight.warscore.store.schema import LOG, RESULTS, ROUNDS, WARS

__all__ = [
    "Bind",
    "connected",
    "load_approvals",
    "load_result",
    "load_standing",
    "load_war",
]

Bind: TypeAlias = Engine | Connection | Session
"""Whatever the caller holds of the service database."""


@contextmanager
def connected(bind: Bind) -> Iterator[Connection]:
    """A connection for a few reads: the caller's own, its session's, or a new one."""
    if isinstance(bind, Connection):
        yield bind
    elif isinstance(bind, Session):
        yield bind.connection()
    else:
        with bind.connect() as connection:
            yield connection


def load_war(bind: Bind, war_id: str) -> dict[str, Any] | None:
    """A war's configuration (id, name, moderator, nations with sides, years), or None."""
    with connected(bind) as connection:
        row = connection.execute(select(WARS.c.config).where(WARS.c.id == war_id)).first()
    if row is None:
        return None
    config: dict[str, Any] = json.loads(row.config)
    return {**config, "id": war_id}


def load_result(bind: Bind, digest: str) -> dict[str, Any] | None:
    """A published result's document by its digest, or None."""
    with connected(bind) as connection:
        row = connection.execute(
            select(RESULTS.c.document).where(RESULTS.c.digest == digest)).first()
    if row is None:
        return None
    document: dict[str, Any] = json.loads(row.document)
    return document


def load_approvals(bind: Bind, war_id: str) -> list[Approval]:
    """The moderator's recorded approvals, in the order they were given."""
    with connected(bind) as connection:
        rows = connection.execute(select(LOG.c.detail).where(
            LOG.c.war_id == war_id, LOG.c.action == "approve").order_by(LOG.c.seq)).all()
    found = []
    for row in rows:
        detail = json.loads(row.detail)
        found.append(Approval(detail["round"], detail["nation"], detail["by"], detail["at"],
                              detail.get("note", "")))
    return found


def load_standing(bind: Bind, war_id: str) -> WarStanding | None:
    """A war's standing from its configuration and its published results, or None."""
    war = load_war(bind, war_id)
    if war is None:
        return None
    with connected(bind) as connection:
        rows = connection.execute(
            select(ROUNDS.c.round, RESULTS.c.digest, RESULTS.c.document)
            .join(RESULTS, RESULTS.c.digest == ROUNDS.c.digest)
            .where(ROUNDS.c.war_id == war_id).order_by(ROUNDS.c.round)).all()
    return standing_of(war, ((r.round, r.digest, json.loads(r.document)) for r in rows))
