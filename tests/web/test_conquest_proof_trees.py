"""The tree the witness lanes keep per season gives consistency proofs that rebuild the roots of
the stored log, as it grows and when the file under it is replaced by another log: checked with
the RFC 9162 definitions written in the tests (`witness_fake`, `_mth`), not `core.merkle`."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from fairfight.conquest.store import log
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.proof_trees import ProofTrees
from tests.web.conquest_support import copy_season, make_app
from tests.web.test_conquest_my_contributions import _contribute, _mth, _stored_hashes
from tests.web.witness_fake import _root_from_proof


def _proof(trees: ProofTrees, path: Path, old: int) -> tuple[int, list[bytes]]:
    """(the newest head's size, the kept tree's proof from `old` to it) for the file."""
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{path}"))
    try:
        with catalog.read(1) as session:
            head = log.latest_head(session)
            assert head is not None
            return int(head["size"]), trees.consistency_proof(session, 1, old, head)
    finally:
        catalog.close()


def _contributed(path: Path, amount: int) -> list[bytes]:
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        _contribute(client, path, amount=amount)
    return _stored_hashes(path)


def test_proofs_rebuild_the_stored_roots_as_the_log_grows_and_after_it_is_replaced(
        season_file: Path, tmp_path: Path) -> None:
    other_folder = tmp_path / "other"
    other_folder.mkdir()
    other = copy_season(season_file, other_folder)  # the same start, to diverge below
    trees = ProofTrees()
    first = _stored_hashes(season_file)
    size, proof = _proof(trees, season_file, 1)
    assert size == len(first) > 1
    assert _root_from_proof(1, size, first[0], proof) == (first[0], _mth(first))
    assert _proof(trees, season_file, 0)[1] == []  # a witness that holds nothing gets none

    grown = _contributed(season_file, 20)
    size, proof = _proof(trees, season_file, len(first))
    assert size == len(grown) > len(first) and grown[:len(first)] == first
    assert _root_from_proof(len(first), size, _mth(first), proof) == (_mth(first), _mth(grown))

    replaced = _contributed(other, 30)  # as many leaves as `grown`, another last one
    assert len(replaced) == len(grown) and _mth(replaced) != _mth(grown)
    size, proof = _proof(trees, other, 1)
    assert _root_from_proof(1, size, replaced[0], proof) == (replaced[0], _mth(replaced))
