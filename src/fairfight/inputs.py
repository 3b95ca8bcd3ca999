"""The one sturdy edge every file a user hands us passes through.

A file is checked before it is opened (regular files only, so a named pipe or a device never
blocks us), read with a size cap, decoded as strict UTF-8 and parsed with bounded work:
nesting depth (measured on the text before any parser runs, `core.text`), integer length,
duplicate keys, lone surrogates, and YAML aliases counted as they expand (so a "billion
laughs" file is refused after a bounded walk). Every refusal is an InputError
naming the file, and where it can the place inside it. Output paths are checked the same
way, before any work is done.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairfight.core.errors import InputError
from fairfight.core.records import ReadRefusal, json_lines
from fairfight.core.text import (
    MAX_DEPTH,
    check_json_nesting,
    check_yaml_nesting,
    require_valid_unicode,
)
from fairfight.core.validation import is_plain_digits

if TYPE_CHECKING:  # YAML is imported only by the commands that read it
    import yaml

__all__ = [
    "DEFAULT_RECORD_MB",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_INT_DIGITS",
    "MAX_YAML_BYTES",
    "MAX_YAML_NODES",
    "RECORD_LIMIT_ENV",
    "check_input_file",
    "check_output_file",
    "check_output_folder",
    "load_json",
    "load_jsonl",
    "load_yaml",
    "parse_json",
    "parse_yaml",
    "read_bytes",
    "read_text",
    "record_limit",
]

MAX_DOCUMENT_BYTES = 4 * 1024 * 1024
"""Largest specification, map or settings file read (the shipped map is about 60 KB)."""
MAX_YAML_BYTES = 1024 * 1024
"""Largest YAML file read: YAML parsing is slow, and a war file of many years is ~20 KB."""
MAX_YAML_NODES = 200_000
"""Most values a YAML file may hold once its aliases are expanded (a large war: ~5,000)."""
DEFAULT_RECORD_MB = 64
RECORD_LIMIT_ENV = "FAIRFIGHT_MAX_RECORD_MB"
"""Environment variable raising the cap on record files (game records, season histories)."""
MAX_INT_DIGITS = 40
"""Longest integer accepted; every count and stat of every ruleset fits in far fewer digits."""
_READ_CHUNK = 1 << 16


def record_limit() -> int:
    """The cap on record files in bytes: FAIRFIGHT_MAX_RECORD_MB megabytes (default 64)."""
    text = os.environ.get(RECORD_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_RECORD_MB * 1024 * 1024
    if not is_plain_digits(text, 7) or not 1 <= int(text) <= 1_000_000:
        raise InputError(RECORD_LIMIT_ENV, "must be a whole number of megabytes, 1 to 1000000")
    return int(text) * 1024 * 1024


def _size_text(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB" if size >= 1024 * 1024 else f"{size:,} bytes"


def _os_problem(error: OSError) -> str:
    """An operating-system refusal in plain words."""
    if isinstance(error, FileNotFoundError):
        return "file not found"
    if isinstance(error, PermissionError):
        return "cannot be read: permission denied"
    if isinstance(error, NotADirectoryError):
        return "file not found (a part of the path is a file, not a folder)"
    if error.errno == 40:  # ELOOP
        return "cannot be read: the symbolic links loop"
    if error.errno == 36:  # ENAMETOOLONG
        return "the path is too long"
    return f"cannot be read: {error.strerror or error}"


def _check_regular(path: Path, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise InputError(str(path), "is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise InputError(str(path), "is not a regular file (a named pipe, device or socket)")


def check_input_file(path: Path) -> None:
    """Refuse, naming the path, anything but an existing regular file (before it is opened)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise InputError(str(path), _os_problem(error)) from None
    except ValueError:
        raise InputError(str(path), "the path is not valid") from None
    _check_regular(path, mode)


