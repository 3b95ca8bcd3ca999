"""cosignature/v1 against bytes built by hand from the tlog-cosignature spec, its example
signature line, and transparency-dev/formats' timestamp vector (note_cosigv1_test.go)."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairfight.core import cosignature, ed25519, signed_note
from fairfight.core.cosignature import CallableSigner, CosignatureError, WitnessKey

# tlog-cosignature.md, "Ed25519 signed message": the example checkpoint and time line.
BODY = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
SPEC_TIME = 1679315147
SPEC_LINE = (
    "\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJs"
    "X3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n"
)
LOG_LINE = (
    "\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5"
    "/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
)
NAME = "witness.example.com/w1"
SEED = bytes(range(32))


def _private() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(SEED)


def _public() -> bytes:
    return _private().public_key().public_bytes_raw()


def _key() -> WitnessKey:
    return WitnessKey.of(NAME, _public())


def test_the_spec_example_line_carries_the_spec_time() -> None:
    # The example cosignature is 4 + 8 + 64 bytes, and bytes 4..12 are the example's time.
    raw = base64.b64decode(SPEC_LINE.split(" ")[2])
    assert len(raw) == 76
    assert int.from_bytes(raw[4:12], "big") == SPEC_TIME


def test_the_formats_timestamp_vector() -> None:
    # transparency-dev/formats TestCoSigV1Timestamp "works": time.Unix(1727964367, 0).
    raw = base64.b64decode(
        "ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFi"
        "EBYJXORmnFBOBA=="
    )
    assert int.from_bytes(raw[4:12], "big") == 1727964367


def test_the_key_id_and_vkey_are_built_as_the_spec_says() -> None:
    by_hand = hashlib.sha256(NAME.encode() + b"\n\x04" + _public()).digest()[:4]
    key = _key()
    assert key.key_id == by_hand == cosignature.cosignature_key_id(NAME, _public())
    vkey = f"{NAME}+{by_hand.hex()}+" + base64.b64encode(b"\x04" + _public()).decode()
    assert key.vkey() == vkey
    assert WitnessKey.from_vkey(vkey) == key
    # the plain note key id (type 0x01) differs: the two kinds of key never collide
    assert hashlib.sha256(NAME.encode() + b"\n\x01" + _public()).digest()[:4] != by_hand


def test_a_cosignature_is_the_hand_built_bytes() -> None:
    message = f"cosignature/v1\ntime {SPEC_TIME}\n".encode() + BODY.encode()
    signature = _private().sign(message)
    key_id = hashlib.sha256(NAME.encode() + b"\n\x04" + _public()).digest()[:4]
    payload = key_id + SPEC_TIME.to_bytes(8, "big") + signature
    expected = f"\u2014 {NAME} " + base64.b64encode(payload).decode() + "\n"
    assert cosignature.sign_cosignature(BODY, NAME, _private(), SPEC_TIME) == expected
    note = BODY + "\n" + LOG_LINE
    assert cosignature.sign_cosignature(note, NAME, _private(), SPEC_TIME) == expected
    assert cosignature.verify_cosignature(BODY, expected, _key()) == SPEC_TIME
    assert cosignature.verify_cosignature(note, expected.rstrip("\n"), _key()) == SPEC_TIME
    assert cosignature.cosigned_by(note + expected, [_key()]) == {NAME: SPEC_TIME}


def test_a_signing_callable_gives_the_same_line() -> None:
    signer = CallableSigner(_public(), _private().sign)
    line = cosignature.sign_cosignature(BODY, NAME, signer, 7)
    assert line == cosignature.sign_cosignature(BODY, NAME, _private(), 7)


def test_every_changed_byte_fails() -> None:
    line = cosignature.sign_cosignature(BODY, NAME, _private(), SPEC_TIME)
    payload = base64.b64decode(line.split(" ")[2])
    for index in range(len(payload)):
        bad = bytearray(payload)
        bad[index] ^= 0x01
        bad_line = f"\u2014 {NAME} " + base64.b64encode(bytes(bad)).decode() + "\n"
        with pytest.raises(CosignatureError):
            cosignature.verify_cosignature(BODY, bad_line, _key())
        assert cosignature.cosigned_by(BODY + "\n" + bad_line, [_key()]) == {}
    for index in range(len(BODY) - 1):
        if BODY[index] != "\n":
            changed = BODY[:index] + chr(ord(BODY[index]) ^ 1) + BODY[index + 1:]
            with pytest.raises(CosignatureError):
                cosignature.verify_cosignature(changed, line, _key())


def test_cosigned_by_counts_only_trusted_valid_lines() -> None:
    other = Ed25519PrivateKey.from_private_bytes(bytes(32))
    other_key = WitnessKey.of("w2", other.public_key().public_bytes_raw())
    mine = cosignature.sign_cosignature(BODY, NAME, _private(), 5)
    newer = cosignature.sign_cosignature(BODY, NAME, _private(), 9)
    theirs = cosignature.sign_cosignature(BODY, "w2", other, 6)
    forged = cosignature.sign_cosignature(BODY, "w2", _private(), 6)  # w2's name, wrong key
    note = BODY + "\n" + LOG_LINE + mine + forged + theirs + newer
    assert cosignature.cosigned_by(note, [_key(), other_key]) == {NAME: 9, "w2": 6}
    assert cosignature.cosigned_by(note, [other_key]) == {"w2": 6}
    assert cosignature.cosigned_by(BODY + "\n" + LOG_LINE, [_key(), other_key]) == {}
    with pytest.raises(CosignatureError, match="not by the key"):
        cosignature.verify_cosignature(BODY, theirs, _key())


def _plain_vkey() -> str:
    plain_id = hashlib.sha256(NAME.encode() + b"\n\x01" + bytes(32)).digest()[:4].hex()
    return f"{NAME}+{plain_id}+" + base64.b64encode(b"\x01" + bytes(32)).decode()


@pytest.mark.parametrize(
    "vkey",
    [
        "",
        "w+0000000+BA==",
        f"{NAME}+00000000+" + base64.b64encode(b"\x04" + bytes(range(32))).decode(),
        # a log's plain Ed25519 vkey (type 0x01) is not a witness key
        _plain_vkey(),
        "with space+00000000+BA==",
    ],
)
def test_bad_witness_vkeys_are_refused(vkey: str) -> None:
    with pytest.raises(CosignatureError):
        WitnessKey.from_vkey(vkey)


def test_bad_timestamps_and_bodies_are_refused() -> None:
    for timestamp in (-1, 2**63, True):
        with pytest.raises(CosignatureError, match="timestamp"):
            cosignature.sign_cosignature(BODY, NAME, _private(), timestamp)
    for bad_body in (BODY.rstrip("\n"), BODY.replace("\n", "\t", 1), BODY + "\x00\n"):
        with pytest.raises(CosignatureError, match="control characters"):
            cosignature.sign_cosignature(bad_body, NAME, _private(), 1)
    line = cosignature.sign_cosignature(BODY, NAME, _private(), 1)
    with pytest.raises(CosignatureError, match="exactly one"):
        cosignature.verify_cosignature(BODY, line + line, _key())


def test_it_runs_as_a_plain_file_beside_its_neighbours_under_a_bare_python(
        tmp_path: Path) -> None:
    for module in (ed25519, signed_note, cosignature):
        shutil.copy(str(module.__file__), tmp_path)
    line = cosignature.sign_cosignature(BODY, NAME, _private(), SPEC_TIME)
    script = ("import sys, cosignature; k = cosignature.WitnessKey.from_vkey(sys.argv[1]); "
              "print(cosignature.cosigned_by(sys.stdin.read(), [k]))")
    done = subprocess.run([sys.executable, "-S", "-c", script, _key().vkey()], cwd=tmp_path,
                          input=BODY + "\n" + LOG_LINE + line, capture_output=True, text=True,
                          encoding="utf-8", check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{{'{NAME}': {SPEC_TIME}}}\n", "")
