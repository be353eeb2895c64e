"""``scoundrel check``: do the boards agree with the runs they were built from?

The boards are updated one verdict at a time; this recomputes them from
scratch out of the stored runs and lists every difference, and every run
pending for too long. An empty list means all is well. Only verified runs
count (a void run is not verified), each on the boards the registry says it
counts on (``domain.boards``), ranked by the board's order:

- best: each player's best run there, the higher score, at equal scores
  the earlier submission (the open, seed and dealt boards);
- first: each player's first-submitted run, whatever its score (the daily
  and sealed boards);
- latest (the ladder): the player's last ``LADDER_GAMES`` games by
  submission time (then run id), their count, and for players with that
  many the ladder key of their sum. The count is of every game, the
  archived ones too: a game out of the window holds no place, so it may
  leave Redis, and it still counts.

Every run lives in exactly one place, Redis or the archive, and every
board place names a run in Redis (a run holding a place is never
archived). A run found in both is a move interrupted by a crash, which the
next retention pass finishes; it is reported all the same.
"""

from collections import defaultdict

from domain.boards import BOARDS, LADDER, BoardId, Order, boards_of
from domain.run import DEALT, Run

from . import keys, scripts
from .boards import Board, ranking
from .database import Database
from .packing import LADDER_GAMES, pack, pack_ladder
from .run_index import stored_run_ids
from .runs import load_runs, now_ms

SCAN_BATCH = 1000

# Board → player → (packed rank key, run id) of the place the runs give.
Places = dict[Board, dict[str, tuple[int, str]]]


def _scan(db: Database, pattern: str) -> list[str]:
    return list(db.redis.scan_iter(match=pattern, count=SCAN_BATCH))


def stored_runs(db: Database) -> list[dict]:
    """Every stored run's fields."""
    run_ids = stored_run_ids(db)
    runs: list[dict] = []
    for start in range(0, len(run_ids), SCAN_BATCH):
        batch = load_runs(db, run_ids[start:start + SCAN_BATCH])
        runs.extend(fields for fields in batch if fields and fields.get("id"))
    return runs


def _in_order(runs: list[dict]) -> list[dict]:
    """The verified runs, oldest submission first (then by id)."""
    verified = [run for run in runs if run["status"] == "verified"]
    return sorted(verified, key=lambda run: (int(run["submitted_ms"]), run["id"]))


def expected_boards(runs: list[dict]) -> Places:
    """Every best and first board's places, recomputed from the runs."""
    boards: Places = defaultdict(dict)
    for run in _in_order(runs):
        mine = Run.from_stored(run["id"], run)
        packed = pack(int(run["score"]), mine.submitted_ms)
        for board in boards_of(mine):
            order = board.board.order
            if order is Order.LATEST:
                continue  # ``expected_ladders``
            places = boards[ranking(board)]
            if order is Order.FIRST:
                places.setdefault(mine.player, (packed, mine.id))
            elif mine.player not in places or packed > places[mine.player][0]:
                places[mine.player] = (packed, mine.id)
    return boards


def on_ladder(run: dict) -> bool:
    """Whether a run, once verified, counts on its variant's ladder."""
    return LADDER.counts(Run.from_stored(run["id"], run))


