"""Board places exactly once, in steps of one shard each: a verdict's places, and a player's recomputed places.

A run's keys are in its shard, its player's run list in the player's, each
board in its own (``store.shards``), and a script touches one shard. So the
places a verdict, a void, a restore or a re-verification moves are written
by steps, each one script of one shard, idempotent, in this order.

A verdict (``store.runs.record_verdicts``):

1. The verdict step (the run's shard, ``lua/record_verdict.lua``): the
   verdict, its audit entry and counts, its run.verified event, and, for a
   verified run, the note that its places are owed: the run joins its
   shard's runs being placed (``keys.placing``).
2. A board step per board the run counts on (the board's shard,
   ``lua/place_run.lua``): the run offered its place there, the board's
   events (record.beaten) in that shard's outbox, and the run noted among
   the board's placed runs (``keys.board_placed``): offered again, it
   changes nothing and records no second event.
3. Once every board holds it, the run leaves the runs being placed, then a
   step per board ends its note there (``lua/unmark_placed.lua``). A crash
   between the two leaves a note no step reads again (a run no longer
   being placed is never offered again): a few bytes, never a wrong place.

A void, a restore, a re-verification (the run's shard first: the change,
its audit entry, and the run joins its shard's runs to recompute,
``keys.replacing``), then a recompute (``recompute_places``): the player's
runs are read in Python (a pipeline: Redis, then the archive), and each of
the run's boards gets the player's place from them by one script in its
shard (``lua/place_player.lua``); then the run leaves the runs to recompute.

Why the two never disagree with the runs: every board keeps, per player, a
version (``keys.board_versions``, ``lua/_fence.lua``): a fence and a count of
offers. A step reads the version first, then the runs it places, and
writes only if the version still holds (else it answers 'moved' and reads
both again). A recompute moves the fence and holds only while neither the
fence nor the offers moved: it never overwrites a place that a verdict or a
void changed after it read the runs. An offer counts itself and holds while
the fence has not moved: it never puts back a run voided after it read it
(the void's recompute moved the fence), and offers of one player's runs,
which commute, never refuse each other, however many are placed side by
side. A recompute that counts a run still being placed notes it among the
board's placed runs, so the run's own board step, coming after, finds it
held and changes nothing (a ladder counts each game once). Ending a run's
note moves the fence too, so a late driver of the same run (a sweeper that
read it before) is refused.

Crashes: after the verdict step, the run is among the runs being placed;
after a status change, among the runs to recompute: ``finish_placements``
(the workers' periodic pass, ``worker.runner``) drives every run there
longer than a grace period through its remaining steps, which are safe to
run again and alongside a live driver. Until then a board may lack the run
(or show a voided one): ``scoundrel check`` run after a sweep finds them
consistent. A best or first board's offers commute (each keeps the better
run), so the board steps of several runs may come in any order; a ladder's
offer adds a game, which the placed runs keep from being added twice.
"""

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.boards import boards_of
from domain.run import Run

from . import keys, scripts, shards
from .board_cooling import hot_boards
from .database import Database
from .due import due_by_shard
from .pending import pending_count
from .placements import Placement, load_board_runs, placements
from .replication import replicated
from .run_records import BOARD_FIELDS, run_from_stored
from .runs import now_ms

VERIFIED = "verified"


def _versions(db: Database, wanted: list[tuple[Placement, str]]) -> list[str]:
    """Each (board, player)'s version as it stands ('' for none), in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for board, player in wanted:
            pipe.hget(board.versions, player)
        return [version or "" for version in pipe.execute()]


def _read_runs(db: Database, run_ids: list[str]) -> tuple[list[Run | None], list[bool]]:
    """Each run as the boards see it (None: not stored), and whether it is among its shard's runs
    being placed, in one round trip."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.hmget(keys.run(run_id), *BOARD_FIELDS)
            pipe.zscore(keys.placing(shards.of_id(run_id)), run_id)
        replies = pipe.execute()
    runs = [run_from_stored(run_id, dict(zip(BOARD_FIELDS, values, strict=True))) if any(values) else None
            for run_id, values in zip(run_ids, replies[::2], strict=True)]
    return runs, [score is not None for score in replies[1::2]]


def place_runs(db: Database, runs: Iterable[Run]) -> None:
    """Drive each run being placed through its board steps (``place_run``), then end its placing:
    the worker right after the verdicts, the sweeper for those left. ``runs`` say which boards
    (their fields that name boards never change); each is read again after the versions. Safe to
    run twice, or beside another driver of the same runs."""
    runs = list({run.id: run for run in runs}.values())
    steps = [(run, index, board) for run in runs for index, board in enumerate(placements(run), 1)]
    at_ms = now_ms()
    while steps:
        versions = _versions(db, [(board, run.player) for run, _, board in steps])
        ids = list(dict.fromkeys(run.id for run, _, _ in steps))
        read, being_placed = _read_runs(db, ids)
        current = {run_id: run for run_id, run, placed in zip(ids, read, being_placed, strict=True)
                   if run is not None and placed and run.status == VERIFIED}
        todo = [(step, version) for step, version in zip(steps, versions, strict=True) if step[0].id in current]
        answers = _board_steps(db, [(board, functools.partial(
            scripts.place_run, board=board, version=version, run=current[run.id], index=index, at_ms=at_ms))
            for (run, index, board), version in todo])
        steps = [step for (step, _), answer in zip(todo, answers, strict=True) if answer == scripts.MOVED]
    if not runs:
        return
    with db.redis.pipeline(transaction=False) as pipe:
        for run in runs:
            pipe.zrem(keys.placing(shards.of_id(run.id)), run.id)
        pipe.execute()
    with db.redis.pipeline(transaction=False) as pipe:
        for run in runs:
            for board in placements(run):
                scripts.unmark_placed(pipe, board=board, player=run.player, run_id=run.id)
        pipe.execute()


