"""Rebuilding the boards from the public log, and naming every way the log or the boards fail to agree.

What ``scoundrel log verify`` checks, given a copy of the log (``LogCopy``:
what the service's ``/v1/log`` endpoints, its runs' and its boards' JSON
say): every checkpoint is signed by the key, and its root is the tree of
the leaves up to its size, so every checkpoint is consistent with the last
(and the service's consistency proofs are checked too); every leaf is in
canonical form, carries its own index and hashes as served; every run the
log ends verified whose seed is public replays, with the engine, to the
verdict and score its leaf says, its moves hashing to its leaf's; the boards
those runs count on (each variant's open and dealt boards, a player's best
run each) rebuilt from the leaves equal the live boards. A problem is a
sentence naming what differs; none means the boards are what the log says.
"""

import base64
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import scoundrel
from domain.run import DEALT, OPEN
from domain.transparency import (
    EMPTY_ROOT,
    VERDICT,
    leaf_hash,
    moves_hash,
    node_hash,
    parse_checkpoint,
    parse_leaf,
    verify_consistency,
)
from scoundrel.deal import is_valid_seed
from store.log import NoteError, open_note, parse_verifier

REBUILT = {OPEN: "/v1/leaderboards/{variant}", DEALT: "/v1/leaderboards/dealt/{variant}"}  # by the runs' origin
SEALED_SEED = "commitment:"  # a leaf's seed while the deal is sealed: not replayable yet

Document = dict[str, Any]  # a leaf's, a run's or a board entry's JSON


@dataclass
class LogCopy:
    """The log as fetched (or exported): the verifier ``key``, every signed checkpoint, the leaves as served
    (``index``, ``leaf``, ``leaf_hash``), the consistency proof of each checkpoint with the last (by the
    smaller size), each run's JSON the replay needs, and each rebuilt board's live entries by its path."""

    key: str
    checkpoints: list[str]
    entries: list[Document]
    consistency: dict[str, list[str]] = field(default_factory=dict)
    runs: dict[str, Document] = field(default_factory=dict)
    boards: dict[str, list[Document]] = field(default_factory=dict)

    def to_json(self) -> Document:
        return {"key": self.key, "checkpoints": self.checkpoints, "entries": self.entries,
                "consistency": self.consistency, "runs": self.runs, "boards": self.boards}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> "LogCopy":
        return cls(document["key"], list(document["checkpoints"]), list(document["entries"]),
                   dict(document.get("consistency", {})), dict(document.get("runs", {})),
                   dict(document.get("boards", {})))


def _roots(hashes: list[bytes], sizes: Iterable[int]) -> dict[int, bytes]:
    """The root of the tree of each of ``sizes`` leaves, from the leaves' hashes, in one pass (a stack of
    complete subtrees, as the log keeps them)."""
    wanted, roots, stack = set(sizes), {}, []  # stack: (level, hash) of the complete subtrees, left to right
    if 0 in wanted:
        roots[0] = EMPTY_ROOT
    for count, digest in enumerate(hashes, 1):
        stack.append((0, digest))
        while len(stack) > 1 and stack[-1][0] == stack[-2][0]:
            (level, right), (_, left) = stack.pop(), stack.pop()
            stack.append((level + 1, node_hash(left, right)))
        if count in wanted:
            root = stack[-1][1]
            for _, left in reversed(stack[:-1]):
                root = node_hash(left, root)
            roots[count] = root
    return roots


def latest_leaves(copy: LogCopy) -> dict[str, Document]:
    """Each run's latest leaf: what the log says the run is now."""
    latest: dict[str, Document] = {}
    for entry in copy.entries:
        try:
            document = parse_leaf(entry["leaf"])
        except ValueError:
            continue
        latest[document["run"]] = document
    return latest


def replayable(leaf: Mapping[str, Any]) -> bool:
    """A run the log ends verified, on a seed the leaf shows."""
    return leaf["verdict"] == "verified" and not str(leaf["seed"]).startswith(SEALED_SEED)


def audit(copy: LogCopy) -> list[str]:
    """Every problem found, as a sentence each; empty when the log, the runs and the boards agree."""
    problems: list[str] = []
    problems += _check_leaves(copy)
    problems += _check_checkpoints(copy)
    latest = latest_leaves(copy)
    problems += _check_runs(copy, latest)
    problems += _check_boards(copy, latest)
    return problems


def _check_leaves(copy: LogCopy) -> list[str]:
    problems = []
    for position, entry in enumerate(copy.entries):
        index = entry.get("index")
        if index != position:
            problems.append(f"leaf {position}: served as leaf {index} (a leaf missing or out of place)")
        try:
            document = parse_leaf(entry["leaf"])
        except ValueError:
            problems.append(f"leaf {position}: not canonical JSON")
            continue
        if document.get("index") != position:
            problems.append(f"leaf {position}: its text says it is leaf {document.get('index')} (leaves swapped, "
                            "or one deleted)")
        if base64.b64encode(leaf_hash(entry["leaf"])).decode() != entry.get("leaf_hash"):
            problems.append(f"leaf {position}: its hash is not the RFC 9162 hash of its text")
    return problems


