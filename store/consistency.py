"""``scoundrel check``: do the boards agree with the runs they were built from?

The boards are updated one verdict at a time; this recomputes them from
scratch out of the stored runs and lists every difference, and every run
pending for too long. An empty list means all is well.

Every run lives in exactly one place, Redis or the archive, and every
board place names a run in Redis (a run holding a place is never
archived). A run found in both is a move interrupted by a crash, which the
next retention pass finishes; it is reported all the same.

- A variant board holds, per player, their best verified run: the higher
  score, at equal scores the earlier submission.
- A daily board holds, per player, their first-submitted verified run on
  that day's seed, whatever its score.
"""

from collections import defaultdict

from . import keys
from .database import Database
from .packing import pack
from .runs import load_runs, now_ms

SCAN_BATCH = 1000


def _scan(db: Database, pattern: str) -> list[str]:
    return list(db.redis.scan_iter(match=pattern, count=SCAN_BATCH))


def stored_runs(db: Database) -> list[dict]:
    """Every stored run's fields."""
    run_ids = db.redis.zrange(keys.runs(), 0, -1)
    runs = []
    for start in range(0, len(run_ids), SCAN_BATCH):
        runs.extend(fields for fields in load_runs(db, run_ids[start:start + SCAN_BATCH]) if fields and fields.get("id"))
    return runs


def expected_boards(runs: list[dict]) -> dict[str, dict[str, tuple[int, str]]]:
    """Board key → player → (packed rank key, run id), recomputed from the runs."""
    boards: dict[str, dict[str, tuple[int, str]]] = defaultdict(dict)
    for run in sorted(runs, key=lambda run: (int(run["submitted_ms"]), run["id"])):
        if run["status"] != "verified":
            continue
        player, packed = run["player"], pack(int(run["score"]), int(run["submitted_ms"]))
        board = boards[keys.board(run["variant"])]
        if player not in board or packed > board[player][0]:
            board[player] = (packed, run["id"])
        if run.get("daily"):
            boards[keys.daily_board(run["daily"])].setdefault(player, (packed, run["id"]))
    return boards


def _runs_key(board_key: str) -> str:
    if board_key.startswith(keys.daily_board("")):
        return keys.daily_runs(board_key.removeprefix(keys.daily_board("")))
    return keys.board_runs(board_key.removeprefix(keys.board("")))


def _board_problems(db: Database, board_key: str, expected: dict[str, tuple[int, str]],
                    runs_by_id: dict[str, dict]) -> list[str]:
    places = {player: int(float(packed)) for player, packed in db.redis.zrange(board_key, 0, -1, withscores=True)}
    holders = db.redis.hgetall(_runs_key(board_key))
    problems = []
    for player in sorted(set(places) | set(expected)):
        want, have = expected.get(player), places.get(player)
        if want is None:
            problems.append(f"{board_key}: {player} is on the board but has no verified run that belongs there")
        elif have is None:
            problems.append(f"{board_key}: {player} is missing (run {want[1]})")
        elif have != want[0]:
            problems.append(f"{board_key}: {player} holds rank key {have}, the runs give {want[0]} (run {want[1]})")
        else:
            holder = runs_by_id.get(holders.get(player, ""))
            # at an exact tie (same score, same millisecond) either run is a right answer
            if holder is None or pack(int(holder.get("score") or 0), int(holder["submitted_ms"])) != want[0]:
                problems.append(f"{board_key}: {player}'s place names run {holders.get(player)!r}, "
                                f"expected {want[1]}")
    return problems


def _placement_problems(db: Database, runs: list[dict]) -> list[str]:
    """Runs in both Redis and the archive, and index entries naming a run in neither."""
    hot = {run["id"] for run in runs}
    indexed = set(db.redis.zrange(keys.runs(), 0, -1))
    archived: set[str] = set()
    for batch in db.archive.run_ids():
        archived.update(batch)
    problems = [f"run {run_id} is both in Redis and in the archive (an interrupted move; "
                f"the next `scoundrel archive` finishes it)" for run_id in sorted(hot & archived)]
    problems += [f"run {run_id} is in the index of runs but neither in Redis nor in the archive"
                 for run_id in sorted(indexed - hot - archived)]
    return problems


def _archived_holders(db: Database, board_keys: set[str], hot: set[str]) -> list[str]:
    """Board places naming a run that is not in Redis (archived, or gone)."""
    problems = []
    for board_key in sorted(board_keys):
        for player, run_id in sorted(db.redis.hgetall(_runs_key(board_key)).items()):
            if run_id not in hot:
                where = "archived" if db.archive.load([run_id]) else "in neither Redis nor the archive"
                problems.append(f"{board_key}: {player}'s place names run {run_id}, which is {where}")
    return problems


def check(db: Database, pending_limit_seconds: float) -> list[str]:
    """Every inconsistency found, as a sentence; empty when the boards match the runs."""
    runs = stored_runs(db)
    runs_by_id = {run["id"]: run for run in runs}
    expected = expected_boards(runs)
    board_keys = set(expected) | set(_scan(db, keys.board_pattern())) | set(_scan(db, keys.daily_board_pattern()))
    problems = _placement_problems(db, runs) + _archived_holders(db, board_keys, set(runs_by_id))
    for board_key in sorted(board_keys):
        problems.extend(_board_problems(db, board_key, expected.get(board_key, {}), runs_by_id))
    cutoff = now_ms() - int(pending_limit_seconds * 1000)
    indexed = {run_id for run_id in db.redis.zrange(keys.pending_runs(), 0, -1)}
    for run in runs:
        if run["status"] != "pending":
            continue
        if int(run["submitted_ms"]) < cutoff:
            problems.append(f"run {run['id']} has been pending since {run['submitted_ms']} ms "
                            f"(more than {pending_limit_seconds:g} s)")
        if run["id"] not in indexed:
            problems.append(f"run {run['id']} is pending but not in the pending index: nothing will re-queue it")
    return problems
