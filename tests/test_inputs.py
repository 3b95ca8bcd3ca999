"""The sturdy reading edge: every hostile file is one InputError naming it, in bounded work."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairfight import inputs
from fairfight.core.errors import InputError


def refused(call: object, *args: object, **kwargs: object) -> InputError:
    assert callable(call)
    with pytest.raises(InputError) as caught:
        call(*args, **kwargs)
    assert "\n" not in caught.value.one_line()
    return caught.value


def write(tmp_path: Path, name: str, data: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "not a regular file" in refused(inputs.load_json, fifo).rule


def test_folders_loops_and_missing_files(tmp_path: Path) -> None:
    assert "folder" in refused(inputs.read_text, tmp_path).rule
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    assert "symbolic links loop" in refused(inputs.read_text, loop).rule
    assert refused(inputs.read_text, tmp_path / "absent").rule == "file not found"
    assert "not valid" in refused(inputs.read_text, Path("a\0b")).rule


def test_device_files_are_refused() -> None:
    assert "not a regular file" in refused(inputs.read_text, Path("/dev/zero")).rule


def test_size_cap_is_enforced_and_configurable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "big.json", "[" + "1," * 600 + "1]")
    assert "over the 1,000 bytes limit" in refused(inputs.read_text, path, limit=1000).rule
    monkeypatch.setenv(inputs.RECORD_LIMIT_ENV, "1")
    assert inputs.record_limit() == 1024 * 1024
    monkeypatch.setenv(inputs.RECORD_LIMIT_ENV, "1.5")
    assert refused(inputs.record_limit).field == inputs.RECORD_LIMIT_ENV


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "seed.txt", b"ok\n\xff\xfe\n")
    assert refused(inputs.read_text, path).rule == "is not UTF-8 text (bad byte at line 2)"


def test_json_duplicates_fractions_constants_and_long_integers(tmp_path: Path) -> None:
    assert "given twice" in refused(inputs.parse_json, '{"a": 1, "a": 2}', "f").rule
    error = refused(inputs.parse_json, '{"regions": [{"people": 1}, {"people": 8e6}]}', "map")
    assert error.field == "map: regions[1].people"
    assert "8e6 is not a whole number" in error.rule
    assert "not a JSON number" in refused(inputs.parse_json, "[NaN]", "f").rule
    assert "more than 40 digits" in refused(inputs.parse_json, "9" * 5000, "f").rule
    assert inputs.parse_json("[-12, 0]", "f") == [-12, 0]


def test_measurements_may_have_fractions_when_the_format_says_so() -> None:
    text = '{"coordinates": [[-3.5, 51.25], [2e1, 0]]}'
    with pytest.raises(InputError, match="not a whole number"):
        inputs.parse_json(text, "shapes.geojson")
    value = inputs.parse_json(text, "shapes.geojson", fractions=True)
    assert value == {"coordinates": [[-3.5, 51.25], [20.0, 0]]}
    for refused in ('{"a": NaN}', '{"a": 1, "a": 2}', "[" * 2000 + "]" * 2000):
        with pytest.raises(InputError):
            inputs.parse_json(refused, "shapes.geojson", fractions=True)


def test_json_deep_nesting_is_one_line() -> None:
    assert "nested" in refused(inputs.parse_json, "[" * 100_000 + "]" * 100_000, "f").rule
    assert "nested" in refused(inputs.parse_json, "[" * 80 + "]" * 80, "f").rule
    assert inputs.parse_json("[" * 60 + "]" * 60, "f") is not None


def test_json_lines_name_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "r.jsonl", '{"a": 1}\n\n{"a": \n')
    assert next(iter(inputs.load_jsonl(path, 1000))) == (1, {"a": 1})
    with pytest.raises(InputError) as caught:
        list(inputs.load_jsonl(path, 1000))
    assert caught.value.field.endswith("line 3")


def test_yaml_billion_laughs_is_bounded(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path = write(tmp_path, "laughs.yaml", "\n".join(lines) + "\n")
    assert os.path.getsize(path) < 1024
    assert "expands (through aliases)" in refused(inputs.load_yaml, path).rule


def test_yaml_recursive_alias_and_deep_nesting(tmp_path: Path) -> None:
    assert "nested" in refused(inputs.load_yaml, write(tmp_path, "r.yaml", "a: &x [*x]\n")).rule
    for levels in (100, 5000):
        deep = write(tmp_path, "d.yaml", "[" * levels + "]" * levels)
        assert "nest" in refused(inputs.load_yaml, deep).rule


def test_yaml_duplicates_long_integers_and_a_small_alias(tmp_path: Path) -> None:
    error = refused(inputs.load_yaml, write(tmp_path, "d.yaml", "war:\n  year: 1\n  year: 2\n"))
    assert error.field == "war.year" and "line 3" in error.rule
    long = write(tmp_path, "l.yaml", f"a: {'7' * 5000}\n")
    assert "more than 40 digits" in refused(inputs.load_yaml, long).rule
    shared = write(tmp_path, "s.yaml", "a: &n {x: 1}\nb: *n\n")
    assert inputs.load_yaml(shared) == {"a": {"x": 1}, "b": {"x": 1}}


def test_output_checks(tmp_path: Path) -> None:
    inputs.check_output_file(tmp_path / "new.jsonl")
    inputs.check_output_folder(tmp_path / "a" / "b")
    assert "does not exist" in refused(inputs.check_output_file, tmp_path / "x" / "f").rule
    assert "folder" in refused(inputs.check_output_file, tmp_path).rule
    existing = write(tmp_path, "old.db", "")
    assert "already exists" in refused(inputs.check_output_file, existing, may_exist=False).rule
    assert "is a file" in refused(inputs.check_output_folder, existing).rule
    assert "is a file" in refused(inputs.check_output_file, existing / "inner").rule


def _refusal_as_an_ordinary_user(target: Path) -> str:
    """The refusal `check_output_file` gives for `target`, checked by a process without root.

    Root may write anywhere, so under root (as in CI) the check runs in a forked child that
    has dropped to the `nobody` user first.
    """
    if os.geteuid() != 0:
        return refused(inputs.check_output_file, target).rule
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child process
        os.close(reader)
        os.setgid(65534)
        os.setuid(65534)
        try:
            inputs.check_output_file(target)
            message = "accepted"
        except InputError as error:
            message = error.rule
        os.write(writer, message.encode())
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        message = pipe.read().decode()
    os.waitpid(child, 0)
    return message


def test_read_only_folder_is_refused_up_front() -> None:
    base = Path(tempfile.mkdtemp(prefix="fairfight-readonly-"))
    try:
        base.chmod(0o755)
        locked = base / "locked"
        locked.mkdir(mode=0o555)
        locked.chmod(0o555)
        assert "read-only" in _refusal_as_an_ordinary_user(locked / "game.jsonl")
    finally:
        (base / "locked").chmod(0o755)
        shutil.rmtree(base)


@given(st.binary(max_size=300))
def test_any_bytes_are_parsed_or_refused_as_input_errors(data: bytes) -> None:
    """Whatever the bytes, the JSON and YAML readers answer a value or one InputError."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "f"
        path.write_bytes(data)
        for reader in (inputs.load_json, inputs.load_yaml):
            try:
                reader(path)
            except InputError as error:
                assert "\n" not in error.one_line()


@given(st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=20))
def test_json_round_trips_every_whole_number_document(value: object) -> None:
    import json

    assert inputs.parse_json(json.dumps(value), "f") == value



def test_an_input_file_must_exist_and_be_regular(tmp_path: Path) -> None:
    (tmp_path / "receipt.json").write_text("{}")
    inputs.check_input_file(tmp_path / "receipt.json")
    for path, rule in ((tmp_path, "is a folder"), (tmp_path / "absent.json", "not found"),
                       (Path("/dev/zero"), "not a regular file")):
        with pytest.raises(InputError, match=rule):
            inputs.check_input_file(path)


@pytest.mark.parametrize("written", ["²", "١٢", "１２", "12x", "99999999"])
def test_the_record_limit_takes_ascii_digits_only(written: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`str.isdigit` says yes to superscripts and other scripts' digits; the limit does not."""
    monkeypatch.setenv(inputs.RECORD_LIMIT_ENV, written)
    with pytest.raises(InputError, match="FAIRFIGHT_MAX_RECORD_MB: must be a whole number"):
        inputs.record_limit()
