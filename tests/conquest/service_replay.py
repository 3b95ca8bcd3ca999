"""Seasons run by the real service, and the re-play a dishonest operator would make of one.

The honest season goes through `season.create_season`, `season.contribute`, `season.fight`,
`season.reveal` and `publication.export_record`, keeping every receipt the service answers
and the head it publishes after each step. The operator who holds the seed and the season key
re-runs it with one contribution dropped, changed or moved: the same seed, the same key (his
copy of the key file's line, handed to the code that makes a season's key), the original
`header.json` copied into the rebuilt archive and its manifest recomputed. Nothing here
signs, hashes a leaf or writes a log: the service does all of it.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import tables
from fairfight.conquest.store import publication, season, season_keys
from tests.conquest.helpers import SEED, reseal

__all__ = [
    "ATTACK_PLANS",
    "HONEST_PLAN",
    "SERVICE_MAP",
    "ServiceSeason",
    "air_and_reveal",
    "replayed_archive",
    "run_service_season",
    "save_json",
    "with_season_key",
]

SERVICE_MAP = synthetic_map(8, 9, 3)
"""A small generated map whose factions are ZZ-001 to ZZ-009."""

HEADER_FILE = tables.RECORD_FILES["header"]

Plan = Mapping[int, Sequence[tuple[str, int]]]
"""Contributions by the battle they are made before: (faction, amount) in arrival order."""

HONEST_PLAN: Plan = {
    1: [("ZZ-003", 25)],
    3: [("ZZ-001", 10), ("ZZ-005", 20)],
    5: [("ZZ-002", 30), ("ZZ-004", 15)],
}
"""Five contributions before three battles; every attack changes the two before battle 3."""

ATTACK_PLANS: dict[str, Plan] = {
    "dropped": {**HONEST_PLAN, 3: [("ZZ-005", 20)]},
    "amount changed": {**HONEST_PLAN, 3: [("ZZ-001", 15), ("ZZ-005", 20)]},
    "reordered": {**HONEST_PLAN, 3: [("ZZ-005", 20), ("ZZ-001", 10)]},
}


@dataclass
class ServiceSeason:
    """A season file with what fans saved while it ran: each receipt in ledger order, and
    each head the service published after a step (contribution, battle, reveal)."""

    path: Path
    receipts: list[dict[str, Any]] = field(default_factory=list)
    heads: list[dict[str, Any]] = field(default_factory=list)

    def save_head(self) -> None:
        head = season.latest_head(self.path)
        assert head is not None, "a season made by this release keeps a log"
        self.heads.append(head)

    def private_key(self) -> str:
        """The season key's line, as the operator reads it from the key file."""
        return season_keys.KeyFile(season_keys.key_file_for(self.path)).read()


@contextmanager
def with_season_key(private_hex: str | None) -> Iterator[None]:
    """Seasons created inside are signed with `private_hex` (None: a fresh key, as always)."""
    if private_hex is None:
        yield
        return
    with mock.patch.object(season_keys, "new_private_key", return_value=private_hex):
        yield


def air_and_reveal(run: ServiceSeason, plan: Plan, first_battle: int = 1) -> None:
    """Contribute as `plan` says before each battle from `first_battle`, fight to the end,
    reveal; a head is saved after each step and a receipt kept for each contribution."""
    number = first_battle
    while not season.summary(run.path).board["ended"]:
        for faction, amount in plan.get(number, ()):
            recorded = season.contribute(run.path, faction, amount)
            assert recorded.receipt is not None
            run.receipts.append(recorded.receipt)
            run.save_head()
        list(season.fight(run.path, 1))
        run.save_head()
        number += 1
    season.reveal(run.path)
    run.save_head()


def run_service_season(folder: Path, plan: Plan, private_hex: str | None = None) -> ServiceSeason:
    """A whole season in `folder` (season.db), with the fixed seed and, when given, the key."""
    folder.mkdir(parents=True, exist_ok=True)
    run = ServiceSeason(folder / "season.db")
    with with_season_key(private_hex):
        season.create_season(run.path, dict(SERVICE_MAP), "synthetic", seed=SEED)
    run.save_head()
    air_and_reveal(run, plan)
    return run


def replayed_archive(
    honest_archive: Path, private_hex: str, plan: Plan, work: Path
) -> tuple[Path, ServiceSeason]:
    """The operator's rebuilt archive: the season re-run with `plan`, the seed and the key,
    exported, the original header copied in and the manifest recomputed."""
    rebuilt = run_service_season(work / "season", plan, private_hex)
    target = work / "archive"
    publication.export_record(rebuilt.path, target)
    shutil.copyfile(honest_archive / HEADER_FILE, target / HEADER_FILE)
    reseal(target)
    return target, rebuilt


def save_json(folder: Path, name: str, value: Any) -> Path:
    """Write a saved receipt or head as a fan's browser would keep it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path
