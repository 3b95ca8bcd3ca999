"""The witnesses a season service sends its checkpoints to, as its settings name them.

Each witness is a name, the verifier key its cosignatures are checked with (C2SP
cosignature/v1, `core.cosignature.WitnessKey`) and the base URL of its C2SP tlog-witness API
(`POST <url>/add-checkpoint`). A cosignature is stored only when it verifies under the
configured key, so a witness that answers with someone else's key counts for nothing.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from fairfight.core.cosignature import CosignatureError, WitnessKey

__all__ = ["MAX_WITNESSES", "WitnessSetting", "check_witnesses"]

MAX_WITNESSES = 16
"""The most witnesses one service sends to (each has a queue and a thread)."""


class WitnessSetting(BaseModel):
    """One witness: its name (the key name of its cosignatures), vkey and API base URL."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="the witness's key name")
    vkey: str = Field(max_length=300, description="its verifier key, "
                      "`<name>+<key id>+<base64(0x04 || public key)>`")
    url: str = Field(max_length=500, description="its tlog-witness API, e.g. "
                     "https://witness.example (the service posts to <url>/add-checkpoint)")

    @field_validator("url")
    @classmethod
    def _url_is_http(cls, url: str) -> str:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{url!r} is not an http(s) URL with a host")
        return url.rstrip("/")

    @model_validator(mode="after")
    def _vkey_is_the_witness_key(self) -> WitnessSetting:
        try:
            key = WitnessKey.from_vkey(self.vkey)
        except CosignatureError as error:
            raise ValueError(f"vkey: {error}") from None
        if key.name != self.name:
            raise ValueError(f"vkey: names {key.name!r}, not the witness {self.name!r}")
        return self

    def key(self) -> WitnessKey:
        """The key this witness's cosignatures must verify under."""
        return WitnessKey.from_vkey(self.vkey)


def check_witnesses(witnesses: list[WitnessSetting]) -> list[WitnessSetting]:
    """At most `MAX_WITNESSES`, each name once (a quorum counts names)."""
    if len(witnesses) > MAX_WITNESSES:
        raise ValueError(f"at most {MAX_WITNESSES} witnesses, {len(witnesses)} given")
    names = [witness.name for witness in witnesses]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"witness {repeated[0]!r} is named twice")
    return witnesses
