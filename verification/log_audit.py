"""Rebuilding the boards from the public log, and naming every way the log or the boards fail to agree.

What ``scoundrel log verify`` checks, given a copy of the log (``LogCopy``:
what the service's ``/v1/log`` endpoints, its runs' and its boards' JSON
say): every checkpoint is signed by the key, and its root is the tree of
the leaves up to its size, so every checkpoint is consistent with the last
(and the service's consistency proofs are checked too); every leaf is in
canonical form, carries its own index and hashes as served; every seed a
``reveal`` leaf tells is the one its commitment stands for; every run the
log ends verified whose seed is public (in the clear, or revealed) replays,
with the engine, to the verdict and score its leaf says, its moves hashing
to its leaf's; and every board those runs count on, rebuilt from the leaves
(``rebuilt_boards``), equals the live board. A problem is a sentence naming
what differs; none means the boards are what the log says.

The log says which boards each run counts on (a run leaf's ``boards``, the
registry's names, ``domain.boards``), and what happened to its player's
places (``withhold``, ``show``, ``erase``), so each kind of board is
rebuilt by its order: a best board from each player's best verified run, a
first board from their earliest submitted, a ladder from their latest
``LADDER_GAMES``, a tournament's sum from its deals' boards. One thing the
log does not record: when a season closed, which freezes its boards
(``store.boards.seasons``) against every later void, ban or erasure; a past
season's boards are named as skipped (``skipped_boards``), the current
season's are rebuilt.
"""

import base64
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import scoundrel
from domain.boards import LADDER_GAMES, SEALED_BOARD, BoardId, Order, board_named, deal_boards
from domain.dealer import commitment
from domain.run import daily_seal
from domain.transparency import (
    EMPTY_ROOT,
    ERASE,
    REVEAL,
    RUN_KINDS,
    SEALED_SEED,
    SHOW,
    WITHHOLD,
    leaf_hash,
    moves_hash,
    node_hash,
    parse_checkpoint,
    parse_leaf,
    verify_consistency,
)
from scoundrel.deal import is_valid_seed
from store.log import NoteError, open_note, parse_verifier

Document = dict[str, Any]  # a leaf's, a run's or a board entry's JSON


@dataclass
class LogCopy:
    """The log as fetched (or exported): the verifier ``key``, every signed checkpoint, the leaves as served
    (``index``, ``leaf``, ``leaf_hash``), the consistency proof of each checkpoint with the last (by the
    smaller size), each run's JSON the replay needs, each rebuilt board's live entries by its path, and the
    service's current season (its boards are rebuilt; a past one's are frozen)."""

    key: str
    checkpoints: list[str]
    entries: list[Document]
    consistency: dict[str, list[str]] = field(default_factory=dict)
    runs: dict[str, Document] = field(default_factory=dict)
    boards: dict[str, list[Document]] = field(default_factory=dict)
    season: str = ""

    def to_json(self) -> Document:
        return {"key": self.key, "checkpoints": self.checkpoints, "entries": self.entries,
                "consistency": self.consistency, "runs": self.runs, "boards": self.boards, "season": self.season}

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> "LogCopy":
        return cls(document["key"], list(document["checkpoints"]), list(document["entries"]),
                   dict(document.get("consistency", {})), dict(document.get("runs", {})),
                   dict(document.get("boards", {})), str(document.get("season", "")))


@dataclass
class LogState:
    """What the log's leaves add up to: each run's latest leaf, the players (pseudonyms) whose places are
    withheld, those erased (their ``erase`` leaf's index, and whether their places were withheld then), the
    seeds revealed by their commitment (and the seals' reveal index), and the leaves that did not read."""

    runs: dict[str, Document] = field(default_factory=dict)
    withheld: set[str] = field(default_factory=set)
    erased: dict[str, tuple[int, bool]] = field(default_factory=dict)
    seeds: dict[str, str] = field(default_factory=dict)
    sealed_closed: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def seed_of(self, leaf: Mapping[str, Any]) -> str | None:
        """A run leaf's seed if it is public: in the clear, or its commitment revealed."""
        seed = str(leaf["seed"])
        return self.seeds.get(seed.removeprefix(SEALED_SEED)) if seed.startswith(SEALED_SEED) else seed

    def counted(self, leaf: Mapping[str, Any]) -> bool:
        """A run the log ends verified, whose player's places the boards show."""
        return leaf["verdict"] == "verified" and leaf["player"] not in self.withheld | set(self.erased)


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