def _check_checkpoints(copy: LogCopy) -> list[str]:
    try:
        verifier = parse_verifier(copy.key)
    except NoteError as error:
        return [f"the verifier key: {error}"]
    problems, sizes = [], []
    opened = []
    for note in copy.checkpoints:
        try:
            checkpoint = parse_checkpoint(open_note(note, verifier))
        except (NoteError, ValueError) as error:
            head = note.split("\n", 2)[1] if note.count("\n") > 1 else "?"
            problems.append(f"checkpoint of size {head}: {error}")
            continue
        if checkpoint.origin != verifier.name:
            problems.append(f"checkpoint of size {checkpoint.size}: its origin {checkpoint.origin!r} is not the key's")
        opened.append(checkpoint)
        sizes.append(checkpoint.size)
    if not opened:
        return problems + ["no checkpoint signed by the key"]
    hashes = [leaf_hash(entry["leaf"]) for entry in copy.entries]
    roots = _roots(hashes, sizes)
    last = max(opened, key=lambda checkpoint: checkpoint.size)
    for checkpoint in opened:
        if checkpoint.size > len(hashes):
            problems.append(f"checkpoint of size {checkpoint.size}: the log serves only {len(hashes)} leaves")
        elif roots[checkpoint.size] != checkpoint.root:
            problems.append(f"checkpoint of size {checkpoint.size}: its root is not the tree of the leaves served "
                            "(a leaf changed, deleted or moved)")
        proof = copy.consistency.get(str(checkpoint.size))
        if proof is not None and checkpoint.size not in (0, last.size) and not verify_consistency(
                checkpoint.size, last.size, checkpoint.root, last.root, [base64.b64decode(h) for h in proof]):
            problems.append(f"checkpoint of size {checkpoint.size}: not consistent with the last, of size "
                            f"{last.size} (the log forked or was rewritten)")
    return problems


def _check_runs(copy: LogCopy, latest: Mapping[str, Document]) -> list[str]:
    problems = []
    for run_id, leaf in sorted(latest.items()):
        if not replayable(leaf):
            continue
        run = copy.runs.get(run_id)
        if run is None:
            problems.append(f"run {run_id}: verified in the log, and the service does not show it")
            continue
        if (run.get("status"), run.get("score")) != (leaf["verdict"], leaf["score"]):
            problems.append(f"run {run_id}: the service shows {run.get('status')} {run.get('score')}, the log "
                            f"{leaf['verdict']} {leaf['score']}")
        moves = run.get("moves") or []
        if moves_hash(moves) != leaf["moves"]:
            problems.append(f"run {run_id}: its moves are not the ones the log hashed")
            continue
        if not is_valid_seed(leaf["seed"]):
            problems.append(f"run {run_id}: its seed in the log is not a seed")
            continue
        verdict = scoundrel.replay(leaf["seed"], moves, leaf["variant"], forfeit=bool(run.get("forfeit")))
        if (verdict.status, verdict.score) != (leaf["verdict"], leaf["score"]):
            problems.append(f"run {run_id}: the engine replays it {verdict.status} {verdict.score}, the log says "
                            f"{leaf['verdict']} {leaf['score']}")
    return problems


def rebuilt_boards(latest: Mapping[str, Document]) -> dict[str, dict[str, tuple[int, int]]]:
    """Each board the log's runs count on, by its path: each player's (pseudonym's) best verified run as
    ``(score, leaf index)``, the earlier leaf winning a tie."""
    boards: dict[str, dict[str, tuple[int, int]]] = {}
    for leaf in latest.values():
        if leaf["kind"] not in (VERDICT, "restore", "reverify") or leaf["verdict"] != "verified":
            continue
        path = REBUILT[leaf["origin"]].format(variant=leaf["variant"])
        places = boards.setdefault(path, {})
        held = places.get(leaf["player"])
        if held is None or (leaf["score"], -leaf["index"]) > (held[0], -held[1]):
            places[leaf["player"]] = (leaf["score"], leaf["index"])
    return boards


def _check_boards(copy: LogCopy, latest: Mapping[str, Document]) -> list[str]:
    problems = []
    rebuilt = rebuilt_boards(latest)
    for path in sorted(set(rebuilt) | set(copy.boards)):
        expected = {player: score for player, (score, _) in rebuilt.get(path, {}).items()}
        live: dict[str, int | None] = {}
        for entry in copy.boards.get(path, []):
            leaf = latest.get(entry.get("run_id") or "")
            if leaf is None:
                problems.append(f"{path}: {entry.get('player')}'s place (run {entry.get('run_id')}) is not in the log")
                continue
            live[leaf["player"]] = entry.get("score")
        for player in sorted(set(expected) | set(live)):
            if expected.get(player) != live.get(player):
                problems.append(f"{path}: player {player} has {_score(live.get(player))} on the live board, "
                                f"{_score(expected.get(player))} by the log")
    return problems


def _score(score: int | None) -> str:
    return "no place" if score is None else f"score {score}"