def _archived_runs(db: Database, player: str, hot: list[str]) -> list[Run]:
    """The player's verified runs in the archive and not in Redis (``hot``: a run in both, a move
    interrupted, is Redis's). Read after their run list: a run archived in between is in one of the two."""
    hot_ids = set(hot)
    return [run for fields in db.archive.player_runs(player)
            if fields["id"] not in hot_ids and (run := run_from_stored(fields["id"], fields)).status == VERIFIED]


def recompute_places(db: Database, run: Run) -> None:
    """Set the player's place on each board ``run`` counts on from all their verified runs, Redis's and
    the archive's (``place_player``), reading again for each board whose version moved meanwhile.
    The caller brings the boards back from the archive first (``board_cooling.hot_boards``)."""
    boards = placements(run)
    while boards:
        versions = _versions(db, [(board, run.player) for board in boards])
        run_ids = [str(run_id) for run_id in db.redis.zrange(keys.player_runs(run.player), 0, -1)]
        read, placed = _read_runs(db, run_ids)
        hot = [stored for stored in read if stored is not None]
        being_placed = {stored.id for stored, held in zip(read, placed, strict=True) if stored is not None and held}
        archived = _archived_runs(db, run.player, run_ids)
        if db.redis.zcard(keys.player_runs(run.player)) != len(run_ids):
            continue  # a run came or went meanwhile: read again
        verified = [stored for stored in hot if stored.status == VERIFIED] + archived
        steps = []
        for board, version in zip(boards, versions, strict=True):
            on_board = [stored for stored in verified if board.board in boards_of(stored)]
            steps.append((board, functools.partial(
                scripts.place_player, board=board, player=run.player, version=version, runs=on_board,
                being_placed=[stored.id for stored in on_board if stored.id in being_placed])))
        answers = _board_steps(db, steps)
        boards = [board for board, answer in zip(boards, answers, strict=True) if answer == scripts.MOVED]


def _board_steps(db: Database, steps: Sequence[tuple[Placement, Callable[[Any], Any]]]) -> list:
    """Each board step's answer (a function of a client, for its board), in one round trip. With
    ``SCOUNDREL_WAIT_REPLICAS``, answered once that many replicas of each board's master hold it
    (``store.replication``), so the note a step ends is never taken off before its board step is
    kept: a master lost just after cannot take the step with it."""
    if not steps:
        return []
    if db.wait_replicas:
        return replicated(db, [(board.keys[0], step) for board, step in steps])
    with db.redis.pipeline(transaction=False) as pipe:
        for _, step in steps:
            step(pipe)
        return pipe.execute()


def _noted(db: Database, run_ids: list[str]) -> list[str | None]:
    """When each run was noted among its shard's runs to recompute, as stored (None: it is not)."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.zscore(keys.replacing(shards.of_id(run_id)), run_id)
        return [None if score is None else _stored_score(score) for score in pipe.execute()]


def _stored_score(score: float) -> str:
    """A sorted set's score as Lua reads it back (ZSCORE's text): whole ms have no decimals."""
    return str(int(score)) if float(score).is_integer() else repr(score)


def _end_recomputes(db: Database, run_ids: list[str], noted: list[str | None]) -> None:
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id, when in zip(run_ids, noted, strict=True):
            if when is not None:
                scripts.end_recompute(pipe, run_id=run_id, noted=when)
        pipe.execute()


def recomputed(db: Database, run: Run) -> None:
    """Recompute the player's places on ``run``'s boards, then take the run off its shard's runs to
    recompute (unless a later change noted it again): the last steps of a void, a restore or a
    re-verification."""
    noted = _noted(db, [run.id])
    recompute_places(db, run)
    _end_recomputes(db, [run.id], noted)


def finish_placements(db: Database, grace_seconds: float = 0) -> int:
    """The sweeper's part (``worker.runner``): finish every run left among the runs being placed or to
    recompute for more than ``grace_seconds``; how many runs it finished. A run in both is placed first."""
    cutoff = now_ms() - int(grace_seconds * 1000)
    placing, replacing = due_by_shard(db, keys.placing, cutoff), due_by_shard(db, keys.replacing, cutoff)
    for shard, run_ids in placing.items():
        placed = load_board_runs(db, run_ids)
        place_runs(db, [run for run in placed if run is not None])
        with db.redis.pipeline(transaction=False) as pipe:  # a run gone meanwhile (forgotten) leaves too
            for run_id, run in zip(run_ids, placed, strict=True):
                if run is None:
                    pipe.zrem(keys.placing(shard), run_id)
            pipe.execute()
    for run_ids in replacing.values():
        noted = _noted(db, run_ids)
        for run in load_board_runs(db, run_ids):
            if run is not None:
                with hot_boards(db, boards_of(run)):
                    recompute_places(db, run)
        _end_recomputes(db, run_ids, noted)
    return sum(len(run_ids) for run_ids in [*placing.values(), *replacing.values()])


def settled(db: Database) -> bool:
    """Whether every run has its verdict and every verdict its board places: none pending, none in
    flight. A run leaves the pending runs at its verdict step, before its board steps."""
    return not pending_count(db.redis) and not in_flight(db)


def in_flight(db: Database) -> set[str]:
    """The runs whose board steps are still owed (being placed, or to recompute): until they are done
    (or ``finish_placements`` has run), their boards may lack them or still show them."""
    with db.redis.pipeline(transaction=False) as pipe:
        for shard in keys.distinct_shards():
            pipe.zrange(keys.placing(shard), 0, -1)
            pipe.zrange(keys.replacing(shard), 0, -1)
        return {run_id for ids in pipe.execute() for run_id in ids}
