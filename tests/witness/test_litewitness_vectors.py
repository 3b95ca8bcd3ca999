"""The reference witness's own request sequence (FiloSottile/torchwood, litewitness's test
script; golden/litewitness_requests.json names the commit): a Sigsum log's checkpoints signed
by Go, consistency proofs built by its generator, sent in order to a fresh witness following
that log. Our answers match the reference's statuses, with two differences, each explained."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fairfight.core.cosignature import WitnessKey, verify_cosignature
from fairfight.core.signed_note import verifier_key
from fairfight.witness.config import load_config, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import WitnessRefusal
from fairfight.witness.store import WitnessStore

from .support import WITNESS_NAME, Log, write_config

GOLDEN = Path(__file__).parent / "golden" / "litewitness_requests.json"
DIFFERENCES = {
    # The line's last base64 digit has padding bits set ("...6gx=" for "...6go="): Go's
    # decoder reads it, our notes keep one spelling per value and refuse it as malformed.
    1: 400,
    # An origin the witness does not follow: the script predates the spec's 404 for it.
    2: 404,
}


def test_the_reference_sequence_gets_the_reference_answers(tmp_path: Path) -> None:
    golden: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    public = bytes.fromhex(golden["log_public_key_hex"])
    vkey = verifier_key(golden["origin"], public).vkey()
    assert vkey.split("+")[1] == "5202289b"  # the key id the checkpoints' lines carry

    class SigsumLog(Log):
        def vkey(self) -> str:
            return vkey

    config = load_config(write_config(tmp_path, SigsumLog(origin=golden["origin"])))
    witness = Witness(config, read_key_file(config.key_file, config.name),
                      WitnessStore(config.database), clock=lambda: 1_700_000_000)
    key = WitnessKey.from_vkey(witness.identity.key.vkey())
    for index, case in enumerate(golden["requests"]):
        body = case["body"].encode("utf-8")
        try:
            line = witness.add_checkpoint(body)
            status, answer = 200, line
        except WitnessRefusal as refusal:
            status = refusal.status
            answer = f"{refusal.held_size}\n" if status == 409 else refusal.reason
        assert status == DIFFERENCES.get(index, case["status"]), (index, answer)
        if status == 200:
            note = case["body"].split("\n\n", 1)[1]
            assert verify_cosignature(note, line, key) == 1_700_000_000
            assert line.startswith(f"\u2014 {WITNESS_NAME} ")
        if case["assert"].startswith("body =="):
            assert json.dumps(answer) == case["assert"].removeprefix("body == ")
    witness.store.close()
