"""Run the web service with uvicorn: `fairfight serve [--workers N]`.

One worker runs the app in this process, as before. With N workers uvicorn's supervisor starts
N processes on one listening socket, each building its own app from the environment through
`service_app` (an app factory); every piece of state lives in the database, so any of them may
answer any request. The settings reach the workers as `FAIRFIGHT_…` variables, and the metrics
are shared through a `PROMETHEUS_MULTIPROC_DIR` (a fresh temporary folder when the operator
gave none). The server's limits (keep-alive, header read, connections, graceful stop) come
from `WebSettings`; docs/operations.md says what each one is for.
"""

from __future__ import annotations

import asyncio
import copy
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from types import FrameType
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from fairfight.web.lifecycle import on_startup
from fairfight.web.ops.request_log import ACCESS_LOGGER
from fairfight.web.ops.shutdown import run_exit_hooks
from fairfight.web.settings import WebSettings
from fairfight.web.supervision import SUPERVISOR_PID_VARIABLE, watch_supervisor

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "COLLECTOR_THRESHOLDS",
    "GRACEFUL_SECONDS",
    "GracefulServer",
    "HeaderTimeoutProtocol",
    "LEAN_SUPERVISOR",
    "ORPHAN_MARGIN_SECONDS",
    "SWITCH_INTERVAL_SECONDS",
    "ServiceConfig",
    "database_url_for",
    "log_config",
    "prepare_databases",
    "run_server",
    "service_app",
]

GRACEFUL_SECONDS = 3
"""How long open requests get to finish once a test server is asked to stop."""

SWITCH_INTERVAL_SECONDS = 0.0005
"""How long a thread may keep the interpreter's lock while another waits (Python's default:
5 ms). The slow-work pools run pure Python; the event loop gives the lock up at every system
call and then waits up to this long to get it back, several times per request. In
bench/bench_service.py, with a question thread busy part of the time, `/healthz` p99 went from
220-290 ms at the default to 80-100 ms at 0.5 ms."""

COLLECTOR_THRESHOLDS = (20_000, 20, 100)
"""When the cycle collector looks at each generation (Python's default: 700, 10, 10): after
20,000 new container objects for the youngest, every 20 of its passes for the middle one and
every 100 of those for the oldest. Every pass stops every thread. In the paced minute of
`bench crowd` a worker at the default made 600 young passes (1.3 s in all), 54 middle ones
(0.5 s) and 5 full ones (1.1 s, the longest 271 ms with the event loop stalled as long):
the slowest answers of the minute. At these thresholds it made 4 young passes and no other.
Two interleaved pairs of runs (load average 3.3-4.1), default against these: contributions
p99 385 and 475 ms against 250 and 189 ms, season home p99 1.50 and 1.62 s against 0.66 and
0.50 s, faction card p99 4.7 and 5.2 s against 2.5 and 0.85 s; the worker's memory 184 MB
against 192-206 MB. The cycles a worker makes die young (a request's frames, a render's
parts) and are still collected, in fewer, larger passes."""

ORPHAN_MARGIN_SECONDS = 2.0
"""Seconds an orphaned worker waits past its graceful time before it exits outright."""

LEAN_SUPERVISOR = """\
import json, shutil, sys
import uvicorn
from uvicorn.supervisors import Multiprocess
from fairfight.web.supervision import mark_supervisor
mark_supervisor()  # each worker ends when this process does, however it ends
options, made_metrics_dir = json.loads(sys.argv[1]), sys.argv[2]
header_read_seconds = options.pop("header_read_seconds")
config = uvicorn.Config("fairfight.web.serve:service_app", factory=True, **options)
config.header_read_seconds = header_read_seconds  # what HeaderTimeoutProtocol reads
try:
    Multiprocess(config, sockets=[config.bind_socket()]).run()
finally:
    if made_metrics_dir:
        shutil.rmtree(made_metrics_dir, ignore_errors=True)
"""
"""The supervisor of `--workers N`, which `run_server` becomes (same process id, so signals
reach it as before): uvicorn alone. The command line that starts it has imported the whole app
(`fairfight.web` brings it in), about 45 MB the supervisor would hold for nothing; this
program imports uvicorn only (and `supervision`, standard library), and each worker builds the
app (`service_app`)."""


def database_url_for(db: str | None) -> str | None:
    """A bare file path means a SQLite file; anything with `://` is a SQLAlchemy URL."""
    if db is None or "://" in db:
        return db
    return f"sqlite:///{db}"


