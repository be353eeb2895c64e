"""Rewriting a Redis of an older layout into the one the store reads (``scoundrel migrate``).

An older release kept a run's id as a field of its hash too, its moves as
one space-separated string (``moves``), its audit log in a stream of its
own (``keys.old_audit_stream``), empty fields, and an index of every run
(``keys.old_run_index``). Today a run's id is its key's last part, its
moves are one character each (``codes``, ``store.runs.move_codes``), its log is
its hash's ``log`` field (``store.runs.audit``), and ``keys.run_players`` with
each player's run list say which runs Redis holds (``store.runs.index``).
An older release also kept players and moderators without the key naming
them under their lower-case spelling (``store.accounts.tokens``), and a flag saying
when they all had one, and seed boards without the hash naming each place's
run (``keys.board_holders``: its run was found from the player's runs, which
kept every run holding a place in Redis). This module is the one place that
knows the older layout; nothing else reads it.

An older release also kept the archived-runs filter's whole mark in a key
of its own (``keys.old_archived_filter_whole``), where today's filter has
a bit of its own for it, and put a single submission in the index of
pending runs as it accepted it, where today's puts it there as the
intake's take gives it a job (``store.queue.intake``), and kept every ban
in one hash (``keys.old_bans``), where today's keeps each in a key of its
player's (``keys.ban``, read with the token by a submission's script)
listed by its end (``keys.banned``), and kept a seed board in its two keys
with no field in ``keys.sole_places`` saying so, where today's verdict
reads the board's form from that field alone (``lua/_sole.lua``).

A run's id stays what it is: clients hold it. An open run whose id was
given at random, not derived from its player and game
(``store.runs.open_run_id``), keeps the key naming it under its game
(``keys.submission``), which today's duplicate check reads for such runs;
the rewrite writes it where it is missing.

The walk is a SCAN over the run keys, so it can be stopped and started
again: a rewritten run is in today's layout and is passed over. Each run is
rewritten by one script (``lua/migrate_run.lua``) that first checks the
run and its stream are as they were read, so a worker or the API changing
the run meanwhile (a verdict, a dispute) is never overwritten: the run is
read again and rewritten with the change. The index of every run goes last,
once each player's place in ``keys.run_players`` is written. A spelling is
claimed only where none is (as registering does), earliest registration
first: of two older holders differing only in case, the earlier holds it.

The previous release also left the keys of its steps (``old_layouts``):
runs whose board places were still owed, each board's fences, a few marks.
Each run owed its places gets them as a restore gives them: the player's
places on the run's boards recomputed from all their runs, and the run
taken off the lists, in one script (``scripts.finish_places``), safe beside
the workers and the API. Once no run is owed anything, the fences and marks
are deleted: today's store never reads them.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass

from redis.exceptions import WatchError

from domain.boards import BOARDS, SEED_BOARD, boards_of
from domain.game import PLAYING
from domain.sanctions import Sanction
from store.accounts.moderators import MODERATORS
from store.accounts.players import PLAYERS
from store.accounts.tokens import Holders
from store.base import keys
from store.base.database import Database
from store.base.packing import iso_time
from store.boards.cooling import hot_boards, redis_boards, redis_places
from store.boards.placements import board_keys
from store.games.dealt import dealt, load_game
from store.operations import old_layouts, scripts
from store.queue.intake import entry_parts
from store.runs import move_codes
from store.runs.accepting import Submission, accept_runs, fingerprint, open_run_id
from store.runs.archived_filter import WHOLE
from store.runs.audit import decode_log, encode_log
from store.runs.origins import DEALT
from store.runs.records import load_board_runs, run_from_stored

BATCH = 500  # run keys a SCAN step asks for, read and rewritten together
REREADS = 10  # times a run changed meanwhile is read again before the pass leaves it to the next
_MARKS = ("id", "moves")  # the fields only a run of an older layout has (and its stream)
# each kind of token holder, with the flag an older release set once each had its spelling
_NAMES = ((PLAYERS, keys.old_player_names_indexed()), (MODERATORS, keys.old_moderator_names_indexed()))


@dataclass
class Tally:
    """Runs looked at, and of them those of an older layout, per way they differ from today's."""

    examined: int = 0
    old: int = 0  # runs with any of the three below
    id_fields: int = 0  # their id kept as a field too
    spelt_moves: int = 0  # their moves spelt out in one string
    audit_streams: int = 0  # their audit log in a stream
    run_index: bool = False  # the index of every run is there
    unspelt_names: int = 0  # players and moderators whose lower-case spelling names nobody
    name_flags: int = 0  # flags saying every holder's spelling was written
    unnamed_places: int = 0  # seed board places whose run is not named (``keys.board_holders``)
    lone_boards: int = 0  # boards kept as their sole place (``keys.sole_places``) held in their two keys
    unmarked_boards: int = 0  # boards of a kind kept so, in their two keys, with no field saying so
    owed_places: int = 0  # runs whose board places the older layout's steps still owed
    owed_runs: int = 0  # ended dealt games whose run those steps had still to accept (``old_layouts.games_ending``)
    board_versions: int = 0  # the boards' version hashes of those steps
    placed_sets: int = 0  # the boards' sets of runs being placed
    step_marks: int = 0  # the other keys of those steps (``old_layouts.step_marks``)
    gone_waiting: int = 0  # ids in the intake of runs gone from Redis (erased while they waited)
    indexed_waiting: int = 0  # runs waiting in the intake and in the index of pending runs too
    hashed_bans: int = 0  # bans kept in the older layout's hash of bans
    filter_marks: int = 0  # the archived-runs filter's whole mark kept in a key of its own
    changed: int = 0  # runs changing under every reread: left for the next pass

    @property
    def anything(self) -> bool:
        """Whether anything of an older layout was found."""
        return bool(self.old or self.run_index or self.unspelt_names or self.name_flags or self.unnamed_places
                    or self.lone_boards or self.unmarked_boards or self.owed_places or self.owed_runs
                    or self.board_versions or self.placed_sets or self.step_marks or self.gone_waiting
                    or self.indexed_waiting or self.hashed_bans or self.filter_marks)

    def kinds(self) -> str:
        """What was found, per kind: ``3 with an id field, 2 with their moves spelt out, …``."""
        parts = [f"{count} {what}" for count, what in (
            (self.id_fields, "with an id field"), (self.spelt_moves, "with their moves spelt out"),
            (self.audit_streams, "with an audit stream")) if count]
        return ", ".join(parts)


