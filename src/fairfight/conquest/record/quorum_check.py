"""Checkpoints held to a witness quorum, and two signed views of one season that are not one log.

Standard library only; a season archive ships this file beside `verifier.py` (with
`signed_note.py` and `cosignature.py`). A saved checkpoint (a C2SP note, as the season service
serves it) must be signed by the season key under an origin naming this season's commitment;
given witness keys (`--witness NAME+KEY`, a cosignature/v1 vkey) and a quorum (`--quorum K`),
it must carry at least K valid cosignatures by distinct given witnesses, or it is refused
(InputError: the command lines exit 2). A checkpoint that passes is then held to the final log
like a saved head: its root must be the root of the final log's first `size` leaves.

A quorum shows that K witnesses saw this checkpoint and that each refused any checkpoint of the
season inconsistent with what it had seen: an operator showing two logs would need K witnesses
to sign both. It does not hold against K witnesses that collude with the operator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

if __package__:
    from fairfight.conquest.record import log_check
    from fairfight.conquest.rules import tables
    from fairfight.conquest.rules.engine import ReplayMismatch
    from fairfight.core import ed25519, merkle, signed_note
    from fairfight.core.cosignature import CosignatureError, WitnessKey, cosigned_by
    from fairfight.core.errors import InputError
    from fairfight.core.records import canonical_json
else:  # a plain file in a season archive: the files lying beside it stand in for the package
    import ed25519  # type: ignore[import-not-found, no-redef, unused-ignore]
    import log_check  # type: ignore[import-not-found, no-redef, unused-ignore]
    import merkle  # type: ignore[import-not-found, no-redef, unused-ignore]
    import signed_note  # type: ignore[import-not-found, no-redef, unused-ignore]
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]
    from cosignature import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        CosignatureError,
        WitnessKey,
        cosigned_by,
    )
    from engine import ReplayMismatch  # type: ignore[import-not-found, no-redef, unused-ignore]
    from errors import InputError  # type: ignore[import-not-found, no-redef, unused-ignore]
    from records import canonical_json  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = [
    "CHECKPOINT_BYTES",
    "Options",
    "Quorum",
    "Refusal",
    "SavedNote",
    "View",
    "check_checkpoints",
    "find_split",
    "parse_options",
    "quorum_words",
    "read_checkpoint",
    "witness_keys",
]

SavedNote: TypeAlias = tuple[str, str]
"""A checkpoint a fan saved, as (its file name, its note text)."""
View: TypeAlias = tuple[str, int, str]
"""A signed view of the log: (which saved file, its size, its root in hex)."""
CHECKPOINT_BYTES = 64 * 1024
"""The largest checkpoint file read (a cosigned checkpoint is well under 2 KiB)."""
_FLAGS = ("--receipt", "--head", "--checkpoint", "--witness", "--quorum", "--beacon")


Refusal = InputError
"""What a checkpoint without its quorum, or a bad `--witness` or `--quorum`, raises (the command
lines exit 2, as for any refused input)."""


@dataclass(frozen=True)
class Quorum:
    """The checkpoints a fan saved and what they must carry: cosignatures by at least `quorum`
    of the `witnesses` (vkeys)."""

    checkpoints: Sequence[SavedNote] = ()
    witnesses: Sequence[str] = ()
    quorum: int = 0


class Options:
    """The saved files and the witness requirement a verify command was given."""

    def __init__(self) -> None:
        self.receipts: list[Path] = []
        self.heads: list[Path] = []
        self.checkpoints: list[Path] = []
        self.witnesses: list[str] = []
        self.quorum = 0
        self.beacons: list[str] = []


def parse_options(options: Sequence[str]) -> Options | None:
    """`--receipt FILE`, `--head FILE`, `--checkpoint FILE`, `--witness VKEY` (each
    repeatable), `--quorum K` and `--beacon HEX` (the timelock's unlock signature, at most
    once), in pairs; None when they are malformed."""
    if len(options) % 2:
        return None
    found = Options()
    for flag, value in zip(options[::2], options[1::2], strict=True):
        if flag not in _FLAGS:
            return None
        if flag == "--quorum":
            if not value.isdigit() or len(value) > 3:
                return None
            found.quorum = int(value)
        elif flag == "--witness":
            found.witnesses.append(value)
        elif flag == "--beacon":
            found.beacons.append(value)
        else:
            listed = {"--receipt": found.receipts, "--head": found.heads}
            listed.get(flag, found.checkpoints).append(Path(value))
    return found if len(found.beacons) < 2 else None


def read_checkpoint(path: Path) -> SavedNote:
    """A saved checkpoint note, as (its file name, its text); UTF-8, at most 64 KiB."""
    if not path.is_file():
        raise ReplayMismatch(path.name, "no such file")
    data = path.read_bytes()[: CHECKPOINT_BYTES + 1]
    if len(data) > CHECKPOINT_BYTES:
        raise ReplayMismatch(path.name, f"larger than {CHECKPOINT_BYTES} bytes; refused")
    try:
        return path.name, data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayMismatch(f"checkpoint {path.name}", "is not UTF-8 text") from None


def witness_keys(vkeys: Sequence[str], quorum: int) -> list[Any]:
    """The witness keys given, read; InputError naming `--witness` or `--quorum`."""
    keys = []
    for vkey in vkeys:
        try:
            keys.append(WitnessKey.from_vkey(vkey))
        except CosignatureError as error:
            raise InputError("--witness", f"{vkey[:40]!r}: {error}") from None
    names = [key.name for key in keys]
    if len(set(names)) != len(names):
        raise InputError("--witness", "each witness may be given once")
    if quorum > len(keys):
        raise InputError("--quorum", f"{quorum} needs at least {quorum} --witness keys, "
                         f"{len(keys)} given")
    return keys


def _open(name: str, note: str, key: bytes, season: str) -> tuple[str, Any]:
    """(origin, checkpoint) of a note signed by the season key under this season's origin."""
    place = f"checkpoint {name}"
    origin = note.split("\n", 1)[0]
    if not origin.endswith(f"/conquest/{season}"):
        raise ReplayMismatch(place, "its origin does not name this season's commitment")
    try:
        verifier = signed_note.verifier_key(origin, key)
        text, _ = signed_note.open_note(note, [verifier])
        return origin, signed_note.parse_checkpoint(text)
    except signed_note.NoteError as error:
        raise ReplayMismatch(place, f"not a checkpoint signed by the season key ({error})"
                             ) from None