class ServiceConfig(uvicorn.Config):
    """uvicorn's configuration plus the header-read timeout its protocol reads."""

    def __init__(self, *args: Any, header_read_seconds: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_read_seconds = header_read_seconds


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request head is not complete in
    time: a client that opens connections and sends nothing (or a byte a minute) cannot hold
    the process's file descriptors. The idle wait between keep-alive requests stays uvicorn's
    own `timeout_keep_alive`.

    uvicorn counts every open connection against `limit_concurrency` and answers 503 to any
    request that arrives while the count is at the cap, so a client holding a thousand
    half-open connections would shut everyone else out for as long as the header timeout.
    Here a new connection that reaches the cap closes the oldest connection still waiting
    for its request head instead: the half-open ones make room, and a request that arrives
    whole is served. When every connection at the cap is busy with a request, nothing is
    closed and uvicorn's 503 stands.
    """

    _head_timer: asyncio.TimerHandle | None = None

    def _waiting_for_heads(self) -> dict[HeaderTimeoutProtocol, None]:
        """This server's connections whose head timer runs, oldest first."""
        waiting: dict[HeaderTimeoutProtocol, None] | None = getattr(
            self.server_state, "waiting_for_heads", None)
        if waiting is None:
            waiting = {}
            self.server_state.waiting_for_heads = waiting  # type: ignore[attr-defined]
        return waiting

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        seconds = getattr(self.config, "header_read_seconds", None)
        if seconds:
            self._head_timer = self.loop.call_later(seconds, self._head_too_slow)
            self._waiting_for_heads()[self] = None

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self._waiting_for_heads().pop(self, None)

    def _head_too_slow(self) -> None:
        self._stop_head_timer()
        if not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        """At the connection cap, close the oldest connection still waiting for its head."""
        if self.limit_concurrency is None or len(self.connections) < self.limit_concurrency:
            return
        oldest = next((other for other in self._waiting_for_heads() if other is not self), None)
        if oldest is not None:
            oldest._head_too_slow()
            # Its `connection_lost` comes a loop turn later, perhaps after this connection's
            # request is counted: it stops counting now (uvicorn's discard is idempotent).
            self.connections.discard(oldest)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()
        self._make_room()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_timer is None:
            self._start_head_timer()

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)


class GracefulServer(uvicorn.Server):
    """uvicorn, telling the app when it is asked to stop, so endless streams (server-sent
    events) end at once instead of holding the shutdown open."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        run_exit_hooks(self.config.app)
        super().handle_exit(sig, frame)


def service_app() -> FastAPI:
    """The app factory each worker process calls: settings from the environment."""
    from fairfight.web.app import create_app  # the supervisor itself never loads the app

    settings = WebSettings()
    app = _tuned(create_app(settings))
    # A worker of `--workers N` stops when its supervisor dies, even by SIGKILL: open
    # requests get the graceful time, then the process ends itself.
    watch_supervisor(settings.graceful_seconds + ORPHAN_MARGIN_SECONDS)
    return app


def _tuned(app: FastAPI) -> FastAPI:
    """A worker's interpreter set for serving: the lock handed over sooner, the collector's
    passes fewer, and what the started app holds frozen."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    # What a started worker holds (modules, the maps, compiled templates) lives as long as
    # the process: frozen, the collector's full passes no longer walk it on every request
    # burst, which showed as pauses of tens of milliseconds in the slowest answers.
    on_startup(app, gc.freeze)
    return app


def prepare_databases() -> None:
    """Build the app once and close it again: each part creates its tables then, so N
    workers starting together never race to create the same ones."""
    app = service_app()

    async def open_and_close() -> None:
        async with app.router.lifespan_context(app):
            pass

    asyncio.run(open_and_close())


def log_config(json_requests: bool) -> dict[str, Any]:
    """uvicorn's logging, plus the JSON request lines on standard output when they are on."""
    config = copy.deepcopy(LOGGING_CONFIG)
    if json_requests:
        config["formatters"]["request_line"] = {"format": "%(message)s"}
        config["handlers"]["request_line"] = {
            "formatter": "request_line", "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout"}
        config["loggers"][ACCESS_LOGGER] = {
            "handlers": ["request_line"], "level": "INFO", "propagate": False}
    return config


def _environment_for_workers(url: str | None, workers: int,
                             forwarded_allow_ips: str | None) -> None:
    """Hand the command line's choices to the worker processes (they read the environment)."""
    if url is not None:
        os.environ["FAIRFIGHT_DATABASE_URL"] = url
    if forwarded_allow_ips is not None:
        os.environ["FAIRFIGHT_FORWARDED_ALLOW_IPS"] = forwarded_allow_ips
    os.environ.setdefault("FAIRFIGHT_RATE_LIMIT_PROCESSES", str(workers))


def run_server(db: str | None, host: str, port: int, workers: int = 1,
               forwarded_allow_ips: str | None = None) -> None:
    """Serve until interrupted; SIGTERM or Ctrl-C stops uvicorn within the graceful time."""
    url = database_url_for(db)
    _environment_for_workers(url, workers, forwarded_allow_ips)
    settings = WebSettings()
    options: dict[str, Any] = {
        "host": host, "port": port, "log_level": "info",
        "log_config": log_config(settings.request_log),
        "access_log": not settings.request_log,
        "proxy_headers": False,  # the app settles the client itself (fairfight.web.ops.clients)
        "timeout_keep_alive": settings.keep_alive_seconds,
        "limit_concurrency": settings.max_connections,
        "timeout_graceful_shutdown": settings.graceful_seconds,
        "http": HeaderTimeoutProtocol,
        "header_read_seconds": settings.header_read_seconds,
    }
    if workers == 1:
        from fairfight.web.app import create_app

        config = ServiceConfig(_tuned(create_app(settings)), **options)
        GracefulServer(config).run()
        return
    os.environ.pop(SUPERVISOR_PID_VARIABLE, None)  # named by the supervisor itself, below
    made_metrics_dir = ""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        made_metrics_dir = tempfile.mkdtemp(prefix="fairfight-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = made_metrics_dir
    try:
        # In a process of its own, so the supervisor never holds the app's memory.
        subprocess.run([sys.executable, "-c",
                        "from fairfight.web.serve import prepare_databases; "
                        "prepare_databases()"], check=True)
    except BaseException:
        if made_metrics_dir:
            shutil.rmtree(made_metrics_dir, ignore_errors=True)
        raise
    options.update(workers=workers, http=f"{__name__}:{HeaderTimeoutProtocol.__name__}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-c", LEAN_SUPERVISOR, json.dumps(options),
                              made_metrics_dir])
