"""Signed notes (C2SP ``signed-note``, as Go's checksum database and Sigstore sign their checkpoints), Ed25519.

A note is a text ending in a newline, a blank line, then one signature line
per signer: ``— <key name> <base64(key id || signature)>``. The key id is
the first 4 bytes of SHA-256(key name || "\\n" || 0x01 || public key); 0x01
is Ed25519's signature type. Keys travel in Go's note formats: the verifier
key ``<name>+<key id, 8 hex digits>+<base64(0x01 || public key)>`` that
anyone may hold, and the signer key ``PRIVATE+KEY+<name>+<key id>+<base64(0x01
|| private seed)>`` that only the workers read (``SCOUNDREL_LOG_KEY``).
"""

import base64
import hashlib
import re
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

ED25519 = b"\x01"
_NAME = re.compile(r"[^\s+]+")  # a key name: no space, no plus
SIGNATURE_PREFIX = "\u2014 "  # an em dash and a space open each signature line


class NoteError(ValueError):
    """A key or a note that is not in the format, or a note no key it is checked with signed."""


def _key_id(name: str, public: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public).digest()[:4]


def _public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class Verifier:
    """A verifier key: who signs (``name``) and the Ed25519 key that checks their signatures."""

    name: str
    public: bytes

    @property
    def key_id(self) -> bytes:
        return _key_id(self.name, self.public)

    def text(self) -> str:
        return f"{self.name}+{self.key_id.hex()}+{base64.b64encode(ED25519 + self.public).decode()}"


@dataclass(frozen=True)
class Signer:
    """A signer key: the name its signatures carry, and the Ed25519 private key."""

    name: str
    private: Ed25519PrivateKey

    @classmethod
    def generate(cls, name: str) -> "Signer":
        if not _NAME.fullmatch(name):
            raise NoteError(f"a key name has no spaces or '+': {name!r}")
        return cls(name, Ed25519PrivateKey.generate())

    @property
    def verifier(self) -> Verifier:
        return Verifier(self.name, _public_bytes(self.private.public_key()))

    def text(self) -> str:
        seed = self.private.private_bytes_raw()
        return (f"PRIVATE+KEY+{self.name}+{self.verifier.key_id.hex()}+"
                f"{base64.b64encode(ED25519 + seed).decode()}")

    def sign(self, body: str) -> str:
        """``body`` (ending in a newline) as a note signed by this key."""
        if not body.endswith("\n"):
            raise NoteError("a note's text ends with a newline")
        signature = self.private.sign(body.encode())
        line = base64.b64encode(self.verifier.key_id + signature).decode()
        return f"{body}\n{SIGNATURE_PREFIX}{self.name} {line}\n"


def parse_verifier(text: str) -> Verifier:
    parts = text.strip().split("+", 2)  # base64 has '+' too: the key is all after the second
    try:
        name, key_id, encoded = parts
        raw = base64.b64decode(encoded, validate=True)
    except ValueError:
        raise NoteError("not a verifier key: <name>+<key id>+<base64 key>") from None
    if not _NAME.fullmatch(name) or raw[:1] != ED25519 or len(raw) != 33:
        raise NoteError("not an Ed25519 verifier key")
    verifier = Verifier(name, raw[1:])
    if verifier.key_id.hex() != key_id:
        raise NoteError("the verifier key's id does not match its key")
    return verifier


def parse_signer(text: str) -> Signer:
    parts = text.strip().split("+", 4)
    try:
        private, key, name, key_id, encoded = parts
        raw = base64.b64decode(encoded, validate=True)
    except ValueError:
        raise NoteError("not a signer key: PRIVATE+KEY+<name>+<key id>+<base64 key>") from None
    if (private, key) != ("PRIVATE", "KEY") or raw[:1] != ED25519 or len(raw) != 33 or not _NAME.fullmatch(name):
        raise NoteError("not an Ed25519 signer key")
    signer = Signer(name, Ed25519PrivateKey.from_private_bytes(raw[1:]))
    if signer.verifier.key_id.hex() != key_id:
        raise NoteError("the signer key's id does not match its key")
    return signer


def open_note(note: str, verifier: Verifier) -> str:
    """The text of ``note`` once a signature by ``verifier`` on it checks; raises ``NoteError`` if none does.
    Signatures by other keys are ignored, as the format allows (a witness's, a rotated key's)."""
    body, separator, signatures = note.rpartition("\n\n")
    if not separator or not signatures.endswith("\n"):
        raise NoteError("not a signed note: its text, a blank line, its signatures")
    body += "\n"
    for line in signatures[:-1].split("\n"):
        if not line.startswith(SIGNATURE_PREFIX):
            raise NoteError("a signature line starts with an em dash and a space")
        name, _, encoded = line[len(SIGNATURE_PREFIX):].partition(" ")
        try:
            raw = base64.b64decode(encoded, validate=True)
        except ValueError:
            raise NoteError("a signature is not base64") from None
        if name != verifier.name or raw[:4] != verifier.key_id:
            continue
        try:
            Ed25519PublicKey.from_public_bytes(verifier.public).verify(raw[4:], body.encode())
        except InvalidSignature:
            raise NoteError(f"the signature by {name} does not check") from None
        return body
    raise NoteError(f"no signature by {verifier.text()}")
