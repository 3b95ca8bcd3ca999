"""The abuse patterns of issue 20 against `fairfight serve --workers 2`, every protection on.

Each pattern runs from 127.0.0.1 (or, where said, from many loopback addresses: all of
127.0.0.0/8 is this machine) while a prober asks `/api/health` every 20 ms and a normal fan
contributes `$5` once a second from 127.0.0.2, a client address of its own:
1. 2,000 half-open connections (half send part of a request head, half nothing), reopened as
   the server closes them;
2. a contribution flood from one address (the flooder gets 429s);
3. 500 clash game creations from one address (mostly 429), then 500 from 100 addresses
   (127.0.1.x, five each, so they are really created); a player's game started before is
   played one turn afterwards;
4. a lying zip upload, over and over: 1 MB on disk, a member declaring 1,000 bytes that
   inflates to 1 GiB;
5. 60 concurrent "what would $X do" askers from 60 addresses (127.0.2.x), each asking again
   a second after its answer;
6. uploads just under the verify page's limit (16 MB less the form's allowance), four at a
   time.
Targets: `/api/health` p99 ≤ 100 ms, every fan contribution recorded (201), and the server's
processes (supervisor and workers together) under 600 MB resident. The two cores are shared by
the server, this load generator and whatever else the machine runs, so each pattern's figure
is printed beside the calm one measured just before it (the baseline). BENCH_ABUSE_PATTERNS
(comma-separated words of the labels, such as `questions,bomb`) runs only those patterns.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import struct
import tempfile
import uuid
import zipfile
from pathlib import Path

import httpx

from bench.loadgen import Request, read_answer
from bench.served import Abuse, counts, idle, one_request, p99_ms, served, settle, under
from bench.timing import report
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import publication, season
from fairfight.web.routes.verify import FORM_ALLOWANCE, MAX_SAVED_FILES, SAVED_FILE_BYTES
from fairfight.web.settings import WebSettings

__all__ = ["FanBystander", "PlayerGame", "lying_archive", "main", "question"]

PROBE_SECONDS = 6.0
CALM_SECONDS = 3.0
HALF_OPEN = 2000
QUESTIONS = 60
GAMES = 500
GAME_ADDRESSES = 100
FLOOD_CONNECTIONS = 20
NEAR_CAP_BYTES = (WebSettings().max_upload_bytes - FORM_ALLOWANCE
                  - MAX_SAVED_FILES * SAVED_FILE_BYTES - 64 * 1024)
"""An archive 64 KiB under the largest the verify page takes (its own limit, below the
service's upload cap by the form's allowance)."""
BOMB_BYTES = 1 << 30
HEALTH_P99_MS = 100.0
RSS_LIMIT_MB = 600.0
FAN_ADDRESS = "127.0.0.2"
PLAYER_ADDRESS = "127.0.0.3"


def question(codes: list[str], number: int) -> Request:
    """The `number`th "what would $X do" question: a faction in turn, an amount the rules take."""
    return Request("GET", f"/api/seasons/1/factions/{codes[number % len(codes)]}/pool-effect"
                          f"?amount={tables.POOL_STEP * (1 + number % 4)}")


def _contribution(code: str) -> Request:
    return Request("POST", "/api/seasons/1/contributions",
                   {"faction": code, "amount": tables.POOL_STEP},
                   (("Idempotency-Key", uuid.uuid4().hex),))


class FanBystander:
    """A normal fan on a client address of its own: one `$5` contribution a second."""

    def __init__(self, base: str, codes: list[str]) -> None:
        self.base, self.codes, self.given = base, codes, 0

    async def __call__(self, stop: asyncio.Event) -> str:
        statuses: list[int] = []
        transport = httpx.AsyncHTTPTransport(local_address=FAN_ADDRESS)
        async with httpx.AsyncClient(base_url=self.base, transport=transport,
                                     timeout=30) as client:
            while not stop.is_set():
                wanted = _contribution(self.codes[self.given % len(self.codes)])
                self.given += 1
                answer = await client.post(wanted.path, json=wanted.body,
                                           headers=dict(wanted.headers))
                statuses.append(answer.status_code)
                await asyncio.sleep(1.0)
        verdict = "recorded" if statuses and set(statuses) == {201} else "NOT RECORDED"
        return f"fan from {FAN_ADDRESS}: {counts(statuses)} ({verdict})"


async def _half_open(host: str, port: int, stop: asyncio.Event) -> str:
    """HALF_OPEN connections held open: even ones send part of a head, odd ones nothing;
    one the server closes is opened again."""
    closed_by_server = failed = 0

    async def hold(number: int) -> None:
        nonlocal closed_by_server, failed
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                failed += 1
                await asyncio.sleep(0.2)
                continue
            if number % 2 == 0:
                writer.write(b"POST /api/seasons/1/contributions HTTP/1.1\r\nHost: x\r\n")
            read = asyncio.create_task(reader.read(1))
            waiting = asyncio.create_task(stop.wait())
            await asyncio.wait([read, waiting], return_when=asyncio.FIRST_COMPLETED)
            if read.done():
                closed_by_server += 1
            read.cancel()
            waiting.cancel()
            writer.close()

    await asyncio.gather(*(hold(number) for number in range(HALF_OPEN)))
    return (f"{HALF_OPEN} half-open connections held, {closed_by_server} closed by the server, "
            f"{failed} connects failed")


async def _contribution_flood(host: str, port: int, stop: asyncio.Event,
                              codes: list[str]) -> str:
    """FLOOD_CONNECTIONS keep-alive connections posting contributions as fast as answered."""
    statuses: list[int] = []
    given = 0

    async def flooder() -> None:
        nonlocal given
        connection = None
        while not stop.is_set():
            try:
                if connection is None:
                    connection = await asyncio.open_connection(host, port)
                reader, writer = connection
                given += 1
                writer.write(_contribution(codes[given % len(codes)]).encode(f"{host}:{port}"))
                statuses.append((await read_answer(reader)).status)
            except (OSError, asyncio.IncompleteReadError):
                statuses.append(0)
                connection = None
        if connection is not None:
            connection[1].close()

    await asyncio.gather(*(flooder() for _ in range(FLOOD_CONNECTIONS)))
    return f"{len(statuses)} contributions from 127.0.0.1: {counts(statuses)}"


def _new_game() -> Request:
    return Request("POST", "/api/clash/games", {"scenario": "skirmish"})


async def _games_from_one(host: str, port: int, stop: asyncio.Event) -> str:
    """GAMES creations from 127.0.0.1, fifty at a time."""
    statuses: list[int] = []
    while len(statuses) < GAMES:
        statuses += await asyncio.gather(*(one_request(host, port, _new_game())
                                           for _ in range(50)))
    await stop.wait()
    return f"{GAMES} game creations from 127.0.0.1: {counts(statuses)}"


async def _games_from_many(host: str, port: int, stop: asyncio.Event) -> str:
    """GAMES creations from GAME_ADDRESSES addresses 127.0.1.x, each address's in turn."""
    statuses: list[int] = []
    per_address = GAMES // GAME_ADDRESSES
    for _ in range(per_address):
        statuses += await asyncio.gather(*(
            one_request(host, port, _new_game(), f"127.0.1.{address}")
            for address in range(1, GAME_ADDRESSES + 1)))
    await stop.wait()
    return (f"{GAMES} game creations from {GAME_ADDRESSES} addresses: {counts(statuses)}")


