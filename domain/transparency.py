"""The public log of every change to what a board shows: its leaves, its Merkle tree, its proofs and checkpoints.

Each change to what a board shows is one *leaf*: a canonical JSON document
(``leaf_text``). A run's change (a verdict, a void, a restore, a
re-verification's outcome) is a ``Leaf``; a sealed deal's seed revealed
(tying the commitment earlier leaves carry to the seed) a ``SeedLeaf``; a
player's places withheld from every board (a ban or a hiding), shown again
(the last of those lifted), or gone with their erasure a ``PlayerLeaf``.
The tree over the leaves is RFC 9162's (§2.1): SHA-256, a leaf hashed with
a 0x00 prefix, a node with 0x01. A *checkpoint* is C2SP's ``tlog-checkpoint`` body (the
log's origin, its size, its base64 root hash, one a line), which
``store.log.notes`` signs as a C2SP ``signed-note``.

The proofs are RFC 9162's ``PATH`` and ``PROOF`` (§2.1.3.1, §2.1.4.1), built
from the hashes of *complete subtrees*: the subtree of ``2**level`` leaves
from leaf ``index * 2**level``, keyed ``(level, index)``. Every hash either
algorithm asks for is such a subtree or the tree's right edge, which is
O(log n) of them; ``inclusion_nodes`` and ``consistency_nodes`` name them
up front, so a store reads them in one query (``store.log``). The
verifications are RFC 9162's (§2.1.3.2, §2.1.4.2), for ``scoundrel log
verify`` and any client.

Standard library only, as all of ``domain``: the signatures are the store's (``store.log.notes``).
"""

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.numerals import is_ascii_number

VERDICT = "verdict"  # the kinds of leaf: a run's verdict (verified or rejected) as the worker recorded it
VOID = "void"  # a moderator voided the run: it leaves every board
RESTORE = "restore"  # a void undone: the run is back under its verdict
REVERIFY = "reverify"  # a re-verification's outcome: the verdict a replay gave again (changed or not)
REVEAL = "reveal"  # a sealed deal closed: its seed, which the commitment in its runs' leaves stood for
WITHHOLD = "withhold"  # a player banned or hidden: their places leave every board
SHOW = "show"  # the last of a player's ban and hiding lifted: their places come back, as their runs earn them
ERASE = "erase"  # a player erased: their runs leave every board (a closed board keeps the place, runless)
RUN_KINDS = (VERDICT, VOID, RESTORE, REVERIFY)  # a ``Leaf``'s
SEALED_SEED = "commitment:"  # a sealed seed's place in a run's leaf: this, then its commitment

PAGE_MOST = 1000  # leaves a page of the log holds at most (``GET /v1/log/entries``)

Node = tuple[int, int]  # a complete subtree: (level, index), the 2**level leaves from index * 2**level


class ProofError(ValueError):
    """A proof asked for outside the tree (a leaf past its size, a size past the log's)."""


def canonical_json(document: Mapping[str, Any]) -> str:
    """``document`` in RFC 8785's canonical form: keys sorted, no whitespace, strings as JSON escapes them
    minimally. A leaf holds only strings, integers (below 2**53) and null, whose RFC 8785 form is exactly
    this one, so no float formatting is needed."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def moves_hash(moves: Iterable[str]) -> str:
    """The hex SHA-256 of a run's move list as canonical JSON (``["f","w3",...]``)."""
    return hashlib.sha256(json.dumps(list(moves), separators=(",", ":")).encode()).hexdigest()


PSEUDONYM_LABEL = b"scoundrel-1 log pseudonym"  # what a player's secret is applied to: no name, which can change


def player_pseudonym(secret: bytes) -> str:
    """The player's id in the log: HMAC-SHA256 of ``PSEUDONYM_LABEL`` under the player's own secret (hex,
    128 bits). The secret is the player's and moves with them when a moderator renames them, so one player
    keeps one pseudonym whatever their name (the log's rebuilt boards count their runs as one player's).
    Erasure deletes the secret, after which nothing ties the pseudonym to a name."""
    return hmac.new(secret, PSEUDONYM_LABEL, hashlib.sha256).hexdigest()[:32]


