"""The season log on the show: signed heads, receipts and the facts published before battle 1.

Every value here is public (a head, a receipt, the header's hashes and key); the season's
private key is never read on these paths (only a writing transaction of the store holds it).
The models are the JSON the API answers with and what the pages format.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel, Field

from fairfight.conquest.record.beacons import utc_text
from fairfight.conquest.rules import tables
from fairfight.conquest.store import log, season_timelock
from fairfight.core.records import canonical_json
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot

__all__ = [
    "HeadPage",
    "PublicFacts",
    "Receipt",
    "SignedHead",
    "attachment",
    "battle_head",
    "head_of_size",
    "head_text",
    "heads_page",
    "public_facts",
    "receipt_of",
    "receipt_text",
    "receipt_url",
]


class SignedHead(BaseModel):
    """A signed head of the season log: the tree of its first `size` leaves has this root."""

    season: str = Field(description="the season's commitment")
    size: int = Field(description="how many leaves the head covers")
    root: str = Field(description="the RFC 9162 root of those leaves, hex")
    time: str = Field(description="when the key holder signed it (UTC)")
    signature: str = Field(description="Ed25519 under the header's log_key, hex")


class Receipt(BaseModel):
    """A contribution's receipt: its entry, its leaf, the head published with it, the proof."""

    format: str = log.RECEIPT_FORMAT
    entry: dict[str, Any]
    leaf_index: int
    head: SignedHead
    inclusion: list[str] = Field(description="the RFC 9162 inclusion proof, innermost first")


class HeadPage(BaseModel):
    """Signed heads in size order: those covering more than `after` leaves."""

    season: int
    after: int
    heads: list[SignedHead]
    next_after: int | None = Field(description="`after` for the next page; null at the end")


class PublicFacts(BaseModel):
    """What the header published before battle 1: save it and compare it with the archive."""

    map_name: str
    map_sha256: str
    engine_files: dict[str, str] = Field(description="SHA-256 of each verifier file, by name")
    log_key: str | None = Field(description="the season key (Ed25519, hex); null for a season "
                                "made before the log")
    published: str | None
    beacon_name: str | None
    beacon_round: int | None
    timelock_network: str | None = Field(description="the drand network the seed is "
                                         "timelocked to; null when it is not")
    timelock_round: int | None = Field(description="the round whose beacon unlocks the seed")
    timelock_opens: str | None = Field(description="when that round is due (UTC); no battle "
                                       "airs in the hour before")
    header_url: str
    first_head_url: str | None
    checkpoint_url: str | None = Field(description="the latest head as a C2SP checkpoint note")
    checkpoint_key_url: str | None = Field(description="the verifier key of the checkpoints")
    log_size: int
    head: SignedHead | None = Field(description="the latest signed head")


def attachment(value: Any, filename: str) -> Response:
    """A JSON value to save: canonical bytes (as the verifiers read them), as a download."""
    return Response(canonical_json(value) + b"\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _api(season_id: int) -> str:
    return f"/api/seasons/{season_id}"


def receipt_url(season_id: int, seq: int) -> str:
    """Where the receipt of ledger entry `seq` is downloaded (public, by seq)."""
    return f"{_api(season_id)}/receipts/{seq}"


def head_text(head: dict[str, Any] | SignedHead) -> str:
    """A head in a few words: its size and its root, short."""
    value = head.model_dump() if isinstance(head, SignedHead) else head
    return f"log size {value['size']}, root {value['root'][:16]}…"


def receipt_text(receipt: dict[str, Any]) -> str:
    """What a receipt proves, in words: the entry and the head that includes it."""
    entry = receipt["entry"]
    return (f"Ledger entry {entry['seq']}: ${entry['amount']} to {entry['faction']}, counting "
            f"for battle {entry['before_battle']}; leaf {receipt['leaf_index']} of the season "
            f"log, in the signed head of {head_text(receipt['head'])}")


def public_facts(snap: Snapshot) -> PublicFacts:
    """The header's public facts and the log's latest head."""
    header, head = snap.summary.header, snap.head
    spec = header["beacon"]
    logged = tables.LOG_KEY in header
    return PublicFacts(
        map_name=header["map_name"], map_sha256=header["map_sha256"],
        engine_files=dict(header["engine_files"]), log_key=header.get(tables.LOG_KEY),
        published=header.get("published"),
        beacon_name=None if spec is None else spec["name"],
        beacon_round=None if spec is None else spec["round"],
        **_timelock_facts(header),
        header_url=f"{_api(snap.season_id)}/header",
        first_head_url=f"{_api(snap.season_id)}/heads/1" if logged else None,
        checkpoint_url=f"{_api(snap.season_id)}/checkpoint" if logged else None,
        checkpoint_key_url=f"{_api(snap.season_id)}/checkpoint/key" if logged else None,
        log_size=0 if head is None else head["size"],
        head=None if head is None else SignedHead(**head),
    )


def _timelock_facts(header: dict[str, Any]) -> dict[str, Any]:
    """The header's timelock in the facts: network, round and when the round is due."""
    lock = header.get(season_timelock.TIMELOCK)
    if lock is None:
        return {"timelock_network": None, "timelock_round": None, "timelock_opens": None}
    opens = season_timelock.network_for(lock).time_of(int(lock["round"]))
    return {"timelock_network": lock["network"], "timelock_round": lock["round"],
            "timelock_opens": utc_text(opens)}


def heads_page(catalog: SeasonCatalog, season_id: int, after: int, limit: int) -> HeadPage:
    """One page of signed heads, oldest first."""
    with catalog.read(season_id) as session:
        found = log.heads(session, after, limit)
    more = len(found) == limit and found
    return HeadPage(season=season_id, after=after, heads=[SignedHead(**h) for h in found],
                    next_after=found[-1]["size"] if more else None)


def head_of_size(catalog: SeasonCatalog, season_id: int, size: int) -> SignedHead:
    """The signed head of exactly `size` leaves, or LookupError."""
    with catalog.read(season_id) as session:
        found = log.heads(session, size - 1, 1)
    if not found or found[0]["size"] != size:
        raise LookupError(f"no signed head of size {size}")
    return SignedHead(**found[0])


def receipt_of(catalog: SeasonCatalog, season_id: int, seq: int) -> dict[str, Any]:
    """The receipt of ledger entry `seq`, or LookupError."""
    with catalog.read(season_id) as session:
        found = log.receipt(session, seq)
    if found is None:
        raise LookupError(f"no receipt for ledger entry {seq}")
    return found


def battle_head(catalog: SeasonCatalog, season_id: int, number: int) -> SignedHead | None:
    """The signed head published with battle `number`."""
    with catalog.read(season_id) as session:
        found = log.battle_head(session, number)
    return None if found is None else SignedHead(**found)
