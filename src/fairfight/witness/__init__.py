"""A transparency-log witness (C2SP tlog-witness): it follows logs, checks that each new
checkpoint extends the one it holds, and cosigns it (docs/witness.md).

Importing the package loads only the protocol's checks (standard library and `core`); the
store, the web service and the command line are its edges, imported by name.
"""

from __future__ import annotations

from fairfight.witness.protocol import (
    MAX_BODY_BYTES,
    MAX_PROOF_LINES,
    AddCheckpoint,
    Held,
    Verify,
    WitnessRefusal,
    add_checkpoint_body,
    check_log_signature,
    judge,
    read_request,
)

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_PROOF_LINES",
    "AddCheckpoint",
    "Held",
    "Verify",
    "WitnessRefusal",
    "add_checkpoint_body",
    "check_log_signature",
    "judge",
    "read_request",
]
