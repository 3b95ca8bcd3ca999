"""Fixtures of the web tests: one demo season built per session, copied for each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.web.app import create_app
from fairfight.web.conquest.demo_season import build_demo_season
from fairfight.web.settings import WebSettings
from tests.web.conquest_support import SEED, copy_season, make_app


@pytest.fixture(scope="session")
def demo_master(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    """The demo season (6 battles, a FAN CLASH, a waiting rebellion), built once."""
    folder = tmp_path_factory.mktemp("demo-master")
    path = folder / "season.db"
    arranged = build_demo_season(path, seed=SEED)
    return path, arranged


@pytest.fixture
def season_file(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Path:
    """A private copy of the demo season for one test."""
    return copy_season(demo_master[0], tmp_path)


@pytest.fixture
def arranged(demo_master: tuple[Path, dict[str, object]]) -> dict[str, object]:
    """What the demo builder arranged (the FAN CLASH battle, the waiting rebel)."""
    return demo_master[1]


@pytest.fixture
def client(season_file: Path) -> Iterator[TestClient]:
    """A test client over a private demo season, with the admin token configured."""
    with TestClient(make_app(season_file), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def app() -> FastAPI:
    """The whole service on a private in-memory database (files needing other settings define
    their own `app`, which takes precedence)."""
    return create_app(WebSettings(database_url="sqlite://"))


@pytest.fixture
def creator(app: FastAPI) -> Iterator[TestClient]:
    """The client of whoever opens a game: a 500 comes back as a response to assert on."""
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
