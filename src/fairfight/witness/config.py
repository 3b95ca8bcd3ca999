"""A witness's configuration file and key file: who it is, what it follows, where it keeps state.

The configuration is TOML (or JSON, by the file's suffix):

    name = "witness.example.org/w1"
    key_file = "w1.key"                  # beside this file unless absolute
    database = "sqlite:///witness.db"    # optional; a PostgreSQL URL works too
    [[logs]]
    origin = "fairfight.example.org/conquest/..."
    vkeys = ["fairfight.example.org/conquest/...+1a2b3c4d+AQ..."]

The key file holds one line, `PRIVATE+KEY+<name>+<hex key id>+<base64(0x04 || seed)>`, the
signer-key text of the signed-note tools with the cosignature/v1 type byte (0x04), so the same
file works with other witness software. Every problem is an InputError naming the field.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import tomllib
from pathlib import Path
from typing import Annotated

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fairfight.core.cosignature import COSIGNATURE_TYPE, CosignatureError, WitnessKey
from fairfight.core.errors import InputError
from fairfight.core.signed_note import NoteError, NoteVerifier, parse_verifier_key
from fairfight.core.validation import parse_model

__all__ = [
    "DEFAULT_DATABASE",
    "LogConfig",
    "WitnessConfig",
    "WitnessIdentity",
    "generate_key",
    "load_config",
    "read_key_file",
]

DEFAULT_DATABASE = "sqlite:///witness.db"
"""Where a witness keeps its state when its configuration names no database."""
_SKEY_PREFIX = "PRIVATE+KEY+"

_Text = Annotated[str, Field(min_length=1, max_length=1024)]


class LogConfig(BaseModel):
    """One log the witness follows: its origin line and the note keys it signs with."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    origin: _Text
    vkeys: list[_Text] = Field(min_length=1, max_length=16)

    @field_validator("origin")
    @classmethod
    def _one_line(cls, origin: str) -> str:
        if any(ord(c) < 0x20 for c in origin):
            raise ValueError("the origin is one line of text without control characters")
        return origin

    @field_validator("vkeys")
    @classmethod
    def _readable(cls, vkeys: list[str]) -> list[str]:
        for vkey in vkeys:
            try:
                parse_verifier_key(vkey)
            except NoteError as error:
                raise ValueError(str(error)) from None
        return vkeys

    def verifiers(self) -> list[NoteVerifier]:
        """The log's keys, read."""
        return [parse_verifier_key(vkey) for vkey in self.vkeys]


class WitnessConfig(BaseModel):
    """The witness's name, key file, database and the logs it follows."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: _Text
    key_file: Path
    database: _Text = DEFAULT_DATABASE
    logs: list[LogConfig] = Field(min_length=1, max_length=10000)

    @field_validator("name")
    @classmethod
    def _key_name(cls, name: str) -> str:
        if "+" in name or any(c.isspace() for c in name):
            raise ValueError("a witness name has no spaces and no '+'")
        return name

    @model_validator(mode="after")
    def _distinct_origins(self) -> WitnessConfig:
        origins = [log.origin for log in self.logs]
        if len(set(origins)) != len(origins):
            raise ValueError("each log's origin may appear once")
        return self


def load_config(path: Path) -> WitnessConfig:
    """Read and check a configuration file; a relative key file is taken beside it."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise InputError("config", f"cannot read {path}: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (UnicodeDecodeError, ValueError) as error:
        reason = " ".join(str(error).split())
        raise InputError("config", f"{path} is not valid {_kind(path)}: {reason}") from None
    config = parse_model(WitnessConfig, data, prefix="config")
    if not config.key_file.is_absolute():
        config = config.model_copy(update={"key_file": path.parent / config.key_file})
    return config


def _kind(path: Path) -> str:
    return "JSON" if path.suffix == ".json" else "TOML"


class WitnessIdentity:
    """The witness's signing key and the public key clients trust it by."""

    def __init__(self, private_key: Ed25519PrivateKey, key: WitnessKey) -> None:
        self.private_key = private_key
        self.key = key


def _skey_text(name: str, private_key: Ed25519PrivateKey) -> str:
    key = WitnessKey.of(name, private_key.public_key().public_bytes_raw())
    seed = private_key.private_bytes_raw()
    encoded = base64.b64encode(bytes([COSIGNATURE_TYPE]) + seed).decode("ascii")
    return f"{_SKEY_PREFIX}{name}+{key.key_id.hex()}+{encoded}"


def generate_key(name: str, path: Path) -> WitnessKey:
    """Write a new key for the witness `name` to `path` (owner-only, never over a file that
    exists) and return its public key."""
    try:
        WitnessKey.of(name, bytes(32))
    except CosignatureError as error:
        raise InputError("name", str(error)) from None
    private_key = Ed25519PrivateKey.generate()
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InputError("key file", f"{path} exists; a key is never overwritten") from None
    except OSError as error:
        raise InputError("key file", f"cannot create {path}: {error.strerror}") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(_skey_text(name, private_key) + "\n")
    return WitnessKey.of(name, private_key.public_key().public_bytes_raw())


def read_key_file(path: Path, name: str) -> WitnessIdentity:
    """The witness key in `path`, which must be a cosignature/v1 key for `name`."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not ASCII text"
        raise InputError("key file", f"cannot read {path}: {reason}") from None
    key_name, _, rest = text.removeprefix(_SKEY_PREFIX).partition("+")
    hex_id, _, encoded = rest.partition("+")
    try:
        typed = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        typed = b""
    if not text.startswith(_SKEY_PREFIX) or len(typed) != 33 or typed[0] != COSIGNATURE_TYPE:
        raise InputError("key file", f"{path} holds no cosignature/v1 key (PRIVATE+KEY+...)")
    if key_name != name:
        raise InputError("key file", f"the key is for {key_name!r}, the config names {name!r}")
    private_key = Ed25519PrivateKey.from_private_bytes(typed[1:])
    key = WitnessKey.of(name, private_key.public_key().public_bytes_raw())
    if key.key_id.hex() != hex_id:
        raise InputError("key file", "the key id does not match the name and key")
    return WitnessIdentity(private_key, key)