def _is_old(marks: list, stream_length: int) -> bool:
    return any(mark is not None for mark in marks) or stream_length > 0


def _count(tally: Tally, marks: list, stream_length: int) -> None:
    run_id, moves = marks
    tally.old += 1
    tally.id_fields += run_id is not None
    tally.spelt_moves += moves is not None
    tally.audit_streams += stream_length > 0


def _run_ids(batch_keys: list[str]) -> list[str]:
    prefix = keys.run("")
    return [key.removeprefix(prefix) for key in batch_keys]


def run_count(db: Database) -> int:
    """About how many runs Redis holds (for a progress bar): the index of every run's size where it is
    still there, else the sum of the players' run lists."""
    if db.redis.exists(keys.old_run_index()):
        return db.redis.zcard(keys.old_run_index())
    with db.redis.pipeline(transaction=False) as pipe:
        for player in db.redis.zrange(keys.run_players(), 0, -1):
            pipe.zcard(keys.player_runs(player))
        return sum(pipe.execute())


def migrate(db: Database, *, apply: bool, batch: int = BATCH,
            progress: Callable[[int], object] | None = None) -> Tally:
    """Find (``apply`` False: change nothing) or rewrite every run and key of an older layout.

    ``progress`` is told how many run keys each SCAN step looked at.
    """
    tally = Tally(run_index=bool(db.redis.exists(keys.old_run_index())))
    cursor = 0
    while True:
        cursor, batch_keys = db.redis.scan(cursor, match=keys.run("*"), count=batch)
        run_ids = _run_ids(batch_keys)
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id in run_ids:
                pipe.hmget(keys.run(run_id), *_MARKS)
                pipe.xlen(keys.old_audit_stream(run_id))
            replies = pipe.execute()
        old = []
        for run_id, marks, stream_length in zip(run_ids, replies[::2], replies[1::2], strict=True):
            tally.examined += 1
            if _is_old(marks, stream_length):
                _count(tally, marks, stream_length)
                old.append(run_id)
        if apply and old:
            _rewrite(db, old, tally)
        if progress is not None:
            progress(len(run_ids))
        if cursor == 0:
            break
    if apply and tally.run_index:
        _replace_run_index(db)
    for holders, flag in _NAMES:
        _spell_names(db, holders, flag, tally, apply)
    _mark_spread_boards(db, tally, apply)  # before any step places a run: unmarked, a board reads as empty
    _name_seed_runs(db, tally, apply)
    _finish_steps(db, tally, apply)
    _keep_sole_places(db, tally, apply)  # once the places owed are made: a board they join is not alone
    _take_out_gone_waiting(db, tally, apply)
    _unindex_waiting(db, tally, apply)
    _split_bans(db, tally, apply)
    _mark_archived_filter_whole(db, tally, apply)
    return tally


