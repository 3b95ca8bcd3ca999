"""Liveness, readiness, and an honest answer while a database is down.

`/healthz` says the process answers: no I/O, so a busy database or a full pool never makes a
monitor restart a healthy process; it names the worker's pid, so a test (or an operator) can
see which process answered. `/readyz` asks every database the app uses for one round trip and
answers 503 naming each that did not answer; a load balancer takes the process out of rotation
until it answers 200 again. Parts of the service that need their own check (the schema's
version, a live-event listener) add one with `add_readiness_check`.

A request that meets a database outage (SQLAlchemy's OperationalError, InterfaceError or
DisconnectionError) is answered 503 with `Retry-After`, as JSON or as the error page, never a
traceback; the engines' pools reconnect by themselves, so the service recovers when the
database does, without a restart.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError

from fairfight import __version__
from fairfight.web.errors import error_response

__all__ = [
    "Liveness",
    "OUTAGE_RETRY_SECONDS",
    "PROBE_SECONDS",
    "Readiness",
    "ReadinessCheck",
    "add_readiness_check",
    "health_router",
    "healthz",
    "install_outage_handler",
    "readiness_checks",
    "readyz",
]

OUTAGE_RETRY_SECONDS = 5
"""`Retry-After` of a request that met a database outage."""

PROBE_SECONDS = 3.0
"""Longest a readiness probe waits for one database before calling it down."""

ReadinessCheck = Callable[[], None]
"""A check that returns when its part is ready and raises (any exception) when not."""

health_router = APIRouter(tags=["service"])


class Liveness(BaseModel):
    """The process answers: which version, which worker process."""

    status: str
    version: str
    pid: int


class Readiness(BaseModel):
    """Each database's answer: `ok`, or why it is down."""

    status: str
    checks: dict[str, str]


def _engine_check(engine: Engine) -> ReadinessCheck:
    # A SQLite file is asked through a connection of the check's own: a pooled connection in
    # WAL mode answers from its cache and the WAL index, so it would miss a damaged file.
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if database and database != ":memory:" and not database.startswith("file:"):
        return _season_file_check(Path(database))

    def check() -> None:
        query = "SELECT count(*) FROM sqlite_master" if engine.dialect.name == "sqlite" \
            else "SELECT 1"
        with engine.connect() as connection:
            connection.execute(text(query))
    return check


def _season_file_check(path: Path) -> ReadinessCheck:
    def check() -> None:
        if not path.exists():
            return  # a service with no season yet is ready: the pages say there is none
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=PROBE_SECONDS)
        try:
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            connection.close()
    return check


def readiness_checks(app: FastAPI) -> dict[str, ReadinessCheck]:
    """Every database this app uses, by name, and any check another part added."""
    checks: dict[str, ReadinessCheck] = {}
    conquest = getattr(app.state, "conquest", None)
    if conquest is not None:
        database = conquest.catalog.database
        if database.server:  # the engine is made (and its tables) on first use, inside the probe
            checks["conquest"] = lambda: _engine_check(database.engine())()
        elif make_url(database.url).database not in (None, "", ":memory:"):
            checks["conquest"] = _season_file_check(database.path)
    clash = getattr(app.state, "clash", None)
    if clash is not None:
        checks["clash"] = _engine_check(clash.store.engine)
    ballot = getattr(app.state, "ballot_store", None)
    if ballot is not None:
        checks["ballot"] = _engine_check(ballot.engine)
    checks.update(getattr(app.state, "readiness_extra", {}))
    return checks


def add_readiness_check(app: FastAPI, name: str, check: ReadinessCheck) -> None:
    """Make `/readyz` also ask `check` (the schema at head, a listener alive, ...)."""
    if not hasattr(app.state, "readiness_extra"):
        app.state.readiness_extra = {}
    app.state.readiness_extra[name] = check


def _first_line(error: BaseException) -> str:
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0][:200]}" if lines else type(cause).__name__


async def _probe(check: ReadinessCheck) -> str:
    try:
        await asyncio.wait_for(asyncio.to_thread(check), PROBE_SECONDS)
    except TimeoutError:
        return f"no answer within {PROBE_SECONDS:g} s"
    except Exception as error:  # a probe reports any failure; it never raises
        return _first_line(error)
    return "ok"


@health_router.get("/healthz")
async def healthz() -> Liveness:
    """Liveness: the process answers (no I/O at all). On the event loop, never in the shared
    thread pool: a process whose sync routes hold every thread still answers this."""
    return Liveness(status="ok", version=__version__, pid=os.getpid())


@health_router.get("/readyz", responses={503: {"model": Readiness,
                                              "description": "A database did not answer."}})
async def readyz(request: Request) -> Response:
    """Readiness: every database answers one query; 503 names those that did not (all are
    asked at once, so the answer takes at most one probe's time)."""
    found = readiness_checks(request.app)
    answers = await asyncio.gather(*(_probe(check) for check in found.values()))
    checks = dict(zip(found, answers, strict=True))
    ready = all(answer == "ok" for answer in checks.values())
    body = Readiness(status="ready" if ready else "unavailable", checks=checks)
    headers = {} if ready else {"Retry-After": str(OUTAGE_RETRY_SECONDS)}
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503, headers=headers)


def install_outage_handler(app: FastAPI, on_outage: Callable[[], None] = lambda: None) -> None:
    """Answer a database outage 503 with `Retry-After` instead of a 500 with a traceback."""

    async def outage(request: Request, error: Exception) -> Response:
        on_outage()
        started = getattr(request.app.state, "outage_logged_at", 0.0)
        if time.monotonic() - started > OUTAGE_RETRY_SECONDS:
            request.app.state.outage_logged_at = time.monotonic()
            logging.getLogger("fairfight.web").warning("database unavailable: %s",
                                                       _first_line(error))
        return error_response(request, 503, "database",
                              "the database is not answering; try again shortly",
                              headers={"Retry-After": str(OUTAGE_RETRY_SECONDS)})

    for kind in (OperationalError, InterfaceError, DisconnectionError):
        app.add_exception_handler(kind, outage)
