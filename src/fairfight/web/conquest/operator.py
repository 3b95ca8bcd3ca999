"""The operator's powers: air battles, record the beacon, reveal, export; guarded by a token.

The service keeps only the SHA-256 of the admin token (`FAIRFIGHT_ADMIN_TOKEN_SHA256`) and
compares digests in constant time. With no token configured, every operator action is refused.
`authorise` is the one gate of the API and the console's sign-in: an address that keeps
sending wrong tokens is made to wait (`sign_in.SignInBrake`) before its token is looked at.
"""

from __future__ import annotations

import math

from fairfight.conquest.record import archive
from fairfight.conquest.store import publication, season
from fairfight.core.tokens import token_digest, token_matches
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.models import AirResult, BeaconRequest, RevealResult
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.sign_in import SignInBrake
from fairfight.web.conquest.views import battle_line

__all__ = [
    "air",
    "authorise",
    "bearer_token",
    "check_token",
    "record_beacon",
    "record_zip",
    "refuse_while_braked",
    "reveal",
    "token_digest",
]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer …` header, if any."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def check_token(expected_sha256: str | None, token: str | None) -> None:
    """Refuse with 401 unless the token's digest matches (compared in constant time)."""
    challenge = {"WWW-Authenticate": 'Bearer realm="operator"'}
    if not expected_sha256:
        raise Refusal(401, "authorization", "operator actions are disabled: no admin token is "
                      "configured (FAIRFIGHT_ADMIN_TOKEN_SHA256)", challenge)
    if token is None:
        raise Refusal(401, "authorization", "an operator token is required", challenge)
    if not token_matches(token, expected_sha256):
        raise Refusal(401, "authorization", "the operator token is not valid", challenge)


def refuse_while_braked(brake: SignInBrake, address: str) -> None:
    """429 while the address must wait after its wrong tokens (the token is not looked at)."""
    wait = brake.wait(address)
    if wait > 0:
        seconds = math.ceil(wait)
        raise Refusal(429, "authorization", f"too many wrong tokens from this address; "
                      f"try again in {seconds} s", {"Retry-After": str(seconds)})


def authorise(brake: SignInBrake, expected_sha256: str | None, address: str,
              token: str | None) -> None:
    """Let the token through, or refuse: 429 while the address must wait, else 401.

    A wrong token (not a missing one) counts against the address; a right one clears it.
    """
    refuse_while_braked(brake, address)
    try:
        check_token(expected_sha256, token)
    except Refusal:
        if token is not None and expected_sha256:
            brake.missed(address)
        raise
    brake.passed(address)


def air(catalog: SeasonCatalog, season_id: int, count: int) -> AirResult:
    """Fight the next `count` battles, one transaction each (the same function as the CLI)."""
    catalog.require(season_id)
    fought = list(season.fight(catalog.database.season_path(season_id), count))
    snap = catalog.snapshot(season_id)
    return AirResult(
        season=season_id,
        battles=[battle_line(season_id, entry) for entry in fought],
        ended=snap.board["ended"],
    )


def record_beacon(catalog: SeasonCatalog, season_id: int, value: BeaconRequest) -> dict[str, str]:
    """Record the beacon round's randomness before battle 1."""
    catalog.require(season_id)
    recorded = season.record_beacon(
        catalog.database.season_path(season_id), value.randomness, value.signature
    )
    return {key: str(item) for key, item in recorded.items() if item is not None}


def reveal(catalog: SeasonCatalog, season_id: int) -> RevealResult:
    """Publish the seed (refused until the season is over)."""
    catalog.require(season_id)
    seed = season.reveal(catalog.database.season_path(season_id))
    snap = catalog.snapshot(season_id)
    return RevealResult(season=season_id, seed=seed, commitment=snap.summary.commitment)


def record_zip(catalog: SeasonCatalog, season_id: int) -> bytes:
    """The season archive as one zip: record, verifier files, manifest (the seed only once
    revealed). Read with the season opened read-only; the secret seed is never read."""
    catalog.require(season_id)
    files = publication.archive_files_of(catalog.database.season_path(season_id))
    return archive.zip_bytes(files)
