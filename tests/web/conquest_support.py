"""Shared helpers of the conquest web tests: a demo season on disk, apps over it, a live server."""

from __future__ import annotations

import shutil
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from fairfight.conquest.store import season
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.operator import token_digest
from fairfight.web.serve import GracefulServer

SEED = "c0ffee" * 10 + "c0de"
ADMIN_TOKEN = "operator-token-for-tests"
PAYMENT_SECRET = "whsec-test-secret"
# A published drand quicknet round (the example of the drand-verify package's README): its
# BLS signature, and the randomness SHA-256 of that signature gives.
QUICKNET_ROUND = 657413
QUICKNET_SIGNATURE = (
    "b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b"
)
QUICKNET_RANDOMNESS = "fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587"


def store_unchecked_beacon(path: Path, randomness: str, signature: str | None = None) -> None:
    """Write a beacon value into a season file past every check, as a season recorded before
    values were verified holds one (for tests of the verifiers, which replay any value and
    check a recorded signature themselves)."""
    store = season.open_store(path, write=True)
    try:
        with store.transaction() as session:
            spec = season.summary_in(session).header["beacon"]
            SeasonStore.set_beacon(
                session,
                {"round": spec["round"], "randomness": randomness, "signature": signature})
    finally:
        store.close()


def copy_season(source: Path, target_dir: Path) -> Path:
    """Copy a season file and its companions (seed file, journal) into a fresh folder."""
    for companion in source.parent.glob(source.name + "*"):
        shutil.copy2(companion, target_dir / companion.name)
    return target_dir / source.name


def make_app(path: Path, *, payments: bool = False, admin: bool = True,
             forecast_seasons: int = 0, forecast_seed: str | None = None,
             crowd_stand_in_seconds: int | None = None,
             live_poll_seconds: float | None = None) -> FastAPI:
    """An app serving the season file, with the test admin token (and payment secret);
    title odds off unless `forecast_seasons` is given (they cost CPU in the background);
    stand-ins under a crowd and the live watcher's poll as the settings' defaults unless
    given."""
    more: dict[str, Any] = {} if crowd_stand_in_seconds is None else {
        "crowd_stand_in_seconds": crowd_stand_in_seconds}
    if live_poll_seconds is not None:
        more["live_poll_seconds"] = live_poll_seconds
    return create_app(WebSettings(
        database_url=f"sqlite:///{path}",
        forecast_seasons=forecast_seasons,
        forecast_seed=forecast_seed,
        admin_token_sha256=token_digest(ADMIN_TOKEN) if admin else None,
        payment_secret=PAYMENT_SECRET if payments else None,
        **more,
    ))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    """Serve `app` with uvicorn on a free loopback port in a thread; yields the base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=1)
    server = GracefulServer(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.handle_exit(signal.SIGINT, None)
        thread.join(30)
