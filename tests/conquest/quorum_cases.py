"""The shared table of witness-quorum cases: an archive, saved checkpoints (and receipts), the
witness keys and quorum a fan requires, and what every verifier must answer.

The bare Python verifier and `node engine.js verify` run it in tests/conquest/test_quorum.py,
the verify page in tests/web/test_verify_page_quorum.py, so all three accept and refuse the
same checkpoints with the same words. Checkpoints are signed here as the season service signs
them (a C2SP note under `<host>/conquest/<commitment>` by the season key) and cosigned as a
witness cosigns (cosignature/v1); the expected words are written out by hand.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.core import merkle, signed_note
from fairfight.core.cosignature import WitnessKey, sign_cosignature
from fairfight.core.records import canonical_json
from tests.conquest.helpers import SEED
from tests.conquest.log_archive import LoggedSeason, build_logged_season, write_archive
from tests.conquest.log_cases import HONEST_PLAN, honest_season, season_key

__all__ = ["QuorumCase", "build_quorum_cases", "witness_key", "witness_vkey"]

HOST = "fairfight.example"
TIMESTAMP = 1_796_000_000
"""When the witnesses cosign (POSIX seconds); any time after 1970 will do."""


def witness_key(name: str) -> Ed25519PrivateKey:
    """A witness's private key, the same on every run."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"witness {name}".encode()).digest())


def witness_vkey(name: str) -> str:
    """The witness's verifier key, as a fan passes it to `--witness`."""
    return WitnessKey.of(name, witness_key(name).public_key().public_bytes_raw()).vkey()


@dataclass
class QuorumCase:
    """One archive with the checkpoints and receipts saved beside it, the witnesses and quorum
    the fan requires, and the verdict every verifier gives."""

    name: str
    archive: Path
    checkpoints: list[Path]
    witnesses: list[str]
    quorum: int
    said: str
    """The note (when passed) or the whole message `place: detail` (when not)."""
    receipts: list[Path] = field(default_factory=list)
    exit_code: int = 0
    """0 passed, 1 a mismatch (the archive is not the log shown), 2 refused (no quorum)."""

    def options(self) -> list[str]:
        """The command-line options the bare verifier and engine.js take for this case."""
        found = ["--quorum", str(self.quorum)]
        for vkey in self.witnesses:
            found += ["--witness", vkey]
        for path in self.checkpoints:
            found += ["--checkpoint", str(path)]
        for path in self.receipts:
            found += ["--receipt", str(path)]
        return found


def _checkpoint(season: LoggedSeason, size: int, cosigners: list[str], path: Path) -> Path:
    """The season's checkpoint of its first `size` leaves, cosigned by `cosigners`."""
    commitment = season.record["commitment"]
    tree = merkle.MerkleTree.of_leaf_hashes(
        merkle.leaf_hash(canonical_json(leaf)) for leaf in season.leaves)
    origin = f"{HOST}/conquest/{commitment}"
    key = season_key()
    text = signed_note.checkpoint_text(origin, size, tree.root(size))
    note = signed_note.sign_note(text, origin, key.public_key().public_bytes_raw(), key.sign)
    for name in cosigners:
        note += sign_cosignature(note, name, witness_key(name), TIMESTAMP)
    path.write_text(note, encoding="utf-8")
    return path


def _save(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def build_quorum_cases(root: Path) -> list[QuorumCase]:
    """Every case under `root`: quorums met and missed, a checkpoint of another log, a split."""
    honest = honest_season()
    good = write_archive(honest, root / "honest")
    changed = {**HONEST_PLAN, 3: [("ZZ-001", 15), ("ZZ-005", 20)]}  # another amount at leaf 4
    forged_season = build_logged_season(synthetic_map(8, 9, 3), SEED, changed, season_key(),
                                        honest.record["header"])
    forged = write_archive(forged_season, root / "forged")
    saved = root / "saved"
    saved.mkdir()
    size = len(honest.leaves)
    both = _checkpoint(honest, size, ["alpha", "beta"], saved / "both.checkpoint")
    alpha = _checkpoint(honest, size, ["alpha", "gamma"], saved / "alpha.checkpoint")
    bare = _checkpoint(honest, size, [], saved / "bare.checkpoint")
    early = _checkpoint(honest, 3, ["alpha", "beta"], saved / "early.checkpoint")
    second = honest.receipts[1]
    index = second["leaf_index"]
    mine = _save(saved / "mine.json", second)
    theirs_value = copy.deepcopy(forged_season.receipts[1])
    theirs = _save(saved / "theirs.json", theirs_value)
    pair = [witness_vkey("alpha"), witness_vkey("beta")]
    return [
        QuorumCase("cosigned by both witnesses required", good, [both], pair, 2,
                   f"checkpoint both.checkpoint: {size} leaves, signed by the season key, "
                   "cosigned by 2 of 2 witnesses: alpha, beta; a prefix of the final log",
                   [mine]),
        QuorumCase("one of two (a witness not required does not count)", good, [alpha], pair, 2,
                   "checkpoint alpha.checkpoint: cosigned by 1 of the 2 witnesses you "
                   "require: alpha", exit_code=2),
        QuorumCase("one of three is enough for a quorum of one", good, [alpha],
                   [*pair, witness_vkey("gamma")], 1,
                   f"checkpoint alpha.checkpoint: {size} leaves, signed by the season key, "
                   "cosigned by 2 of 3 witnesses: alpha, gamma; a prefix of the final log"),
        QuorumCase("not cosigned at all", good, [bare], pair[:1], 1,
                   "checkpoint bare.checkpoint: cosigned by 0 of the 1 witnesses you require",
                   exit_code=2),
        QuorumCase("a receipt newer than every quorum checkpoint", good, [early], pair, 2,
                   f"receipt mine.json: its leaf {index} is in no checkpoint given with 2 "
                   "cosignatures; save a newer one", [mine], exit_code=2),
        QuorumCase("the witnesses' checkpoint against another log", forged, [both], pair, 2,
                   f"checkpoint both.checkpoint: the log of {size} leaves it signs is not the "
                   "first leaves of the final log: the archive is not the log this checkpoint "
                   "showed", exit_code=1),
        QuorumCase("two receipts of one leaf from two views", good, [both], pair, 2,
                   f"split view: receipt mine.json and receipt theirs.json are both signed by "
                   f"the season key for {index + 1} leaves, with different roots: the season "
                   "was shown as two logs", [mine, theirs], exit_code=1),
    ]