def read_bytes(path: Path, limit: int = MAX_DOCUMENT_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, checked before it is opened."""
    check_input_file(path)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputError(str(path), _os_problem(error)) from None
    try:
        status = os.fstat(descriptor)
        _check_regular(path, status.st_mode)  # it could have been swapped since the stat
        if status.st_size > limit:
            raise InputError(str(path), _too_big(status.st_size, limit))
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(descriptor, _READ_CHUNK):
            total += len(chunk)
            if total > limit:
                raise InputError(str(path), _too_big(total, limit))
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as error:
        raise InputError(str(path), _os_problem(error)) from None
    finally:
        os.close(descriptor)


def _too_big(size: int, limit: int) -> str:
    hint = f" (raise it with {RECORD_LIMIT_ENV})" if limit == record_limit() else ""
    return f"is {_size_text(size)}, over the {_size_text(limit)} limit{hint}"


def read_text(path: Path, limit: int = MAX_DOCUMENT_BYTES) -> str:
    """A regular file's text, strict UTF-8 (a leading byte-order mark is dropped)."""
    data = read_bytes(path, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise InputError(str(path), f"is not UTF-8 text (bad byte at line {line})") from None
    return text.removeprefix("\ufeff")


# ------------------------------------------------------------------------------------ JSON


class _Refused(ValueError):
    """A parse hook's refusal, turned into an InputError with the file name by the caller."""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Refused(f"key {key[:60]!r} is given twice in one object")
        result[key] = value
    return result


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer has more than {MAX_INT_DIGITS} digits")
    return int(text)


class _Fraction(str):
    """A number written with a fraction or exponent, kept as text until its place is known."""


def _no_constant(text: str) -> float:
    raise _Refused(f"{text} is not a JSON number")


def _first_problem(value: Any) -> tuple[str, str] | None:
    """(path, rule) of the first fraction or over-deep nesting, walking without recursion."""
    stack: list[tuple[Any, int, str]] = [(value, 1, "")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, _Fraction):
            return where or "value", f"{item[:30]} is not a whole number (use an integer)"
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_DEPTH:
            return where or "top level", f"nested more than {MAX_DEPTH} levels deep"
        children = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
        for key, child in reversed(children):
            step = f"[{key}]" if isinstance(key, int) else (f".{key}" if where else str(key))
            stack.append((child, depth + 1, where + step))
    return None


def parse_json(text: str, where: str, *, fractions: bool = False) -> Any:
    """Parse JSON text refusing duplicate keys, fractions, NaN, long integers and deep nesting.

    Every number in this project's own files is an integer, so `8e6` or `1.5` is refused with
    the path of the field that holds it. `fractions=True` is for formats made elsewhere whose
    numbers are measurements (GeoJSON coordinates): they are read as floats. The nesting is
    measured on the text first, and every string is checked for lone surrogates after.
    """
    check_json_nesting(text, where)
    try:
        value = json.loads(
            text, object_pairs_hook=_unique_object, parse_int=_whole_number,
            parse_float=float if fractions else _Fraction, parse_constant=_no_constant,
        )
    except json.JSONDecodeError as error:
        raise InputError(
            where, f"JSON syntax error at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except _Refused as error:
        raise InputError(where, str(error)) from None
    problem = _first_problem(value)
    if problem is not None:
        raise InputError(f"{where}: {problem[0][:120]}", problem[1])
    require_valid_unicode(value, where, text)
    return value


def load_json(path: Path, limit: int = MAX_DOCUMENT_BYTES, *, fractions: bool = False) -> Any:
    """A JSON file read and parsed with every check of `read_text` and `parse_json`."""
    return parse_json(read_text(path, limit), str(path), fractions=fractions)


def load_jsonl(path: Path, limit: int | None = None) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of a JSON Lines file (cap: record_limit),
    each line and the count of lines bounded as every record reader bounds them
    (`records.MAX_LINE_BYTES`, `records.MAX_LINES`)."""
    text = read_text(path, record_limit() if limit is None else limit)
    try:
        for number, line in json_lines(str(path), text):
            yield number, parse_json(line, f"{path}: line {number}")
    except ReadRefusal as refusal:
        raise InputError(refusal.member, refusal.rule) from None


# ------------------------------------------------------------------------------------ YAML

_INT_TAG = "tag:yaml.org,2002:int"


def _loader() -> Any:
    """The fastest safe YAML loader available (libyaml's when it is installed)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _check_events(text: str, where: str) -> None:
    """One linear pass over the parse events, bounding the nesting as written."""
    import yaml

    depth = 0
    for event in yaml.parse(text, Loader=_loader()):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark is not None else 0
                raise InputError(where, f"line {line}: nested more than {MAX_DEPTH} levels deep")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


class _NodeWalk:
    """Refuse repeated keys and over-long integers, counting nodes as aliases expand them.

    An alias is followed wherever it is used, so the count is the size of the value the
    program will see; past MAX_YAML_NODES (a "billion laughs" file) the file is refused.
    """

    def __init__(self, where: str) -> None:
        self.where = where
        self.budget = MAX_YAML_NODES

    def visit(self, node: yaml.Node, field: str, depth: int) -> None:
        import yaml

        self.budget -= 1
        if self.budget < 0:
            raise InputError(self.where, f"expands (through aliases) to more than "
                             f"{MAX_YAML_NODES:,} values")
        if depth > MAX_DEPTH:
            raise InputError(self.where, f"{field}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                name = str(key.value)
                inner = f"{field}.{name}" if field else name
                if name in seen:
                    line = key.start_mark.line + 1
                    raise InputError(inner, f"given twice (line {line}); it takes one value")
                seen.add(name)
                self.visit(value, inner, depth + 1)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self.visit(item, f"{field}[{index}]", depth + 1)
        elif node.tag == _INT_TAG and len(str(node.value)) > MAX_INT_DIGITS + 2:
            raise InputError(field or "value", f"an integer has more than {MAX_INT_DIGITS} digits")


def load_yaml(path: Path, limit: int = MAX_YAML_BYTES) -> Any:
    """A YAML file parsed safely: no repeated keys, bounded size, depth and alias expansion."""
    return parse_yaml(read_text(path, limit), str(path))


def parse_yaml(text: str, where: str) -> Any:
    """YAML text parsed by the rules of `load_yaml` (a sheet typed into a form is read exactly
    as the same sheet in a file); errors name `where`."""
    import yaml

    check_yaml_nesting(text, where)
    try:
        _check_events(text, where)
        loader = _loader()(text)
        try:
            root = loader.get_single_node()
            if root is None:
                return None
            _NodeWalk(where).visit(root, "", 1)
            value = loader.construct_document(root)
            require_valid_unicode(value, where, text)
            return value
        finally:
            loader.dispose()
    except InputError:
        raise
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = f"line {mark.line + 1}" if mark is not None else "somewhere"
        reason = error.problem or error.context or "invalid YAML"
        raise InputError(where, f"YAML syntax error at {line}: {reason}") from None
    except yaml.YAMLError as error:
        raise InputError(where, f"YAML error: {' '.join(str(error).split())[:120]}") from None
    except (ValueError, TypeError, RecursionError) as error:
        raise InputError(where, f"YAML value cannot be read: {str(error)[:120]}") from None


# ------------------------------------------------------------------------------------ output


def _writable_folder(folder: Path, shown: Path) -> None:
    if not folder.exists():
        raise InputError(str(shown), "its folder does not exist")
    if not folder.is_dir():
        raise InputError(str(shown), f"{folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(str(shown), "cannot be written: the folder is read-only")


def check_output_file(path: Path, *, may_exist: bool = True) -> None:
    """Refuse, before any work, an output file that could not be written at the end."""
    if path.is_symlink() and not path.exists():
        raise InputError(str(path), "is a broken symbolic link")
    if path.exists():
        if not may_exist:
            raise InputError(str(path), "already exists; choose a new file")
        if path.is_dir():
            raise InputError(str(path), "is a folder, not a file")
        if not path.is_file():
            raise InputError(str(path), "is not a regular file (a named pipe, device or socket)")
        if not os.access(path, os.W_OK):
            raise InputError(str(path), "cannot be written: the file is read-only")
    _writable_folder(path.parent if str(path.parent) else Path("."), path)


def check_output_folder(folder: Path) -> None:
    """Refuse, before any work, an output folder that could not be created or written."""
    if folder.exists():
        if not folder.is_dir():
            raise InputError(str(folder), "is a file, not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise InputError(str(folder), "cannot be written: the folder is read-only")
        return
    parent = folder.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    _writable_folder(parent, folder)
