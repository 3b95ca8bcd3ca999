"""C2SP signed notes and checkpoints against the reference implementation's published vectors
(golang.org/x/mod/sumdb/note) and the C2SP specifications' examples."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.core import ed25519, signed_note
from fairfight.core.signed_note import NoteError

GOLDEN = Path(__file__).parent / "golden" / "signed_note_go.json"


@pytest.fixture(scope="module")
def go() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return loaded


def test_the_reference_verifier_keys_read_and_spell_back(go: dict[str, Any]) -> None:
    for vkey in (go["peter_vkey"], go["enoch_vkey"]):
        verifier = signed_note.parse_verifier_key(vkey)
        assert verifier.vkey() == vkey
    peter = signed_note.parse_verifier_key(go["peter_vkey"])
    assert peter.name == "PeterNeumann"
    assert peter.key_id == bytes.fromhex("c74f20a3")


def test_every_mangled_verifier_key_is_refused(go: dict[str, Any]) -> None:
    vkey: str = go["peter_vkey"]
    for label, bad in go["bad_vkeys"].items():
        with pytest.raises(NoteError):
            signed_note.parse_verifier_key(bad)
        assert label
    for index in range(len(vkey)):
        bumped = vkey[:index] + chr(ord(vkey[index]) + 1) + vkey[index + 1:]
        with pytest.raises(NoteError):
            signed_note.parse_verifier_key(bumped)
    for start in range(len(vkey)):  # every proper substring, as TestNewVerifier tries
        for end in range(start + 1, len(vkey) + 1):
            if (start, end) != (0, len(vkey)):
                with pytest.raises(NoteError):
                    signed_note.parse_verifier_key(vkey[start:end])


def _peter(go: dict[str, Any]) -> Ed25519PrivateKey:
    name, given_id, seed = signed_note.parse_signer_key(go["peter_skey"])
    assert (name, given_id.hex()) == ("PeterNeumann", "c74f20a3")
    return Ed25519PrivateKey.from_private_bytes(seed)


def test_signing_the_reference_text_gives_the_reference_note_byte_for_byte(
        go: dict[str, Any]) -> None:
    key = _peter(go)
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert signed_note.verifier_key("PeterNeumann", public).vkey() == go["peter_vkey"]
    note = signed_note.sign_note(go["text"], "PeterNeumann", public, key.sign)
    assert note == go["peter_signed"]


def test_the_reference_notes_open_with_the_keys_that_signed_them(go: dict[str, Any]) -> None:
    peter = signed_note.parse_verifier_key(go["peter_vkey"])
    enoch = signed_note.parse_verifier_key(go["enoch_vkey"])
    both = go["peter_signed"] + go["enoch_signature_line"]
    assert signed_note.open_note(both, [peter]) == (go["text"], ["PeterNeumann"])
    assert signed_note.open_note(both, [enoch]) == (go["text"], ["EnochRoot"])
    assert signed_note.open_note(both, [peter, enoch])[1] == ["PeterNeumann", "EnochRoot"]
    with pytest.raises(NoteError, match="no signature by a known key"):
        signed_note.open_note(go["peter_signed"], [enoch])
    # A known name with another key id is another key: ignored, never checked against Peter's.
    impostor = go["enoch_signature_line"].replace("EnochRoot", "PeterNeumann")
    assert signed_note.open_note(go["peter_signed"] + impostor, [peter])[1] == ["PeterNeumann"]


def test_a_changed_byte_anywhere_fails(go: dict[str, Any]) -> None:
    peter = signed_note.parse_verifier_key(go["peter_vkey"])
    note: str = go["peter_signed"]
    for index in (0, 10, len(go["text"]) - 2, note.index("x08go") + 5, len(note) - 3):
        changed = note[:index] + ("A" if note[index] != "A" else "B") + note[index + 1:]
        with pytest.raises(NoteError):
            signed_note.open_note(changed, [peter])


def test_malformed_notes_are_refused() -> None:
    line = "\u2014 name " + base64.b64encode(bytes(68)).decode() + "\n"
    for bad in ("no blank line\n" + line, "text\n\n", "text\n\n" + line[:-1],
                "text\n\n- name AAAAAAAA\n", "te\x07xt\n\n" + line,
                "text\n\n\u2014 na+me AAAAAAAA\n", "text\n\n\u2014 na\x07me " + line[7:]):
        with pytest.raises(NoteError):
            signed_note.split_note(bad)


def test_the_c2sp_examples_read_and_verify() -> None:
    c2sp = json.loads((GOLDEN.parent / "c2sp_examples.json").read_text(encoding="utf-8"))
    verifier = signed_note.parse_verifier_key(c2sp["signed_note_vkey"])
    assert verifier.vkey() == c2sp["signed_note_vkey"]
    note: str = c2sp["signed_note"]
    assert signed_note.open_note(note, [verifier]) == ("This is an example message.\n",
                                                        ["example.com/foo"])
    with pytest.raises(NoteError):
        signed_note.open_note(note.replace("example message", "example massage"), [verifier])
    text, signatures = signed_note.split_note(c2sp["checkpoint"])
    assert [s.name for s in signatures] == ["example.com/behind-the-sofa"]
    assert len(signatures[0].signature) == 64
    assert signed_note.parse_checkpoint(text).size == 20852163
    with pytest.raises(NoteError, match="no signature by a known key"):
        signed_note.open_note(c2sp["checkpoint"], [verifier])


def test_the_checkpoint_body_is_the_specification_example() -> None:
    # https://c2sp.org/tlog-checkpoint, "Example" (the note text before its signatures).
    example = ("example.com/behind-the-sofa\n20852163\n"
               "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")
    root = base64.b64decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    assert signed_note.checkpoint_text("example.com/behind-the-sofa", 20852163, root) == example
    read = signed_note.parse_checkpoint(example + "extension line\n")
    assert read == signed_note.Checkpoint("example.com/behind-the-sofa", 20852163, root,
                                          ("extension line",))


@pytest.mark.parametrize("bad", [
    "origin\n12\n", "origin\n012\nAAAA\n", "origin\n-1\n" + "A" * 43 + "=\n",
    "origin\n1\nAAAA\n", "\n1\n" + "A" * 43 + "=\n", "origin\n1\n" + "A" * 43 + "=\n\nx\n",
])
def test_a_malformed_checkpoint_is_refused(bad: str) -> None:
    with pytest.raises(NoteError):
        signed_note.parse_checkpoint(bad)


def test_the_documented_checkpoint_is_what_its_recipe_gives() -> None:
    """docs/season-log.md's example: the three-leaf root of merkle_three_leaves.json, RFC
    8032's TEST 1 key, the commitment SHA-256("example season"); rebuilt here by hand."""
    docs = (Path(__file__).parents[2] / "docs" / "season-log.md").read_text(encoding="utf-8")
    block = [line[4:] for line in docs.split("the checkpoint reads:\n\n")[1].split("\n")[:5]]
    note = "\n".join(block) + "\n"
    vkey = docs.split("and its verifier key:\n\n")[1].split("\n")[0].strip()
    merkle = json.loads((GOLDEN.parent / "merkle_three_leaves.json").read_text())
    rfc = json.loads((GOLDEN.parent / "rfc8032_ed25519.json").read_text())["vectors"][0]
    origin = "battles.example/conquest/" + hashlib.sha256(b"example season").hexdigest()
    root = bytes.fromhex(merkle["root_of_3"])
    text = f"{origin}\n3\n{base64.b64encode(root).decode()}\n"
    public = bytes.fromhex(rfc["public_key"])
    key_id = hashlib.sha256(origin.encode() + b"\n\x01" + public).digest()[:4]
    signature = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(rfc["secret_key"])).sign(
        text.encode())
    line = f"\u2014 {origin} {base64.b64encode(key_id + signature).decode()}\n"
    assert note == text + "\n" + line
    typed = base64.b64encode(b"\x01" + public).decode()
    assert vkey == f"{origin}+{key_id.hex()}+{typed}"
    verifier = signed_note.parse_verifier_key(vkey)
    assert signed_note.open_note(note, [verifier]) == (text, [origin])
    assert signed_note.checkpoint_text(origin, 3, root) == text


def test_it_runs_as_a_plain_file_beside_ed25519_under_a_bare_python(
        go: dict[str, Any], tmp_path: Path) -> None:
    for module in (ed25519, signed_note):
        shutil.copy(str(module.__file__), tmp_path)
    script = ("import sys, signed_note; v = signed_note.parse_verifier_key(sys.argv[1]); "
              "print(signed_note.open_note(sys.stdin.read(), [v])[1])")
    done = subprocess.run([sys.executable, "-S", "-c", script, go["peter_vkey"]], cwd=tmp_path,
                          input=go["peter_signed"], capture_output=True, text=True,
                          encoding="utf-8", check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "['PeterNeumann']\n", "")
