"""Signed notes (C2SP signed-note, Ed25519) as ``store.log.notes`` writes and opens them."""

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from store.log.notes import NoteError, Signer, open_note, parse_signer, parse_verifier

BODY = "example.org/log\n7\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"


def test_a_note_is_its_text_a_blank_line_and_one_signature_line_per_signer():
    signer = Signer.generate("example.org/log")
    note = signer.sign(BODY)
    body, signature_line = note.split("\n\n")
    assert body + "\n" == BODY
    dash, name, encoded = signature_line.rstrip("\n").split(" ")
    assert (dash, name) == ("\u2014", "example.org/log")
    raw = base64.b64decode(encoded)
    public = signer.verifier.public
    assert raw[:4] == hashlib.sha256(b"example.org/log\n\x01" + public).digest()[:4]
    Ed25519PublicKey.from_public_bytes(public).verify(raw[4:], BODY.encode())  # raises if not


def test_keys_round_trip_through_their_text():
    signer = Signer.generate("example.org/log")
    assert parse_signer(signer.text()).verifier == signer.verifier
    verifier = parse_verifier(signer.verifier.text())
    assert verifier == signer.verifier
    name, key_id, key = verifier.text().split("+", 2)
    assert len(key_id) == 8 and base64.b64decode(key)[:1] == b"\x01"
    with pytest.raises(NoteError):
        parse_verifier(f"{name}+00000000+{key}")


def test_a_note_opens_only_under_the_key_that_signed_it():
    signer, other = Signer.generate("example.org/log"), Signer.generate("example.org/log")
    note = signer.sign(BODY)
    assert open_note(note, signer.verifier) == BODY
    with pytest.raises(NoteError):
        open_note(note, other.verifier)
    with pytest.raises(NoteError):
        open_note(note.replace("\n7\n", "\n8\n"), signer.verifier)
    cosigned = note + other.sign(BODY).split("\n\n")[1]
    assert open_note(cosigned, other.verifier) == BODY