def _cosigners(name: str, note: str, keys: list[Any], quorum: int) -> list[str]:
    """The given witnesses that validly cosigned the note; InputError below the quorum."""
    try:
        found = sorted(cosigned_by(note, keys))
    except (signed_note.NoteError, ValueError):
        found = []
    if len(found) < quorum:
        raise InputError(f"checkpoint {name}", quorum_words(found, quorum))
    return found


def quorum_words(found: Sequence[str], quorum: int) -> str:
    """Why a checkpoint is refused, the same words in every verifier: `cosigned by 1 of the 2
    witnesses you require: alpha` (the cosigners found, of the quorum asked for)."""
    shown = f": {', '.join(found)}" if found else ""
    return f"cosigned by {len(found)} of the {quorum} witnesses you require{shown}"


def check_checkpoints(record: Mapping[str, Any], given: Quorum,
                      receipts: Sequence[log_check.Saved] = ()) -> list[str]:
    """Each saved checkpoint: the season key's signature, the quorum of cosignatures, its
    root a prefix of the final log's; with a quorum, each receipt covered by such a
    checkpoint. Notes for the viewer."""
    checkpoints, quorum = given.checkpoints, given.quorum
    keys = witness_keys(given.witnesses, quorum)
    if quorum and not checkpoints:
        raise InputError("--quorum", "needs at least one --checkpoint to hold to it")
    if not checkpoints:
        return []
    header, log = record["header"], record.get("log")
    if tables.LOG_KEY not in header or log is None:
        raise ReplayMismatch(f"checkpoint {checkpoints[0][0]}", "refused: this season has no log")
    key, season = bytes.fromhex(header[tables.LOG_KEY]), record["commitment"]
    tree = merkle.MerkleTree.of_leaf_hashes(
        merkle.leaf_hash(canonical_json(leaf)) for leaf in log["leaves"])
    notes, covered = [], 0
    for name, note in checkpoints:
        _, checkpoint = _open(name, note, key, season)
        found = _cosigners(name, note, keys, quorum)
        size = checkpoint.size
        if size > len(tree) or tree.root(size) != checkpoint.root:
            raise ReplayMismatch(f"checkpoint {name}", f"the log of {size} leaves it signs is "
                                 "not the first leaves of the final log: the archive is not "
                                 "the log this checkpoint showed")
        covered = max(covered, size)
        by = f"cosigned by {len(found)} of {len(keys)} witnesses: {', '.join(found)}" if found \
            else "no witness cosignature checked"
        notes.append(f"checkpoint {name}: {size} leaves, signed by the season key, {by}; a "
                     "prefix of the final log")
    for name, receipt in receipts if quorum else ():
        if receipt["leaf_index"] >= covered:
            raise InputError(f"receipt {name}", f"its leaf {receipt['leaf_index']} is in no "
                             f"checkpoint given with {quorum} cosignatures; save a newer one")
    return notes


def _signed_views(record: Mapping[str, Any], receipts: Sequence[log_check.Saved],
                  heads: Sequence[log_check.Saved]) -> list[View]:
    """Every saved head (a receipt's too) that is well formed and signed by the season key."""
    key = bytes.fromhex(record["header"][tables.LOG_KEY])
    views = []
    found = [(f"head {name}", head) for name, head in heads] + [
        (f"receipt {name}", receipt.get("head")) for name, receipt in receipts
        if isinstance(receipt, dict)]
    for place, head in found:
        try:
            signed = ed25519.verify(key, log_check.head_message(head),
                                    bytes.fromhex(head["signature"]))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        if signed and head.get("season") == record["commitment"]:
            views.append((place, int(head["size"]), str(head["root"])))
    return views


def find_split(record: Mapping[str, Any], receipts: Sequence[log_check.Saved],
               heads: Sequence[log_check.Saved]) -> str | None:
    """Two saved views, both signed by the season key, that cannot be one log: the same size
    with two roots, or one a prefix of the final log and the other not. None otherwise."""
    try:
        views = _signed_views(record, receipts, heads)
        tree = merkle.MerkleTree.of_leaf_hashes(
            merkle.leaf_hash(canonical_json(leaf)) for leaf in record["log"]["leaves"])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    for number, (place, size, root) in enumerate(views):
        for other, other_size, other_root in views[number + 1:]:
            if size == other_size and root != other_root:
                return (f"{place} and {other} are both signed by the season key for {size} "
                        "leaves, with different roots: the season was shown as two logs")
    prefix = [view for view in views
              if view[1] <= len(tree) and tree.root(view[1]).hex() == view[2]]
    apart = [view for view in views if view not in prefix]
    if prefix and apart:
        return (f"{apart[0][0]} ({apart[0][1]} leaves) and {prefix[0][0]} ({prefix[0][1]} "
                "leaves) are both signed by the season key but are not one log: the season "
                "was shown as two logs")
    return None
