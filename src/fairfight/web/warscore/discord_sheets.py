"""Army sheets attached to `/warscore battle`: where they may come from, how they are read.

An attachment is a link Discord's interaction names; the service fetches it itself. So the
link is checked before anything is fetched (https, one of Discord's own file hosts, no port or
credentials, a sheet's file name and size), the fetch has a deadline and stops reading past
the size cap, and redirects are not followed (a redirect could lead anywhere). The text is
then read by the command line's YAML reader, which refuses repeated keys, aliases, deep
nesting and huge numbers; JSON is YAML, so a JSON sheet reads the same way.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from fairfight.core.errors import InputError
from fairfight.warscore import load_yaml_strict

__all__ = [
    "CDN_HOSTS",
    "ClientFactory",
    "FETCH_SECONDS",
    "SHEET_MAX_BYTES",
    "SHEET_SUFFIXES",
    "SheetLink",
    "default_client",
    "fetch_sheet",
    "read_sheet",
    "sheet_link",
]

CDN_HOSTS = frozenset({"cdn.discordapp.com", "media.discordapp.net"})
"""The only hosts an attachment is fetched from: where Discord keeps uploaded files."""
SHEET_MAX_BYTES = 64 * 1024
"""An army sheet is a screenful of YAML; the war score forms take files up to this size."""
SHEET_SUFFIXES = (".yaml", ".yml", ".json", ".txt")
FETCH_SECONDS = 10.0
"""The whole fetch of one sheet (connection, answer and body); the interaction was deferred,
so this only bounds how long a stuck host can hold a worker."""
_TIMEOUT = httpx.Timeout(5.0, connect=3.0)

ClientFactory = Callable[[], httpx.AsyncClient]
"""Makes the HTTP client for attachments and for editing the deferred answer; tests hand the
app one whose transport never touches the network."""


def default_client() -> httpx.AsyncClient:
    """A client with timeouts, no redirects and no proxy or credentials from the environment."""
    return httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False, trust_env=False)


@dataclass(frozen=True, slots=True)
class SheetLink:
    """A checked attachment: the option it was given in and the link to fetch."""

    option: str
    url: str


def _attachment(option: str, value: Any, resolved: Any) -> dict[str, Any]:
    """The attachment object an option's id names in the interaction's `resolved` data."""
    attachments = resolved.get("attachments") if isinstance(resolved, dict) else None
    found = attachments.get(value) if isinstance(attachments, dict) and isinstance(
        value, str) else None
    if not isinstance(found, dict):
        raise InputError(option, "names no attachment of this interaction")
    return found


def sheet_link(option: str, value: Any, resolved: Any) -> SheetLink:
    """Check an attachment option before anything is fetched: a sheet's name and size, and a
    link to Discord's own file hosts over https."""
    found = _attachment(option, value, resolved)
    name, size, url = found.get("filename"), found.get("size"), found.get("url")
    if not isinstance(name, str) or not name.lower().endswith(SHEET_SUFFIXES):
        raise InputError(option, f"must be a {', '.join(SHEET_SUFFIXES)} file")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= SHEET_MAX_BYTES:
        raise InputError(option, f"a sheet is 1 to {SHEET_MAX_BYTES:,} bytes")
    if not isinstance(url, str) or len(url) > 2000:
        raise InputError(option, "has no usable link")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise InputError(option, "has no usable link") from None
    if parts.scheme != "https" or parts.hostname not in CDN_HOSTS or port is not None \
            or parts.username is not None or parts.password is not None:
        raise InputError(option, "is not a file on Discord's own file hosts")
    return SheetLink(option, url)


async def _body(client: httpx.AsyncClient, link: SheetLink) -> bytes:
    """The body as sent: a compressed answer is refused rather than inflated, so the size cap
    counts the bytes that are kept."""
    async with client.stream("GET", link.url, headers={"accept-encoding": "identity"}) as answer:
        if answer.status_code != 200:
            raise InputError(link.option, f"could not be fetched (HTTP {answer.status_code})")
        if answer.headers.get("content-encoding", "identity").strip().lower() != "identity":
            raise InputError(link.option, "came compressed; the service reads plain files only")
        chunks: list[bytes] = []
        total = 0
        async for chunk in answer.aiter_bytes():
            total += len(chunk)
            if total > SHEET_MAX_BYTES:
                raise InputError(link.option, f"a sheet is at most {SHEET_MAX_BYTES:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)


async def fetch_sheet(client: httpx.AsyncClient, link: SheetLink) -> str:
    """The attachment's text: fetched within the deadline, size-capped, UTF-8."""
    try:
        raw = await asyncio.wait_for(_body(client, link), FETCH_SECONDS)
    except (TimeoutError, httpx.HTTPError):
        raise InputError(link.option, "could not be fetched from Discord in time") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(link.option, "is not UTF-8 text") from None


def read_sheet(option: str, text: str) -> dict[str, Any]:
    """An army sheet's text as data, read by the command line's YAML reader (the text goes
    through a private temporary file so it is read exactly as a file named on the command
    line); an error names the option, not the temporary file."""
    with tempfile.TemporaryDirectory(prefix="fairfight-sheet-") as folder:
        path = Path(folder) / "sheet.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            data = load_yaml_strict(path)
        except InputError as error:
            field = option if error.field == str(path) else f"{option}.{error.field}"
            raise InputError(field, error.rule) from None
        except RecursionError:
            raise InputError(option, "is nested too deeply to be an army sheet") from None
    if isinstance(data, dict) and set(data) == {option} and isinstance(data[option], dict):
        data = data[option]  # a sheet written as `attacker:` with the army beneath
    if not isinstance(data, dict):
        raise InputError(option, "must be an army: a mapping with nation, troops, support, ...")
    return data
