"""The split-view attack, played against any two witnesses (in process or real processes).

The operator copies one season (same seed, key and commitment, so the same checkpoint origin)
and shows fan A the copy holding A's contribution, fan B the copy holding B's instead. Both
services send their checkpoints to the same witnesses, A's view first.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app as conquest_cli
from fairfight.conquest.rules import tables
from fairfight.conquest.store import checkpoints, publication, season
from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.witnessing import ClientFactory
from fairfight.web.witness_settings import WitnessSetting
from tests.conquest.helpers import SEED
from tests.conquest.service_replay import SERVICE_MAP, save_json
from tests.web.conquest_support import copy_season

API = "/api/seasons/1"
WAIT = 60.0
"""Seconds a test waits for the background senders (never a speed check)."""

Split = dict[str, Path | str]
"""What the attack leaves: both checkpoints, both receipts, A's archive, the witnesses' vkeys."""


def two_views(root: Path) -> tuple[Path, Path, str, str]:
    """Season A and its copy B in `root/a` and `root/b`: both paths, the checkpoints' origin
    and the season key's vkey (what a witness is configured with)."""
    (root / "a").mkdir()
    (root / "b").mkdir()
    view_a = root / "a" / "season.db"
    season.create_season(view_a, dict(SERVICE_MAP), "synthetic", seed=SEED)
    view_b = copy_season(view_a, root / "b")
    summary = season.summary(view_a)
    vkey = checkpoints.verifier("localhost", summary.commitment,
                                summary.header[tables.LOG_KEY]).vkey()
    return view_a, view_b, checkpoints.origin("localhost", summary.commitment), vkey


def _service(path: Path, witnesses: list[WitnessSetting],
             client_factory: ClientFactory | None) -> TestClient:
    app = create_app(WebSettings(database_url=f"sqlite:///{path}", forecast_seasons=0,
                                 witnesses=witnesses))
    if client_factory is not None:
        app.state.conquest.witnessing.client_factory = client_factory
    return TestClient(app)


def _settled(service: TestClient) -> None:
    sender = service.app.state.conquest.witnessing  # type: ignore[attr-defined]
    sender.submit(1)
    assert sender.idle(WAIT)


def play_split(root: Path, view_a: Path, view_b: Path, witnesses: list[WitnessSetting],
               client_factory: ClientFactory | None = None) -> Split:
    """A contributes to view A and the witnesses see it; then B to view B; then A's season
    is played out, revealed and published (B's view never is)."""
    saved: Split = {"vkeys": " ".join(setting.vkey for setting in witnesses)}
    with ExitStack() as stack:
        service_a = stack.enter_context(_service(view_a, witnesses, client_factory))
        service_b = stack.enter_context(_service(view_b, witnesses, client_factory))
        receipt_a = season.contribute(view_a, "ZZ-003", 25).receipt
        _settled(service_a)  # the witnesses see A's view first
        receipt_b = season.contribute(view_b, "ZZ-005", 40).receipt
        _settled(service_b)
        saved["checkpoint_a"] = root / "a.checkpoint"
        saved["checkpoint_b"] = root / "b.checkpoint"
        Path(saved["checkpoint_a"]).write_text(service_a.get(f"{API}/checkpoint").text)
        Path(saved["checkpoint_b"]).write_text(service_b.get(f"{API}/checkpoint").text)
        sender_b = service_b.app.state.conquest.witnessing  # type: ignore[attr-defined]
        saved["failures_b"] = str(sum(lane.failures for lane in sender_b.lanes))
    saved["receipt_a"] = save_json(root, "receipt-a.json", receipt_a)
    saved["receipt_b"] = save_json(root, "receipt-b.json", receipt_b)
    while not season.summary(view_a).board["ended"]:
        list(season.fight(view_a, 1))
    season.reveal(view_a)
    saved["archive"] = root / "archive"
    publication.export_record(view_a, Path(saved["archive"]))
    return saved


def verify(split: Split, *options: str) -> tuple[int, str]:
    """`fairfight conquest verify` of A's archive, trusting both witnesses, with `options`."""
    witnesses = [item for vkey in str(split["vkeys"]).split() for item in ("--witness", vkey)]
    result = CliRunner().invoke(conquest_cli, ["verify", str(split["archive"]), *witnesses,
                                               *options])
    return result.exit_code, result.output