def _rewrite(db: Database, run_ids: list[str], tally: Tally) -> None:
    """Rewrite the runs of an older layout among ``run_ids``, reading again those changed meanwhile."""
    for _ in range(REREADS):
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id in run_ids:
                pipe.hgetall(keys.run(run_id))
                pipe.xrange(keys.old_audit_stream(run_id))
            replies = pipe.execute()
        read = [(run_id, fields, stream) for run_id, fields, stream in zip(run_ids, replies[::2], replies[1::2],
                                                                            strict=True)
                if _is_old([fields.get(mark) for mark in _MARKS], len(stream))]  # not rewritten meanwhile
        with db.redis.pipeline(transaction=False) as pipe:
            for run_id, fields, stream in read:
                _queue_rewrite(pipe, run_id, fields, stream)
            answers = pipe.execute()
        run_ids = [run_id for (run_id, _, _), answer in zip(read, answers, strict=True) if answer == "changed"]
        if not run_ids:
            return
    tally.changed += len(run_ids)


def _queue_rewrite(pipe, run_id: str, fields: dict, stream: list) -> None:
    """Queue ``migrate_run`` for one run as read: its hash's ``fields`` and its audit ``stream``."""
    run = {name: value for name, value in fields.items() if name != "id" and value != ""}
    moves = run.pop("moves", None)
    dropped = [name for name, value in fields.items() if name in ("id", "moves") or value == ""]
    new: dict = {}
    if moves:
        new["codes"] = move_codes.encode(moves.split(" "))
    if stream:
        run_so_far = {**run, "id": run_id}
        entries = [_stream_entry(entry_id, entry) for entry_id, entry in stream]
        if run.get("log"):  # entries a newer release appended meanwhile
            entries += decode_log(run["log"], run_so_far)
        new["log"] = encode_log(entries, run_so_far)
    scripts.migrate_run(pipe, run_id=run_id, fields_read=fields, stream_entries=len(stream), dropped=dropped,
                        new_fields=new, submission_key=_submission_key(run_id, fields))


def _stream_entry(entry_id: str, fields: dict) -> dict:
    """An entry of an audit stream, as the API shows it (``store.runs.audit.audit_log``)."""
    detail = json.loads(fields.get("detail") or "{}")
    return {
        "id": entry_id,
        "event": fields["event"],
        "actor": {"kind": fields["actor_kind"], "name": fields["actor"]},
        "at": iso_time(fields["at"]),
        "before": json.loads(fields["before"]),
        "after": json.loads(fields["after"]),
        "detail": detail if isinstance(detail, dict) else {},  # an empty Lua table may read as []
    }


def _submission_key(run_id: str, fields: dict) -> str | None:
    """The key naming an open run under its game, for a run whose id is not derived from them."""
    if fields.get("origin") == DEALT or "player" not in fields:
        return None
    moves = fields["moves"].split(" ") if fields.get("moves") else move_codes.decode(fields.get("codes", ""))
    game = fingerprint(fields["seed"], fields["variant"], moves)
    if run_id == open_run_id(fields["player"], game):
        return None
    return keys.submission(fields["player"], game)


def _replace_run_index(db: Database) -> None:
    """Every player with runs gets their place in ``keys.run_players``, then the index of every run goes.
    Safe beside running workers: a player's place only ever moves earlier here."""
    prefix = keys.player_runs("")
    for key in db.redis.scan_iter(match=keys.player_runs("*"), count=BATCH):
        oldest = db.redis.zrange(key, 0, 0, withscores=True)
        if oldest:
            db.redis.zadd(keys.run_players(), {key.removeprefix(prefix): oldest[0][1]}, lt=True)
    db.redis.delete(keys.old_run_index())