class _Appended:
    """A leaf's fields but its index, which the log gives it when it is appended (``leaf_text``)."""

    def document(self, index: int) -> dict[str, object]:
        raise NotImplementedError

    def text_around_index(self) -> tuple[str, str]:
        """``leaf_text`` split where its index goes: a script that gives the index joins the two around it."""
        marker = -1
        head, tail = canonical_json(self.document(marker)).split(f'"index":{marker}', 1)
        return head + '"index":', tail


@dataclass(frozen=True)
class Leaf(_Appended):
    """A run's change: the run as the change leaves it.

    ``seed`` is the deal's seed, or for a sealed deal ``commitment:`` and
    its commitment (``domain.dealer.commitment``): a ``SeedLeaf`` tells the
    seed once the deal is closed. ``boards`` names every board the run
    counts on once verified (``domain.boards.BoardId.name``), ``submitted``
    its submission time, which ranks a first board and a ladder's window."""

    kind: str
    time_ms: int
    run: str
    origin: str  # open (submitted whole) or dealt (``domain.run``): which boards the run can count on
    variant: str
    seed: str
    moves: str  # ``moves_hash`` of the run's moves
    verdict: str  # the run's status the change leaves it with: verified, rejected, error or void
    score: int | None
    ruleset: str
    engine: str
    player: str  # ``player_pseudonym``
    boards: tuple[str, ...] = ()
    submitted_ms: int = 0

    def document(self, index: int) -> dict[str, object]:
        return {"index": index, "time": self.time_ms, "kind": self.kind, "run": self.run, "origin": self.origin,
                "variant": self.variant,
                "seed": self.seed, "moves": self.moves, "verdict": self.verdict, "score": self.score,
                "ruleset": self.ruleset, "engine": self.engine, "player": self.player, "boards": list(self.boards),
                "submitted": self.submitted_ms}


@dataclass(frozen=True)
class SeedLeaf(_Appended):
    """A sealed deal's seed revealed (kind ``reveal``) when what sealed it closed (``seal``: ``daily:<date>``,
    ``tournament:<id>``): the seed, and the commitment (hex) that run leaves carried for it until then."""

    time_ms: int
    seal: str
    seed: str
    commitment: str
    kind: str = REVEAL

    def document(self, index: int) -> dict[str, object]:
        return {"index": index, "time": self.time_ms, "kind": self.kind, "seal": self.seal, "seed": self.seed,
                "commitment": self.commitment}


@dataclass(frozen=True)
class PlayerLeaf(_Appended):
    """A change to all of a player's places at once (``withhold``, ``show``, ``erase``), the player by their
    pseudonym: the log never says why (a ban or a hiding alike), only what the boards show."""

    kind: str
    time_ms: int
    player: str

    def document(self, index: int) -> dict[str, object]:
        return {"index": index, "time": self.time_ms, "kind": self.kind, "player": self.player}


def leaf_text(leaf: _Appended, index: int) -> str:
    """The exact text the log hashes for ``leaf`` at ``index``."""
    return canonical_json(leaf.document(index))


def parse_leaf(text: str) -> dict[str, Any]:
    """A leaf's document; raises ValueError unless ``text`` is one in canonical form."""
    document = json.loads(text)
    if not isinstance(document, dict) or canonical_json(document) != text:
        raise ValueError("not a canonical leaf")
    return document


def leaf_hash(text: str | bytes) -> bytes:
    """RFC 9162 §2.1.1: SHA-256(0x00 || leaf)."""
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 9162 §2.1.1: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


EMPTY_ROOT = hashlib.sha256(b"").digest()


def b64(digest: bytes) -> str:
    return base64.b64encode(digest).decode()


def _split(size: int) -> int:
    """The largest power of two smaller than ``size`` (> 1): where RFC 9162 splits a tree."""
    return 1 << ((size - 1).bit_length() - 1)


def completed(index: int) -> list[Node]:
    """The complete subtrees that leaf ``index``, appended, completes: itself, then each parent it closes."""
    nodes, level = [(0, index)], 0
    while (index + 1) % (2 << level) == 0:
        level += 1
        nodes.append((level, index >> level))
    return nodes


def _range_hash(start: int, end: int, node: Callable[[Node], bytes]) -> bytes:
    """MTH of leaves [start, end), from complete subtrees: one when the range is one, else split as MTH is."""
    size = end - start
    if size & (size - 1) == 0 and start % size == 0:
        level = size.bit_length() - 1
        return node((level, start >> level))
    k = _split(size)
    return node_hash(_range_hash(start, start + k, node), _range_hash(start + k, end, node))