async def _upload(host: str, port: int, archive: bytes) -> int:
    """One upload of `archive` to /api/upload/verify on a connection of its own."""
    boundary = "benchboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"archive\"; "
            f"filename=\"season.zip\"\r\nContent-Type: application/zip\r\n\r\n").encode() + \
        archive + f"\r\n--{boundary}--\r\n".encode()
    head = (f"POST /api/upload/verify HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Content-Type: multipart/form-data; boundary={boundary}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return 0
    try:
        writer.write(head + body)
        with contextlib.suppress(OSError):  # a refusal may come before the body is sent
            await writer.drain()
        return (await read_answer(reader)).status
    except (OSError, asyncio.IncompleteReadError, ValueError):
        return 0
    finally:
        writer.close()


async def _uploads(host: str, port: int, stop: asyncio.Event, archive: bytes, label: str,
                   at_once: int) -> str:
    statuses: list[int] = []
    while not stop.is_set():
        statuses += await asyncio.gather(*(_upload(host, port, archive)
                                           for _ in range(at_once)))
    return f"{len(statuses)} uploads of {label}: {counts(statuses)}"


async def _questions(host: str, port: int, stop: asyncio.Event, codes: list[str]) -> str:
    """QUESTIONS askers at once, each from an address of its own (127.0.2.x) and asking again
    a second after its answer (the issue's pattern: 60 concurrent "what would $X do"
    questions, each 1.5 to 2.5 s of work)."""
    statuses: list[int] = []

    async def asker(number: int) -> None:
        while not stop.is_set():
            statuses.append(await one_request(host, port, question(codes, number),
                                              f"127.0.2.{number + 1}"))
            await asyncio.sleep(1.0)

    await asyncio.gather(*(asker(number) for number in range(QUESTIONS)))
    return f"{len(statuses)} questions: {counts(statuses)}"


def lying_archive(root: Path) -> bytes:
    """A real season record whose `history.jsonl` is BOMB_BYTES of zeros declared as 1,000
    bytes in both of its zip headers (small on disk, enormous once inflated)."""
    path = root / "bomb-season.db"
    season.create_season(path, synthetic_map(20, 28, 10), "bench", seed="42" * 32)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "record")
    target = root / "lying.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for item in sorted((root / "record").iterdir()):
            if item.name != "history.jsonl":
                archive.write(item, item.name)
                continue
            with archive.open(item.name, "w") as member:
                zeros = bytes(1 << 20)
                for _ in range(BOMB_BYTES >> 20):
                    member.write(zeros)
        bomb = archive.getinfo("history.jsonl")
    data = bytearray(target.read_bytes())
    struct.pack_into("<I", data, bomb.header_offset + 22, 1000)  # local header: size
    directory = struct.unpack_from("<I", data, len(data) - 22 + 16)[0]
    while data[directory:directory + 4] == b"PK\x01\x02":
        name_length, extra, comment = struct.unpack_from("<HHH", data, directory + 28)
        if data[directory + 46:directory + 46 + name_length] == b"history.jsonl":
            struct.pack_into("<I", data, directory + 24, 1000)  # central directory: size
        directory += 46 + name_length + extra + comment
    return bytes(data)


