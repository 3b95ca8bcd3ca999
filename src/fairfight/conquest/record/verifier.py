"""The conquest record verifier: replay a published season and compare it field by field [§9].

Standard library only. Inside a season archive, `python3 verifier.py verify . [--receipt
FILE]... [--head FILE]...` (or `python3 -S verifier.py verify season.zip`) checks the manifest,
the header, the seed against its commitment, the map, the ledger and then every battle and the
final map against a replay with `engine.py`, and then the season log against the archive and
the receipts and heads given (`log_check.py`); the first difference is named (`MISMATCH place:
field ...: expected ..., found ...`). The files it imports (`engine.py`, `tables.py`,
`beacons.py`, `log_check.py`, `draws.py`, `errors.py`, `exact.py`, `merkle.py`, `ed25519.py`,
`records.py`) lie beside it there and are imported as plain files.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

if __package__:
    from fairfight.conquest.record import beacons, log_check, season_luck
    from fairfight.conquest.rules import engine, tables
    from fairfight.core.draws import verify_reveal
    from fairfight.core.errors import InputError, VerificationError
    from fairfight.core.records import (
        BYTE_ORDER_MARK,
        BYTE_ORDER_MARK_RULE,
        MAX_NESTING,
        ReadRefusal,
        first_difference,
        json_lines,
        lone_surrogate,
        nested_too_deep,
        read_zip_members,
    )
else:  # a plain file in a season archive: the files lying beside it stand in for the package
    import beacons  # type: ignore[import-not-found, no-redef, unused-ignore]
    import engine  # type: ignore[import-not-found, no-redef, unused-ignore]
    import log_check  # type: ignore[import-not-found, no-redef, unused-ignore]
    import season_luck  # type: ignore[import-not-found, no-redef, unused-ignore]
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]
    from draws import verify_reveal  # type: ignore[import-not-found, no-redef, unused-ignore]
    from errors import InputError, VerificationError  # type: ignore[import-not-found, no-redef, unused-ignore]
    from records import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        BYTE_ORDER_MARK,
        BYTE_ORDER_MARK_RULE,
        MAX_NESTING,
        ReadRefusal,
        first_difference,
        json_lines,
        lone_surrogate,
        nested_too_deep,
        read_zip_members,
    )

Plain = engine.Plain
ReplayMismatch = engine.ReplayMismatch
"""The mismatch every check raises (a `core.errors.VerificationError`), defined with the rules."""

__all__ = [
    "Plain",
    "ReplayMismatch",
    "check_header",
    "engine_files_named",
    "first_difference",
    "load_record",
    "load_saved",
    "main",
    "unlock_record",
    "verify_record",
]

_HEADER_FIELDS = ("beacon", "engine_files", "engine_version", "map_name", "map_sha256",
                  "max_battles", "ruleset")
"""Every field a season header must hold."""
_TIMELOCK_FIELDS = ("chain_hash", "ciphertext", "network", "round")
"""The optional `timelock` field: the seed locked to a drand round (docs/season-log.md)."""
_BEACON_SPEC_FIELDS = ("chain_hash", "name", "period_seconds", "round")
_BEACON_VALUE_FIELDS = ("randomness", "round", "signature")
_LEDGER_FIELDS = ("amount", "before_battle", "faction", "seq")
_MAP_FIELDS: dict[str, tuple[str, ...]] = {
    "map": ("borders", "name", "regions"),
    "region": ("code", "name", "population", "population_basis", "population_year", "ratings",
               "special"),
    "ratings": tuple(c.value for c in tables.CATEGORIES),
    "special": ("category", "citation", "fact", "name", "source_status"),
    "border": ("a", "b", "distance_km", "kind", "remote"),
}
"""The keys a map may hold, by object kind (the map format's schema, repeated for the verifier)."""
_SPACES = " \t\n\r"
"""The whitespace a `.txt` record file may carry around its value (JSON's own four)."""
_RECORD_FILE_LIMIT = 64 * 1024 * 1024
"""Bytes; a record file above this is refused rather than read (a real season is ~2 MB)."""


def _is_int(value: Any, low: int = 0) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value


def _is_hex64(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef"
                                                               for c in value)


def _check_known(place: str, value: Any, fields: Iterable[str], path: str = "") -> None:
    """An object with no key outside `fields` (the first unknown key in sorted order is named)."""
    if not isinstance(value, dict):
        raise ReplayMismatch(
            place, f"field {path or 'value'}: must be an object, found {engine.shown(value)}"
        )
    allowed = set(fields)
    for key in sorted(value):
        if key not in allowed:
            raise ReplayMismatch.of_field(
                place, f"{path}.{key}" if path else key, engine.ABSENT, value[key]
            )


def _check_fields(place: str, value: Any, fields: Iterable[str], path: str = "") -> None:
    """An object holding exactly `fields`: an unknown key, then a missing one, is named."""
    fields = tuple(fields)
    _check_known(place, value, fields, path)
    _check_present(place, value, fields, path)


def _check_present(place: str, value: Plain, fields: Iterable[str], path: str = "") -> None:
    """Every one of `fields` is a key of `value` (the first missing one in sorted order)."""
    for key in sorted(fields):
        if key not in value:
            raise ReplayMismatch(place, f"field {f'{path}.{key}' if path else key}: missing")


def engine_files_named(files: Any) -> tuple[str, ...]:
    """The verifier files a header must name: those of an older archive (three, the eight from
    before the season log, or the thirteen from before `luck.json`) when it names exactly
    those, else today's (`ENGINE_FILES`)."""
    for older in (tables.LEGACY_ENGINE_FILES, tables.PREVIOUS_ENGINE_FILES,
                  tables.BEFORE_LUCK_ENGINE_FILES):
        if isinstance(files, dict) and set(files) == set(older):
            return older
    return tables.ENGINE_FILES


def check_header(header: Any) -> None:
    """Raise ReplayMismatch unless the header holds exactly its fields, each well formed [§8]."""
    if not isinstance(header, dict):
        raise ReplayMismatch("header",
                             f"field value: must be an object, found {engine.shown(header)}")
    if header.get("engine_version") != tables.ENGINE_VERSION:
        raise ReplayMismatch.of_field("header", "engine_version", tables.ENGINE_VERSION,
                                      header.get("engine_version", engine.ABSENT))
    _check_known("header", header,
                 (*_HEADER_FIELDS, beacons.PUBLISHED, tables.LOG_KEY, "timelock"))
    _check_present("header", header, _HEADER_FIELDS)
    if header["ruleset"] != "conquest":
        raise ReplayMismatch.of_field("header", "ruleset", "conquest", header["ruleset"])
    if not isinstance(header["map_name"], str) or not header["map_name"]:
        raise ReplayMismatch("header", "field map_name: must be non-empty text")
    if not _is_hex64(header["map_sha256"]):
        raise ReplayMismatch("header", "field map_sha256: must be 64 lowercase hex digits")
    files = header["engine_files"]
    named = engine_files_named(files)
    _check_fields("header", files, named, "engine_files")
    for name in named:
        if not _is_hex64(files[name]):
            raise ReplayMismatch("header",
                                 f"field engine_files.{name}: must be 64 lowercase hex digits")
    cap = header["max_battles"]
    if cap is not None and not _is_int(cap, 1):
        raise ReplayMismatch(
            "header",
            f"field max_battles: must be null or a whole number >= 1, found {engine.shown(cap)}",
        )
    spec = header["beacon"]
    if spec is not None:
        _check_fields("header", spec, _BEACON_SPEC_FIELDS, "beacon")
        if not isinstance(spec["name"], str) or not _is_hex64(spec["chain_hash"]):
            raise ReplayMismatch(
                "header", "field beacon: needs a name and a 64-hex-digit chain_hash"
            )
        for key in ("period_seconds", "round"):
            if not _is_int(spec[key], 1):
                raise ReplayMismatch("header", f"field beacon.{key}: must be a whole number >= 1")
    if beacons.PUBLISHED in header:
        if spec is None:
            raise ReplayMismatch.of_field(
                "header", beacons.PUBLISHED, engine.ABSENT, header[beacons.PUBLISHED]
            )
        beacons.checked_published(header[beacons.PUBLISHED])
    if tables.LOG_KEY in header and not _is_hex64(header[tables.LOG_KEY]):
        raise ReplayMismatch("header", f"field {tables.LOG_KEY}: must be 64 lowercase hex digits")
    if "timelock" in header:
        lock = header["timelock"]
        _check_fields("header", lock, _TIMELOCK_FIELDS, "timelock")
        if not (_is_hex64(lock["chain_hash"]) and _is_int(lock["round"], 1)
                and isinstance(lock["network"], str) and isinstance(lock["ciphertext"], str)):
            raise ReplayMismatch("header", "field timelock: needs a network, a 64-hex-digit "
                                 "chain_hash, a round >= 1 and an armored ciphertext")


def _check_map_fields(map_data: Any) -> None:
    """The map holds only the keys of the map format (its hash covers them all)."""
    _check_fields("map", map_data, _MAP_FIELDS["map"])
    for name, kind in (("regions", "region"), ("borders", "border")):
        items = map_data[name]
        if not isinstance(items, list):
            raise ReplayMismatch("map", f"field {name}: must be a list")
        for i, item in enumerate(items):
            _check_known("map", item, _MAP_FIELDS[kind], f"{name}[{i}]")
            for inner in ("ratings", "special") if kind == "region" else ():
                if isinstance(item.get(inner), dict):
                    _check_known("map", item[inner], _MAP_FIELDS[inner], f"{name}[{i}].{inner}")


def _check_ledger_lines(ledger: list[Any]) -> None:
    """Exactly four fields a line, seq strictly increasing, battles never going back [§9.2]."""
    previous_seq, previous_battle = 0, 0
    for i, entry in enumerate(ledger):
        seq = entry.get("seq") if isinstance(entry, dict) else None
        place = f"ledger seq {seq}" if _is_int(seq) else f"ledger[{i}]"
        _check_fields(place, entry, _LEDGER_FIELDS)
        if not isinstance(seq, int) or not _is_int(seq) or seq <= previous_seq:
            raise ReplayMismatch(f"ledger[{i}].seq",
                                 f"must increase strictly, found {engine.shown(seq)}")
        battle = entry["before_battle"]
        if not _is_int(battle) or battle < previous_battle:
            raise ReplayMismatch(f"{place}.before_battle",
                                 f"must not go back, found {engine.shown(battle)}")
        if battle < 1:
            raise ReplayMismatch(f"{place}.before_battle", "must be the next battle at "
                                 f"arrival; no battle has number {battle}")
        if not isinstance(entry["faction"], str) or not _is_int(entry["amount"], -(2**64)):
            raise ReplayMismatch(place, "field faction or amount: must be text and a whole number")
        previous_seq, previous_battle = seq, battle


def _replay_season(state: Plain, ledger: list[Plain]) -> tuple[Plain, list[Plain]]:
    """Play the season to its end, validating every ledger entry on the way [§9.2].

    The ledger is judged against the replayed state alone, so a refused entry is reported
    before any saved battle is compared, as §9 orders the checks.
    """
    entries = []
    while not state["board"]["ended"]:
        try:
            state, entry = engine.play_step(state, ledger)
        except engine.LedgerRefusal as refusal:
            raise ReplayMismatch(refusal.field, refusal.rule) from None
        entries.append(entry)
    for contribution in ledger:
        if contribution["before_battle"] >= state["board"]["next_battle"]:
            raise ReplayMismatch(f"ledger seq {contribution['seq']}",
                                 "dated after the season ended; it was never applied")
    return state, entries


def verify_record(record: Mapping[str, Any], receipts: Sequence[log_check.Saved] = (),
                  heads: Sequence[log_check.Saved] = ()) -> list[str]:
    """Replay a published season and compare every field, then check its season log against
    the receipts and heads fans saved (each as its file name and value); raise ReplayMismatch
    at the first miss. Returns notes for the viewer (what was checked, and what could not be).
    """
    try:
        return [*_verify(record), *log_check.check_log(record, receipts, heads)]
    except (KeyError, TypeError, AttributeError, IndexError) as error:
        raise ReplayMismatch("record", f"malformed ({type(error).__name__}: {error})") from None


def _season_key_of(record: Mapping[str, Any], header: Plain, seed: str) -> tuple[str, list[str]]:
    """The season key, mixing in the recorded beacon round when the header names one [§2]."""
    beacon, spec = record.get("beacon"), header["beacon"]
    if spec is None:
        if beacon is not None:
            raise ReplayMismatch("beacon", "recorded, but the header names no beacon round")
        return engine.season_key(seed, None), []
    _, timing = beacons.beacon_timing(header)
    if beacon is None:
        raise ReplayMismatch("beacon", "the header names a beacon round but none is recorded")
    _check_fields("beacon", beacon, _BEACON_VALUE_FIELDS)
    if not _is_int(beacon["round"], 1) or beacon["round"] != spec["round"]:
        raise ReplayMismatch.of_field("beacon", "round", spec["round"], beacon["round"])
    if not _is_hex64(beacon["randomness"]):
        raise ReplayMismatch("beacon", "field randomness: must be 64 lowercase hex digits")
    note = (f"beacon round {beacon['round']} mixed into the season key; its signature is not "
            "checked here (check it against the beacon's own public record)")
    return engine.season_key(seed, beacon["randomness"]), [timing, note]


def _verify(record: Mapping[str, Any]) -> list[str]:
    header, seed = record["header"], record.get("seed")
    check_header(header)
    notes = []
    manifest = record.get("manifest")
    if manifest is not None:
        named = header["engine_files"]
        for name in sorted(named):
            if manifest.get(name) != named[name]:
                raise ReplayMismatch(name,
                                     "its SHA-256 is not the one header.engine_files names for it")
        for name in tables.ENGINE_FILES:
            if name in manifest and name not in named:
                raise ReplayMismatch(name, "is not one of the files header.engine_files names")
        notes.append("every file matches manifest.sha256; the engine files are the header's")
    if seed is None:
        raise ReplayMismatch("seed", "not revealed yet; a season is replayed after the reveal")
    if not verify_reveal(seed, record["commitment"]):
        raise ReplayMismatch("seed", "its SHA-256 does not match the published commitment")
    map_data = record["map"]
    _check_map_fields(map_data)
    if engine.map_sha256(map_data) != header["map_sha256"]:
        raise ReplayMismatch("map", "its SHA-256 does not match header.map_sha256")
    if map_data["name"] != header["map_name"]:
        raise ReplayMismatch.of_field("header", "map_name", map_data["name"], header["map_name"])
    notes += [f"seed matches commitment {record['commitment']}", "map matches header.map_sha256"]
    if record.get("unlocked"):
        notes.append(f"seed unlocked from drand round {header['timelock']['round']}, not revealed")
    key, beacon_notes = _season_key_of(record, header, seed)
    notes += beacon_notes
    try:
        state = engine.new_state(map_data, key, header["max_battles"])
    except ValueError as error:
        raise ReplayMismatch("map", str(error)) from None
    ledger = list(record["ledger"])
    _check_ledger_lines(ledger)
    state, replayed = _replay_season(state, ledger)
    board = state["board"]
    saved_history = list(record["history"])
    for saved, entry in zip(saved_history, replayed, strict=False):
        found = first_difference(saved, entry)
        if found:
            where, was, now = found
            raise ReplayMismatch.of_field(f"battle {entry['number']}", where, now, was)
    if len(saved_history) > len(replayed):
        raise ReplayMismatch(
            f"battle {len(replayed) + 1}", "extra entry: the season had already ended"
        )
    if len(saved_history) < len(replayed):
        raise ReplayMismatch(
            f"battle {len(saved_history) + 1}", "missing: the season had not ended"
        )
    found = first_difference(record["final_map"], board)
    if found:
        where, was, now = found
        raise ReplayMismatch.of_field("final map", where, now, was)
    notes.append(f"{board['next_battle'] - 1} battles replayed; the final map matches")
    return [*notes, *_check_luck(record, state)]


def _check_luck(record: Mapping[str, Any], state: Plain) -> list[str]:
    """`luck.json` equals the luck recomputed from the replayed battles and their chances; it
    is present exactly when the header names the file that computes it."""
    saved = record.get("luck")
    if tables.LUCK_ENGINE_FILE not in record["header"]["engine_files"]:
        if saved is not None:
            raise ReplayMismatch("luck.json", "the header names no season_luck.py to check it")
        return []
    if saved is None:
        raise ReplayMismatch("luck.json", "missing from the record")
    world, board = state["world"], state["board"]
    champion = season_luck.champion_of(board, lambda code: engine.population_power(
        engine.people(world, board, code, board["next_battle"])))
    found = first_difference(saved, season_luck.season_luck(list(record["history"]), champion))
    if found:
        where, was, now = found
        raise ReplayMismatch.of_field("luck.json", where, now, was)
    return ["luck.json matches the luck recomputed from the battles and their exact chances"]


class _RecordFileError(ValueError):
    """A record file that cannot be read as canonical JSON."""


def _refuse_float(text: str) -> Any:
    raise _RecordFileError(f"numbers must be whole, found {text[: tables.SHOWN_LENGTH]}")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> Plain:
    value: Plain = {}
    for key, item in pairs:
        if key in value:
            raise _RecordFileError(f"the key {engine.shown(key)} appears twice")
        value[key] = item
    return value


def _parse_json(text: str) -> Any:
    return json.loads(
        text,
        parse_float=_refuse_float,
        parse_constant=_refuse_float,
        object_pairs_hook=_refuse_duplicates,
    )


def _parse_json_text(name: str, number: int, line: str) -> Any:
    """One JSON value of a record or saved file; a failure names the file and the line."""
    try:
        value = _parse_json(line)
    except RecursionError:
        raise ReplayMismatch(name, f"line {number}: nested too deeply") from None
    except _RecordFileError as error:
        raise ReplayMismatch(name, f"line {number}: {error}") from None
    except ValueError as error:
        raise ReplayMismatch(
            name, f"line {number}: not valid JSON ({engine.shown(str(error))})"
        ) from None
    if nested_too_deep(line, value):
        raise ReplayMismatch(name, f"line {number}: nested more than {MAX_NESTING} levels deep")
    surrogate = lone_surrogate(line, value)
    if surrogate is not None:
        raise ReplayMismatch(
            name, f"line {number}: holds a lone surrogate ({surrogate}), which is not Unicode text"
        )
    return value


def _parse_record_file(name: str, data: bytes, single: bool = False) -> Any:
    """One record file's value: UTF-8, canonical JSON values only (whole numbers, unique keys);
    `single` reads one JSON value whatever the name (a saved receipt or head)."""
    if data.startswith(BYTE_ORDER_MARK):
        raise ReplayMismatch(name, BYTE_ORDER_MARK_RULE)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayMismatch(name, "not UTF-8 text") from None
    if single:
        return _parse_json_text(name, 1, text)
    if name.endswith(".txt"):
        return text.strip(_SPACES)
    if not name.endswith(".jsonl"):
        return _parse_json_text(name, 1, text)
    try:
        return [_parse_json_text(name, number, line) for number, line in json_lines(name, text)]
    except ReadRefusal as refusal:
        raise ReplayMismatch(refusal.member, refusal.rule) from None


def _archive_names() -> tuple[str, ...]:
    return (
        *tables.RECORD_FILES.values(),
        *tables.LOG_RECORD_FILES.values(),
        *tables.ENGINE_FILES,
        tables.GUIDE,
        tables.MANIFEST,
    )


def _read_folder(folder: Path) -> dict[str, bytes]:
    """The archive's files found in a folder (other files are not part of the record)."""
    files = {}
    for name in _archive_names():
        path = folder / name
        if not path.is_file():
            if path.exists() or path.is_symlink():
                raise ReplayMismatch(name, "not a regular file")
            continue
        if path.stat().st_size > _RECORD_FILE_LIMIT:
            raise ReplayMismatch(name, f"larger than {_RECORD_FILE_LIMIT} bytes; refused")
        try:
            files[name] = path.read_bytes()
        except OSError as error:
            raise ReplayMismatch(name, f"cannot be read ({error.strerror})") from None
    return files


def _read_zip(path: Path) -> dict[str, bytes]:
    """The archive's files from a .zip, after the archive rules every verifier shares
    (`records.read_zip_members`: names, count, methods, declared and actual sizes)."""
    try:
        return read_zip_members(path, _archive_names())
    except ReadRefusal as refusal:
        raise ReplayMismatch(refusal.member, refusal.rule) from None


def _check_manifest(files: Mapping[str, bytes]) -> dict[str, str]:
    """Every file listed once with its SHA-256, and every archive file present is listed."""
    if tables.MANIFEST not in files:
        raise ReplayMismatch(tables.MANIFEST, "missing from the record")
    if files[tables.MANIFEST].startswith(BYTE_ORDER_MARK):
        raise ReplayMismatch(tables.MANIFEST, BYTE_ORDER_MARK_RULE)
    listed: dict[str, str] = {}
    lines = files[tables.MANIFEST].decode("utf-8", errors="replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        digest, _, name = line.partition("  ")
        if not _is_hex64(digest) or name not in _archive_names() or name == tables.MANIFEST:
            raise ReplayMismatch(
                tables.MANIFEST,
                f"line {number}: not '<sha256>  <record file name>': {engine.shown(line)}",
            )
        if name in listed:
            raise ReplayMismatch(tables.MANIFEST, f"line {number}: {name} is listed twice")
        listed[name] = digest
    for name in sorted(set(listed) | set(files) - {tables.MANIFEST}):
        if name not in files:
            raise ReplayMismatch(name, f"listed in {tables.MANIFEST} but missing from the record")
        if name not in listed:
            raise ReplayMismatch(name, f"not listed in {tables.MANIFEST}")
        if hashlib.sha256(files[name]).hexdigest() != listed[name]:
            raise ReplayMismatch(name, f"its SHA-256 does not match {tables.MANIFEST}")
    return listed


def load_record(source: Path) -> Plain:
    """Read a season archive (a folder or a .zip), checking its manifest first.

    Missing optional files (the seed before the reveal, the beacon) become None.
    """
    files = _read_folder(source) if source.is_dir() else _read_zip(source)
    record: Plain = {"manifest": _check_manifest(files)}
    for role, name in tables.RECORD_FILES.items():
        if name not in files:
            if role in ("seed", "beacon"):
                record[role] = None
                continue
            raise ReplayMismatch(name, "missing from the record")
        record[role] = _parse_record_file(name, files[name])
    for role, name in tables.LOG_RECORD_FILES.items():
        record[role] = _parse_record_file(name, files[name]) if name in files else None
    return record


def load_saved(path: Path) -> log_check.Saved:
    """A receipt or head a fan saved, as (its file name, its value); read like a record file."""
    if not path.is_file():
        raise ReplayMismatch(path.name, "no such file")
    if path.stat().st_size > _RECORD_FILE_LIMIT:
        raise ReplayMismatch(path.name, f"larger than {_RECORD_FILE_LIMIT} bytes; refused")
    return path.name, _parse_record_file(path.name, path.read_bytes(), single=True)


_USAGE = ("usage: python3 verifier.py verify RECORD_FOLDER_OR_ZIP [--receipt FILE]... "
          "[--head FILE]... [--beacon SIGNATURE]")


def _options(options: list[str]) -> dict[str, list[str]] | None:
    """The `--receipt FILE`, `--head FILE` and `--beacon HEX` pairs; None when malformed."""
    found: dict[str, list[str]] = {"--receipt": [], "--head": [], "--beacon": []}
    if len(options) % 2:
        return None
    for flag, value in zip(options[::2], options[1::2], strict=True):
        if flag not in found:
            return None
        found[flag].append(value)
    return found if len(found["--beacon"]) < 2 else None


def unlock_record(record: Plain, signature: str) -> Plain:
    """The record with its seed opened from the header's timelock by the round's signature (a
    seed unlocked, not revealed, has no reveal leaf); needs fairfight and py-arkworks-bls12381."""
    import py_arkworks_bls12381  # noqa: F401  (ImportError: main says what to install)

    from fairfight.core import timelock  # not a file of the archive: the installed package
    if "timelock" not in record["header"]:
        raise ReplayMismatch("header", "field timelock: missing; no seed is locked to a round")
    seed = timelock.open_seed(record["header"]["timelock"], record["commitment"], signature)
    if record.get("seed") not in (None, seed):
        raise ReplayMismatch("seed", "the revealed seed is not the one the timelock holds")
    return {**record, "seed": seed, "unlocked": record.get("seed") is None}


def main(arguments: list[str]) -> int:
    """`python3 verifier.py verify DIR [--receipt FILE]... [--head FILE]... [--beacon HEX]`: 0
    when the record replays exactly and its log holds every saved receipt and head, 1 naming
    the first difference, 2 on bad usage or when unlocking needs what is not installed."""
    saved = _options(arguments[2:])
    if len(arguments) < 2 or arguments[0] != "verify" or saved is None:
        print(_USAGE, file=sys.stderr)
        return 2
    for path in (Path(arguments[1]), *map(Path, saved["--receipt"] + saved["--head"])):
        if not path.exists():
            print(f"no such folder or file: {path}", file=sys.stderr)
            return 2
    try:
        receipts = [load_saved(Path(path)) for path in saved["--receipt"]]
        heads = [load_saved(Path(path)) for path in saved["--head"]]
        record = load_record(Path(arguments[1]))
        for signature in saved["--beacon"]:
            record = unlock_record(record, signature)
        notes = verify_record(record, receipts, heads)
    except (ImportError, InputError) as problem:
        print(problem if isinstance(problem, InputError) else "unlocking the seed needs "
              "fairfight with py-arkworks-bls12381 (pip install 'fairfight[timelock]'; not "
              "under python3 -S), or drand's tle", file=sys.stderr)
        return 2
    except VerificationError as mismatch:
        print(f"MISMATCH {mismatch}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"ok: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