def read_log(copy: LogCopy) -> LogState:
    """The leaves, in order, added up (``LogState``)."""
    state = LogState()
    named: dict[str, bool] = {}  # whether a board name names a board: a few hundred names in ten thousand leaves
    for entry in copy.entries:
        try:
            leaf = parse_leaf(entry["leaf"])
        except ValueError:
            continue  # named by ``_check_leaves``
        kind = leaf.get("kind")
        if kind in RUN_KINDS:
            state.runs[leaf["run"]] = leaf
            for name in leaf.get("boards", ()):
                if name not in named:
                    named[name] = _board_named(name) is not None
                if not named[name]:
                    state.problems.append(f"leaf {leaf['index']}: names a board no kind has, {name!r}")
        elif kind == WITHHOLD:
            state.withheld.add(leaf["player"])
        elif kind == SHOW:
            state.withheld.discard(leaf["player"])
        elif kind == ERASE:
            state.erased[leaf["player"]] = (leaf["index"], leaf["player"] in state.withheld)
            state.withheld.discard(leaf["player"])
        elif kind == REVEAL:
            if commitment(leaf["seed"]) != leaf["commitment"]:
                state.problems.append(f"leaf {leaf['index']}: the seed it reveals is not the one its commitment "
                                      "stands for")
                continue
            state.seeds[leaf["commitment"]] = leaf["seed"]
            state.sealed_closed.setdefault(leaf["seal"], leaf["index"])
        else:
            state.problems.append(f"leaf {leaf.get('index')}: a kind the log does not have, {kind!r}")
    return state


def replayable(leaf: Mapping[str, Any], state: LogState) -> bool:
    """A run the log ends verified, on a seed the log shows, of a player not erased (whose runs are gone)."""
    return leaf["verdict"] == "verified" and state.seed_of(leaf) is not None and leaf["player"] not in state.erased


def audit(copy: LogCopy, state: LogState | None = None) -> list[str]:
    """Every problem found, as a sentence each; empty when the log, the runs and the boards agree. ``state``:
    the copy's ``read_log``, for a caller that has read it already (a fifth of a second of CPU for 10,000 leaves)."""
    problems: list[str] = []
    problems += _check_leaves(copy)
    problems += _check_checkpoints(copy)
    if state is None:
        state = read_log(copy)
    problems += state.problems
    problems += _check_runs(copy, state)
    problems += _check_boards(copy, state)
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


def _check_runs(copy: LogCopy, state: LogState) -> list[str]:
    problems = []
    for run_id, leaf in sorted(state.runs.items()):
        if not replayable(leaf, state):
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
        seed = state.seed_of(leaf) or ""
        if not is_valid_seed(seed):
            problems.append(f"run {run_id}: its seed in the log is not a seed")
            continue
        verdict = scoundrel.replay(seed, moves, leaf["variant"], forfeit=bool(run.get("forfeit")))
        if (verdict.status, verdict.score) != (leaf["verdict"], leaf["score"]):
            problems.append(f"run {run_id}: the engine replays it {verdict.status} {verdict.score}, the log says "
                            f"{leaf['verdict']} {leaf['score']}")
    return problems


Place = tuple[int, int]  # a rebuilt place: a best or first board's score, or a ladder's (sum, games)


def logged_boards(state: LogState) -> dict[str, BoardId]:
    """Every board a run in the log counts on once verified, by its API path: the boards to compare."""
    boards = {}
    for name in dict.fromkeys(name for leaf in state.runs.values() for name in leaf.get("boards", ())):
        if (board := _board_named(name)) is not None:  # else named by ``read_log``
            boards[board.api] = board
    return boards


def _board_named(name: str) -> BoardId | None:
    try:
        return board_named(name)
    except ValueError:
        return None


def skipped_boards(copy: LogCopy, state: LogState) -> dict[str, str]:
    """The boards ``scoundrel log verify`` does not rebuild, by path, each with why."""
    return {path: f"a board of season {board.closer}, frozen at the season's close, which the log does not record"
            for path, board in logged_boards(state).items() if board.closer is not None and board.closer != copy.season}


def _counted_runs(state: LogState) -> dict[str, list[Document]]:
    """Each board's counted runs (``LogState.counted``), by the board's name."""
    counted: dict[str, list[Document]] = {}
    for leaf in state.runs.values():
        if state.counted(leaf):
            for name in leaf.get("boards", ()):
                counted.setdefault(name, []).append(leaf)
    return counted