def expected_ladders(runs: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """(variant, player) → the player's verified games on the variant's ladder, oldest first."""
    games: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for run in _in_order(runs):
        if on_ladder(run):
            games[run["variant"], run["player"]].append(run)
    return games


def stored_boards(db: Database) -> set[Board]:
    """Every best and first board Redis holds places of (as a SCAN finds them)."""
    found = set()
    for board in BOARDS:
        if board.order is Order.LATEST:
            continue
        prefix = keys.board_places(board.kind, ("",))  # the parts follow it, ':' between
        for places_key in _scan(db, keys.board_places(board.kind, ("*",) * len(board.key))):
            parts = tuple(places_key.removeprefix(prefix).split(":", len(board.key) - 1))
            found.add(ranking(BoardId(board, parts)))
    return found


def _board_problems(db: Database, board: Board, expected: dict[str, tuple[int, str]],
                    runs_by_id: dict[str, dict]) -> list[str]:
    places = {player: int(float(packed)) for player, packed in db.redis.zrange(board.places, 0, -1, withscores=True)}
    holders = db.redis.hgetall(board.runs) if board.runs else {}
    problems = []
    for player in sorted(set(places) | set(expected)):
        want, have = expected.get(player), places.get(player)
        if want is None:
            problems.append(f"{board.places}: {player} is on the board but has no verified run that belongs there")
        elif have is None:
            problems.append(f"{board.places}: {player} is missing (run {want[1]})")
        elif have != want[0]:
            problems.append(f"{board.places}: {player} holds rank key {have}, the runs give {want[0]} (run {want[1]})")
        elif board.runs:  # a seed board names no run: its run is found by the place's time
            holder = runs_by_id.get(holders.get(player, ""))
            # at an exact tie (same score, same millisecond) either run is a right answer
            if holder is None or pack(int(holder.get("score") or 0), int(holder["submitted_ms"])) != want[0]:
                problems.append(f"{board.places}: {player}'s place names run {holders.get(player)!r}, "
                                f"expected {want[1]}")
    return problems


def _archived_ids(db: Database) -> set[str]:
    archived: set[str] = set()
    for batch in db.archive.run_ids():
        archived.update(batch)
    return archived


def archived_ladder_games(db: Database, runs: list[dict], archived: set[str]) -> dict[tuple[str, str], int]:
    """(variant, player) → their verified dealt games found in the archive and not in Redis (``runs``):
    a run in both, a move interrupted, counts once, as Redis's."""
    games = defaultdict(int, db.archive.verified_counts(DEALT))  # the ladder counts every dealt game
    for run_id, copy in db.archive.load(sorted(archived & {run["id"] for run in runs})).items():
        if copy.fields["status"] == "verified" and on_ladder({**copy.fields, "id": run_id}):
            games[copy.fields["variant"], copy.fields["player"]] -= 1
    return games


def _placement_problems(db: Database, runs: list[dict], archived: set[str]) -> list[str]:
    """Runs in both Redis and the archive, and index entries naming a run in neither."""
    hot = {run["id"] for run in runs}
    indexed = set(stored_run_ids(db))
    problems = [f"run {run_id} is both in Redis and in the archive (an interrupted move; "
                f"the next `scoundrel archive` finishes it)" for run_id in sorted(hot & archived)]
    problems += [f"run {run_id} is in its player's run list but neither in Redis nor in the archive"
                 for run_id in sorted(indexed - hot - archived)]
    return problems


def _archived_holders(db: Database, boards: set[Board], hot: set[str]) -> list[str]:
    """Board places naming a run that is not in Redis (archived, or gone)."""
    problems = []
    for board in sorted(boards, key=lambda board: board.places):
        for player, run_id in sorted(db.redis.hgetall(board.runs).items()) if board.runs else []:
            if run_id not in hot:
                where = "archived" if db.archive.load([run_id]) else "in neither Redis nor the archive"
                problems.append(f"{board.places}: {player}'s place names run {run_id}, which is {where}")
    return problems


def _variant_and_player(name: str) -> tuple[str, str]:
    variant, player = name.split(":", 1)
    return variant, player


def _ladder_problems(db: Database, ladders: dict[tuple[str, str], list[dict]],
                     archived_games: dict[tuple[str, str], int]) -> list[str]:
    """Each ladder window, games count and ladder place against the player's verified dealt games
    (``ladders`` in Redis, ``archived_games`` counted in the archive)."""
    problems = []
    windows = {_variant_and_player(key.removeprefix(keys.ladder_window("", "")[:-1]))
               for key in _scan(db, keys.ladder_window("*", "*"))}
    variants = {variant for variant, _ in [*ladders, *windows, *archived_games]}
    variants |= {key.removeprefix(keys.ladder("")) for key in _scan(db, keys.ladder("*"))}
    variants |= {key.removeprefix(keys.ladder_games("")) for key in _scan(db, keys.ladder_games("*"))}
    for variant in sorted(variants):
        ranked = {player: int(float(packed))
                  for player, packed in db.redis.zrange(keys.ladder(variant), 0, -1, withscores=True)}
        counts = db.redis.hgetall(keys.ladder_games(variant))
        players = {player for v, player in [*ladders, *windows, *archived_games] if v == variant}
        players |= set(ranked) | set(counts)
        for player in sorted(players):
            games = ladders.get((variant, player), [])
            latest = games[-LADDER_GAMES:]
            window = db.redis.zrange(keys.ladder_window(variant, player), 0, -1)
            want_window = [f"{run['id']}:{run['score']}" for run in latest]
            if window != want_window:
                problems.append(f"{keys.ladder_window(variant, player)} holds {window}, the runs give {want_window}")
            played = len(games) + archived_games.get((variant, player), 0)
            if int(counts.get(player, 0)) != played:
                problems.append(f"{keys.ladder_games(variant)}: {player} counts {counts.get(player, 0)} games, "
                                f"the runs give {played}")
            want = (pack_ladder(sum(int(run["score"]) for run in latest), int(latest[-1]["submitted_ms"]))
                    if len(latest) == LADDER_GAMES else None)
            if ranked.get(player) != want:
                problems.append(f"{keys.ladder(variant)}: {player} holds ladder key {ranked.get(player)}, "
                                f"the runs give {want}")
    return problems


def check(db: Database, pending_limit_seconds: float) -> list[str]:
    """Every inconsistency found, as a sentence; empty when the boards match the runs."""
    runs = stored_runs(db)
    runs_by_id = {run["id"]: run for run in runs}
    expected = expected_boards(runs)
    stored = stored_boards(db)
    archived = _archived_ids(db)
    problems = _placement_problems(db, runs, archived) + _archived_holders(db, set(expected) | stored, set(runs_by_id))
    for board in sorted(set(expected) | stored, key=lambda board: board.places):
        problems.extend(_board_problems(db, board, expected.get(board, {}), runs_by_id))
    problems.extend(_ladder_problems(db, expected_ladders(runs), archived_ladder_games(db, runs, archived)))
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


def place_on_seed_boards(db: Database) -> int:
    """Put every player on the seed board of each deal they have a verified open run on,
    as the verdict script does today: for runs verified before seed boards existed.
    Safe beside running workers (each player in one script); the places made."""
    prefix = keys.player_runs("")
    return sum(scripts.place_seed_boards(db, player=key.removeprefix(prefix))
               for key in _scan(db, keys.player_runs("*")))
