"""A public log built as RFC 9162 §2.1 and C2SP's signed-note and tlog-checkpoint say, apart from the service's.

The JS client's checks (``clients/js/src/transparency.js``) are tested
against what this module makes: the fixture ``tests/data/signed-note.json``
(a checkpoint signed with ``cryptography``'s Ed25519, a note cosigned by a
second key, leaves with their inclusion and consistency proofs), and the
answers a page test gives a browser in place of the service's log. It is
written from the specifications alone, by their recursive definitions, so
that the checks and the service's log are each held to the text, not to one
another. Regenerate the fixture with ``.venv/bin/python -m tests.support.public_log``
(``tests/clients/test_signed_note_fixture.py`` fails when it is stale).
"""

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "signed-note.json"
ED25519 = b"\x01"  # the signature type byte of an Ed25519 key (signed-note)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


@dataclass(frozen=True)
class NoteKey:
    """An Ed25519 key of a signed note: its name, and the private key (from a seed, so the fixture is the same
    each time it is written: Ed25519 signatures are deterministic)."""

    name: str
    private: Ed25519PrivateKey

    @classmethod
    def from_seed(cls, name: str, seed: str) -> "NoteKey":
        return cls(name, Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed.encode()).digest()))

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @property
    def key_id(self) -> bytes:
        """SHA-256(name || 0x0A || 0x01 || public key)[:4] (signed-note)."""
        return hashlib.sha256(self.name.encode() + b"\n" + ED25519 + self.public).digest()[:4]

    @property
    def vkey(self) -> str:
        """The verifier key: ``<name>+<hex key ID>+<base64(0x01 || public key)>``."""
        return f"{self.name}+{self.key_id.hex()}+{b64(ED25519 + self.public)}"

    def signature_line(self, text: str) -> str:
        return f"\u2014 {self.name} {b64(self.key_id + self.private.sign(text.encode()))}\n"


def signed_note(text: str, *keys: NoteKey) -> str:
    """``text`` (ending in a newline), a blank line, and a signature line by each key."""
    assert text.endswith("\n")
    return text + "\n" + "".join(key.signature_line(text) for key in keys)


def checkpoint_text(origin: str, size: int, root: bytes) -> str:
    """A checkpoint's note text (tlog-checkpoint): origin, tree size, base64 root hash, a line each."""
    return f"{origin}\n{size}\n{b64(root)}\n"


# The Merkle tree of RFC 9162 §2.1, by its recursive definitions.

def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def tree_root(leaves: list[bytes]) -> bytes:
    """MTH(D[n]) (§2.1.1)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaf_hash(leaves[0])
    k = _split(len(leaves))
    return node_hash(tree_root(leaves[:k]), tree_root(leaves[k:]))


def inclusion_proof(index: int, leaves: list[bytes]) -> list[bytes]:
    """PATH(m, D[n]) (§2.1.3.1)."""
    if len(leaves) == 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return inclusion_proof(index, leaves[:k]) + [tree_root(leaves[k:])]
    return inclusion_proof(index - k, leaves[k:]) + [tree_root(leaves[:k])]


def consistency_proof(first: int, leaves: list[bytes], whole: bool = True) -> list[bytes]:
    """SUBPROOF(m, D[n], b) (§2.1.4.1); PROOF(m, D[n]) with ``whole`` True."""
    if first == len(leaves):
        return [] if whole else [tree_root(leaves)]
    k = _split(len(leaves))
    if first <= k:
        return consistency_proof(first, leaves[:k], whole) + [tree_root(leaves[k:])]
    return consistency_proof(first - k, leaves[k:], False) + [tree_root(leaves[:k])]


def canonical(value: dict) -> str:
    """A leaf's JSON text: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def fixture() -> dict:
    """What ``tests/data/signed-note.json`` holds: a log of 7 leaves, its checkpoint signed by the log's key and
    cosigned by a witness's, each leaf's inclusion proof and the consistency proof of each smaller tree."""
    log = NoteKey.from_seed("referee.example/log", "scoundrel referee: the public log's test key")
    witness = NoteKey.from_seed("witness.example/w1", "scoundrel referee: a witness's test key")
    leaves = [canonical({"index": index, "run": f"run-{index}", "player": "ada", "score": 11 - 5 * index, "é": "ü"})
              for index in range(7)]
    raw = [leaf.encode() for leaf in leaves]
    text = checkpoint_text(log.name, len(raw), tree_root(raw))
    return {
        "origin": log.name,
        "vkey": log.vkey,
        "witness": witness.name,
        "witness_vkey": witness.vkey,
        "checkpoint": signed_note(text, log),
        "cosigned": signed_note(text, log, witness),
        "leaves": [{"leaf": leaf, "leaf_hash": b64(leaf_hash(data))} for leaf, data in zip(leaves, raw, strict=True)],
        "inclusion": [[b64(hash) for hash in inclusion_proof(index, raw)] for index in range(len(raw))],
        "consistency": [{"first": first, "second": len(raw), "first_root": b64(tree_root(raw[:first])),
                         "hashes": [b64(hash) for hash in consistency_proof(first, raw)]}
                        for first in range(1, len(raw) + 1)],
    }


def written(value: dict) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(written(fixture()), encoding="utf-8")