def _places(order: Order, runs: Iterable[Document]) -> dict[str, Place]:
    """A best, first or latest board's places rebuilt from its counted runs, by player."""
    by_player: dict[str, list[Document]] = {}
    for leaf in runs:
        by_player.setdefault(leaf["player"], []).append(leaf)
    places = {}
    for player, played in by_player.items():
        if order is Order.BEST:
            places[player] = (max(leaf["score"] for leaf in played), 1)
        elif order is Order.FIRST:
            places[player] = (min(played, key=lambda leaf: (leaf["submitted"], leaf["index"]))["score"], 1)
        elif len(played) >= LADDER_GAMES:  # the ladder's window: the latest by submission, then run id
            window = sorted(played, key=lambda leaf: (leaf["submitted"], leaf["run"]))[-LADDER_GAMES:]
            places[player] = (sum(leaf["score"] for leaf in window), len(played))
    return places


def rebuilt_boards(state: LogState, boards: Mapping[str, BoardId]) -> dict[str, dict[str, Place]]:
    """Each of ``boards`` (by path) rebuilt from the log: each player's (pseudonym's) place."""
    counted = _counted_runs(state)
    rebuilt: dict[str, dict[str, Place]] = {}
    for path, board in boards.items():
        if board.board.order is Order.SUM:
            sums: dict[str, Place] = {}
            for deal in deal_boards(board):
                for player, (score, _) in _places(Order.BEST, counted.get(deal.name, ())).items():
                    sums[player] = (sums.get(player, (0, 1))[0] + score, 1)
            rebuilt[path] = sums
        else:
            rebuilt[path] = _places(board.board.order, counted.get(board.name, ()))
    return rebuilt


def kept_places(state: LogState, boards: Mapping[str, BoardId]) -> dict[str, list[int]]:
    """The scores an erasure left on a closed day's sealed board under a runless pseudonym
    (``store.privacy.erasure``): the erased player's place there, if the day's seed was revealed (its day
    closed) before the erasure and their places were not withheld then. By path."""
    kept: dict[str, list[int]] = {}
    for path, board in boards.items():
        if board.board is not SEALED_BOARD:
            continue
        closed = state.sealed_closed.get(daily_seal(board.parts[0]))
        runs = [leaf for leaf in state.runs.values() if board.name in leaf.get("boards", ())
                and leaf["verdict"] == "verified" and leaf["player"] in state.erased]
        players = {leaf["player"] for leaf in runs
                   if closed is not None and closed < state.erased[leaf["player"]][0]
                   and not state.erased[leaf["player"]][1]}
        for player in sorted(players):
            kept.setdefault(path, []).append(_places(Order.FIRST, [leaf for leaf in runs
                                                                   if leaf["player"] == player])[player][0])
    return kept


def _live_place(board: BoardId, entry: Mapping[str, Any]) -> Place | None:
    if board.board.order is Order.LATEST:
        mean = entry.get("mean")
        return None if mean is None else (round(mean * LADDER_GAMES), int(entry.get("games") or 0))
    return None if entry.get("score") is None else (int(entry["score"]), 1)


def _check_boards(copy: LogCopy, state: LogState) -> list[str]:
    problems = []
    boards = logged_boards(state)
    skipped = skipped_boards(copy, state)
    compared = {path: board for path, board in boards.items() if path not in skipped}
    rebuilt = rebuilt_boards(state, compared)
    kept = kept_places(state, compared)
    for path, board in sorted(compared.items()):
        expected = rebuilt[path]
        live: dict[str, Place | None] = {}
        runless = []
        for entry in copy.boards.get(path, []):
            if entry.get("run_id") is None:
                runless.append(entry.get("score"))
                continue
            leaf = state.runs.get(entry["run_id"])
            if leaf is None:
                problems.append(f"{path}: {entry.get('player')}'s place (run {entry['run_id']}) is not in the log")
                continue
            live[leaf["player"]] = _live_place(board, entry)
        for player in sorted(set(expected) | set(live)):
            if expected.get(player) != live.get(player):
                problems.append(f"{path}: player {player} has {_shown(board, live.get(player))} on the live board, "
                                f"{_shown(board, expected.get(player))} by the log")
        if sorted(runless, key=str) != sorted(kept.get(path, []), key=str):
            problems.append(f"{path}: erased players' places kept with scores {sorted(runless, key=str)}, by the "
                            f"log {sorted(kept.get(path, []))}")
    return problems


def _shown(board: BoardId, place: Place | None) -> str:
    if place is None:
        return "no place"
    if board.board.order is Order.LATEST:
        return f"mean {place[0] / LADDER_GAMES:.2f} over {place[1]} games"
    return f"score {place[0]}"