def _spell_names(db: Database, holders: Holders, flag: str, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` write) the spellings of the holders whose spelling names nobody, and the flag."""
    prefix = holders.holder("")
    names = [key.removeprefix(prefix) for key in db.redis.scan_iter(match=prefix + "*", count=BATCH)]
    with db.redis.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.exists(holders.spelling(name))
            pipe.hget(holders.holder(name), "created_ms")
        replies = pipe.execute()
    unspelt = sorted((int(created or 0), name) for name, spelt, created in zip(names, replies[::2], replies[1::2],
                                                                                 strict=True) if not spelt)
    flagged = db.redis.exists(flag)
    tally.unspelt_names += len(unspelt)
    tally.name_flags += flagged
    if apply:
        with db.redis.pipeline(transaction=False) as pipe:
            for _, name in unspelt:
                pipe.set(holders.spelling(name), name, nx=True)
            pipe.delete(flag)
            pipe.execute()


def _name_seed_runs(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` name) the seed boards' places whose run no hash names: each player
    with one has their seed places offered and named from their runs (``scripts.place_seed_boards``),
    which Redis all holds in that layout."""
    players: set[str] = set()
    for boards in redis_boards(db, SEED_BOARD):
        with db.redis.pipeline(transaction=False) as pipe:
            for board in boards:
                places_key, runs_key, *_ = board_keys(board)
                pipe.zrange(places_key, 0, -1)
                pipe.hkeys(runs_key)
            replies = pipe.execute()
        for ranked, named in zip(replies[::2], replies[1::2], strict=True):
            unnamed = set(ranked) - set(named)
            tally.unnamed_places += len(unnamed)
            players |= unnamed
    if apply:
        for player in sorted(players):
            scripts.place_seed_boards(db, player=player)


def _keep_sole_places(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` move) the boards of a kind kept as its sole place (``Board.sole``) whose two
    keys hold one place, as an older release kept every board: each moved into the hash of sole places
    if unchanged since it was read (a board a verdict changed meanwhile is left as it is, in today's
    layout either way)."""
    for kind in BOARDS:
        if not kind.sole:
            continue
        for boards in redis_boards(db, kind):
            single = [(board, places[0]) for board, places in zip(boards, redis_places(db, boards), strict=True)
                      if len(places) == 1]
            with db.redis.pipeline(transaction=False) as pipe:
                for board, _ in single:
                    pipe.exists(board_keys(board)[0])
                in_two_keys = pipe.execute()
            lone = [pair for pair, spread in zip(single, in_two_keys, strict=True) if spread]
            tally.lone_boards += len(lone)
            if apply and lone:
                with db.redis.pipeline(transaction=False) as pipe:
                    for board, place in lone:
                        scripts.keep_sole_place(pipe, board=board, place=place)
                    pipe.execute()


def _mark_spread_boards(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` mark) the boards of a kind kept as its sole place held in their two keys whose
    field in the hash of sole places does not say so (``SPREAD``), as an older release kept them: today's
    scripts read a board's form from that field alone (``lua/_sole.lua``), and would take such a board for
    an empty one. A board of one place so marked is moved into its field after (``_keep_sole_places``)."""
    for kind in BOARDS:
        if not kind.sole:
            continue
        for boards in redis_boards(db, kind):
            with db.redis.pipeline(transaction=False) as pipe:
                for board in boards:
                    pipe.exists(board_keys(board)[0])
                    pipe.hexists(keys.sole_places(board.name), board.name)
                replies = pipe.execute()
            unmarked = [board for board, in_two_keys, field in zip(boards, replies[::2], replies[1::2], strict=True)
                        if in_two_keys and not field]
            tally.unmarked_boards += len(unmarked)
            if apply and unmarked:
                with db.redis.pipeline(transaction=False) as pipe:
                    for board in unmarked:
                        scripts.mark_spread_board(pipe, board=board)
                    pipe.execute()


def _mark_archived_filter_whole(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` move into the filter) the archived-runs filter's whole mark kept in a key of
    its own: today's is a bit of the filter (``store.runs.archived_filter.WHOLE``), which its runs' bits
    share with the older layout's, so an older process still running notes runs where today's looks."""
    if not db.redis.exists(keys.old_archived_filter_whole()):
        return
    tally.filter_marks += 1
    if apply:
        with db.redis.pipeline(transaction=True) as pipe:
            pipe.setbit(keys.archived_filter(), WHOLE, 1)
            pipe.delete(keys.old_archived_filter_whole())
            pipe.execute()


def _take_out_gone_waiting(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` take out) the intake's ids of runs Redis no longer holds: an older
    release's erasure left its player's waiting runs there (its take read each run and skipped those
    gone), where today's take, which reads none, would note a job for it that no verdict clears
    (``store.queue.intake``)."""
    waiting = list(dict.fromkeys(db.redis.lrange(keys.intake(), 0, -1)))
    if not waiting:
        return
    with db.redis.pipeline(transaction=False) as pipe:
        for entry in waiting:
            pipe.exists(keys.run(entry_parts(entry)[0]))
        gone = [entry for entry, exists in zip(waiting, pipe.execute(), strict=True) if not exists]
    tally.gone_waiting += len(gone)
    if apply and gone:
        with db.redis.pipeline(transaction=False) as pipe:
            for entry in gone:
                pipe.lrem(keys.intake(), 0, entry)
            pipe.execute()


