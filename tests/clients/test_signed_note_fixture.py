"""The public log's fixture for the JS client still says what Python's ``cryptography`` and RFC 9162 say.

``tests/data/signed-note.json`` holds a checkpoint signed with Ed25519 by
``cryptography``, a note cosigned by a second key, and a log's leaves with
their inclusion and consistency proofs, all made by ``tests/support/public_log.py``;
the JS tests (``node --test clients/js/test/``) open and verify them. This test
makes them again (Ed25519 signs deterministically) and compares, so the
fixture cannot fall behind what it claims to be. Regenerate with
``.venv/bin/python -m tests.support.public_log``.
"""

import base64
import json

from tests.support import public_log


def test_the_fixture_is_what_the_python_side_makes_now():
    assert public_log.FIXTURE.read_text(encoding="utf-8") == public_log.written(public_log.fixture())


def test_the_checkpoint_is_signed_by_the_key_its_verifier_key_names():
    fixture = json.loads(public_log.FIXTURE.read_text(encoding="utf-8"))
    key = public_log.NoteKey.from_seed("referee.example/log", "scoundrel referee: the public log's test key")
    text, _, signature_line = fixture["checkpoint"].rpartition("\n\n")
    name, encoded = signature_line.removeprefix("\u2014 ").split()
    signature = base64.b64decode(encoded)
    assert (name, fixture["vkey"], signature[:4]) == (key.name, key.vkey, key.key_id)
    key.private.public_key().verify(signature[4:], f"{text}\n".encode())  # raises if it does not verify