def _abuse(database: Path, codes: list[str], bomb: bytes) -> None:
    flood_codes, fan_codes = codes[:len(codes) // 2], codes[len(codes) // 2:]
    near_cap = os.urandom(NEAR_CAP_BYTES)
    patterns: dict[str, Abuse] = {
        f"{HALF_OPEN} half-open connections": _half_open,
        "a contribution flood": lambda h, p, s: _contribution_flood(h, p, s, flood_codes),
        f"{GAMES} game creations, one address": _games_from_one,
        f"{GAMES} game creations, many addresses": _games_from_many,
        "an archive bomb": lambda h, p, s: _uploads(h, p, s, bomb, "the lying zip", 1),
        f"{QUESTIONS} concurrent questions": lambda h, p, s: _questions(h, p, s, codes),
        "uploads near the cap": lambda h, p, s: _uploads(
            h, p, s, near_cap, f"{NEAR_CAP_BYTES / 2**20:.1f} MB", 4),
    }
    chosen = [word.strip() for word in os.environ.get("BENCH_ABUSE_PATTERNS", "").split(",")
              if word.strip()]
    if chosen:
        patterns = {label: abuse for label, abuse in patterns.items()
                    if any(word in label for word in chosen)}
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    print(f"{'':<48} descriptor limit (ulimit -n) of the server: {soft:,}", flush=True)
    with served(database, 2) as (base, pid):
        fan = FanBystander(base, fan_codes)
        print(f"{'':<48} settled after {settle(pid):.0f} s", flush=True)
        player = PlayerGame(base)
        for label, abuse in patterns.items():
            settle(pid)  # what the last pattern left queued is not counted against this one
            calm, _, _ = asyncio.run(under(base, pid, idle, CALM_SECONDS))
            probe, what, said = asyncio.run(under(base, pid, abuse, PROBE_SECONDS, fan))
            p99 = p99_ms(probe.latencies)
            verdict = "ok" if (p99 <= HEALTH_P99_MS and probe.peak_mb < RSS_LIMIT_MB
                               and "NOT" not in said) else "OVER TARGET"
            report(f"/api/health p99 under {label}", p99, " ms", p99_ms(calm.latencies))
            print(f"{'':<48} just before, calm: {calm.summary()}, RSS {calm.peak_mb:.0f} MB",
                  flush=True)
            print(f"{'':<48} {what}; {said}; {probe.summary()}; RSS peak "
                  f"{probe.peak_mb:.0f} MB; {verdict}", flush=True)
        print(f"{'':<48} the player's game started before the floods: {player()}", flush=True)


class PlayerGame:
    """A player's sandbox game, started before the abuse; called after it, plays one turn."""

    def __init__(self, base: str) -> None:
        transport = httpx.HTTPTransport(local_address=PLAYER_ADDRESS)
        self.client = httpx.Client(base_url=base, transport=transport, timeout=60)
        started = self.client.post("/api/clash/games", json={"scenario": "skirmish"})
        self.started = started.status_code

    def __call__(self) -> str:
        try:
            seen = self.client.get("/api/clash/game").status_code
            turn = self.client.post("/api/clash/game/turn").status_code
        finally:
            self.client.close()
        playable = self.started == seen == turn == 200
        return (f"started {self.started}, read {seen}, turn {turn} "
                f"({'playable' if playable else 'NOT PLAYABLE'})")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-abuse-") as scratch:
        root = Path(scratch)
        database = root / "season.db"
        season.create_season(database, scenario.load_map("north-america"), "north-america",
                             seed="42" * 32, max_battles=30)
        codes = sorted(season.summary(database).board["factions"])
        _abuse(database, codes, lying_archive(root))


if __name__ == "__main__":
    main()