def _unindex_waiting(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` take out of the index of pending runs) the runs waiting in the intake that an
    older release indexed as it accepted them: today's sweeper, which looks only at the index, would take
    one for a run whose job was lost. The intake is watched, so a run a dispatcher takes meanwhile (and
    indexes as queued) is read again, not taken out."""
    while True:
        with db.redis.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(keys.intake())
                waiting = [entry_parts(entry)[0] for entry in pipe.lrange(keys.intake(), 0, -1)]
                scores = pipe.zmscore(keys.pending_runs(), waiting) if waiting else []
                indexed = [run_id for run_id, queued in zip(waiting, scores, strict=True) if queued is not None]
                if apply and indexed:
                    pipe.multi()
                    pipe.zrem(keys.pending_runs(), *indexed)
                    pipe.execute()
            except WatchError:
                continue
        tally.indexed_waiting += len(indexed)
        return


def _split_bans(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` move) the bans of the older layout's hash, each into its player's key and the
    list of bans by their end, in one transaction with the hash's deletion (a ban a moderator noted meanwhile
    in today's layout is kept)."""
    kept = db.redis.hgetall(keys.old_bans())
    tally.hashed_bans += len(kept)
    if not apply or not kept:
        return
    with db.redis.pipeline(transaction=True) as pipe:
        for player, stored in kept.items():
            ban = Sanction.from_kept(stored)
            pipe.set(keys.ban(player), stored, nx=True)
            pipe.zadd(keys.banned(), {player: "+inf" if ban.until_ms is None else ban.until_ms}, nx=True)
        pipe.delete(keys.old_bans())
        pipe.execute()


def _finish_steps(db: Database, tally: Tally, apply: bool) -> None:
    """Count (and with ``apply`` finish, then delete) what the older layout's steps left: the runs
    whose places were owed get them (``scripts.finish_places``), then the fences and marks go."""
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.zrange(old_layouts.placing(), 0, -1)
        pipe.zrange(old_layouts.replacing(), 0, -1)
        pipe.zrange(old_layouts.games_ending(), 0, -1)
        for mark in old_layouts.step_marks():
            pipe.exists(mark)
        placing, replacing, ending, *marks = pipe.execute()
    owed = list(dict.fromkeys([*placing, *replacing]))
    fences = [key for key in db.redis.scan_iter(match=old_layouts.FENCE_PATTERN, count=BATCH)
              if old_layouts.is_fence(key)]
    tally.owed_places += len(owed)
    tally.owed_runs += len(ending)
    tally.board_versions += sum(map(old_layouts.is_version_hash, fences))
    tally.placed_sets += sum(not old_layouts.is_version_hash(key) for key in fences)
    tally.step_marks += sum(marks)
    if not apply:
        return
    for game_id in ending:
        _accept_ended(db, game_id)
    for start in range(0, len(owed), BATCH):
        _finish_places(db, owed[start:start + BATCH])
    for start in range(0, len(fences), BATCH):
        db.redis.delete(*fences[start:start + BATCH])
    db.redis.delete(*old_layouts.step_marks())


def _accept_ended(db: Database, game_id: str) -> None:
    """Accept the run of an ended game the older layout's steps left without one, as a submission's
    (accepting it again finds the first; a ban since changes nothing: the game was played, or forfeited
    by the ban, R18), then take the game off their list."""
    game = load_game(db, game_id)
    if game is not None and game.status != PLAYING:
        submission = Submission(game.seed, game.variant, game.moves, dealt=dealt(game, db.seasons))
        accept_runs(db, game.player, [submission], request_id="migrate", heeding_bans=False)
    db.redis.zrem(old_layouts.games_ending(), game_id)


def _finish_places(db: Database, run_ids: list[str]) -> None:
    """Give each run of ``run_ids`` the places the older layout's steps owed it: Redis's runs, then the
    archive's; a run in neither has no places to give, and only leaves the lists."""
    runs = {run.id: run for run in load_board_runs(db, run_ids) if run is not None}
    archived = db.archive.load([run_id for run_id in run_ids if run_id not in runs])
    runs |= {run_id: run_from_stored(run_id, copy.fields) for run_id, copy in archived.items()}
    for run in runs.values():
        with hot_boards(db, boards_of(run)):
            scripts.finish_places(db, run=run)
    gone = [run_id for run_id in run_ids if run_id not in runs]
    if gone:
        with db.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(old_layouts.placing(), *gone)
            pipe.zrem(old_layouts.replacing(), *gone)
            pipe.execute()