def root_hash(size: int, node: Callable[[Node], bytes]) -> bytes:
    """MTH of the first ``size`` leaves."""
    return EMPTY_ROOT if size == 0 else _range_hash(0, size, node)


def _path(m: int, start: int, end: int, node: Callable[[Node], bytes]) -> list[bytes]:
    """RFC 9162 §2.1.3.1 PATH(m, D[start:end]), m counted from ``start``."""
    if end - start == 1:
        return []
    k = _split(end - start)
    if m < k:
        return _path(m, start, start + k, node) + [_range_hash(start + k, end, node)]
    return _path(m - k, start + k, end, node) + [_range_hash(start, start + k, node)]


def _subproof(m: int, start: int, end: int, whole: bool, node: Callable[[Node], bytes]) -> list[bytes]:
    """RFC 9162 §2.1.4.1 SUBPROOF(m, D[start:end], b)."""
    if m == end - start:
        return [] if whole else [_range_hash(start, end, node)]
    k = _split(end - start)
    if m <= k:
        return _subproof(m, start, start + k, whole, node) + [_range_hash(start + k, end, node)]
    return _subproof(m - k, start + k, end, False, node) + [_range_hash(start, start + k, node)]


def inclusion_proof(index: int, size: int, node: Callable[[Node], bytes]) -> list[bytes]:
    """The audit path of leaf ``index`` in the tree of ``size`` leaves."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size}")
    return _path(index, 0, size, node)


def consistency_proof(first: int, second: int, node: Callable[[Node], bytes]) -> list[bytes]:
    """The proof that the tree of ``second`` leaves extends the tree of ``first`` (empty when equal or 0)."""
    if not 0 <= first <= second:
        raise ProofError(f"a tree of {first} is not a prefix of one of {second}")
    return [] if first in (0, second) else _subproof(first, 0, second, True, node)


def _needed(build: Callable[[Callable[[Node], bytes]], object]) -> list[Node]:
    wanted: list[Node] = []

    def note(position: Node) -> bytes:
        wanted.append(position)
        return b""

    build(note)
    return wanted


def inclusion_nodes(index: int, size: int) -> list[Node]:
    """The complete subtrees ``inclusion_proof`` reads: O(log² n) at most, read at once."""
    return _needed(lambda node: inclusion_proof(index, size, node))


def consistency_nodes(first: int, second: int) -> list[Node]:
    """The complete subtrees ``consistency_proof`` reads."""
    return _needed(lambda node: consistency_proof(first, second, node))


def root_nodes(size: int) -> list[Node]:
    """The complete subtrees ``root_hash`` reads: one per 1 bit of ``size``."""
    return _needed(lambda node: root_hash(size, node))


def verify_inclusion(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2: whether ``proof`` shows leaf hash ``leaf`` at ``index`` under ``root``."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == root


def verify_consistency(first: int, second: int, first_root: bytes, second_root: bytes, proof: list[bytes]) -> bool:
    """RFC 9162 §2.1.4.2: whether ``proof`` shows the tree of ``second`` leaves extends that of ``first``."""
    if first > second:
        return False
    if first == second:
        return not proof and first_root == second_root
    if first == 0:
        return not proof
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # a power of two: the first tree is itself a subtree on the path
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == first_root and sr == second_root


@dataclass(frozen=True)
class Checkpoint:
    """C2SP tlog-checkpoint: the log's ``origin``, its ``size`` and the root hash of that many leaves."""

    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{b64(self.root)}\n"


def parse_checkpoint(text: str) -> Checkpoint:
    """The checkpoint of a note's body (extension lines after the third are allowed and ignored)."""
    lines = text.split("\n")
    if (len(lines) < 4 or lines[-1] != "" or not lines[0] or not is_ascii_number(lines[1])
            or lines[1] != str(int(lines[1]))):
        raise ValueError("not a checkpoint: origin, size and root hash, one a line")
    root = base64.b64decode(lines[2], validate=True)
    if len(root) != 32:
        raise ValueError("not a checkpoint: its root hash is not 32 bytes")
    return Checkpoint(lines[0], int(lines[1]), root)
