"""One Python wrapper per Lua script (``store/lua/<name>.lua``), naming its KEYS and ARGV.

The store's modules call these with named values; the positional contract
of each script (documented at its top) is spelt here alone, next to the
key names it uses. ``client`` is a Redis client, or a pipeline to queue the
call in (its reply then comes from ``execute``).

The boards a run counts on come from the registry (``domain.boards``), as
keys and orders (``store.placements``): the scripts rank, they do not
decide which boards a run is on.

A board step touches one board's keys (its shard's): placing a run
(``place_run``), setting a player's place from their runs (``place_player``),
ending a run's placing there (``unmark_placed``); ``store.placing`` drives
them and says why they are exactly once.
"""

import json
from typing import Any

from domain.boards import SEED_BOARD, BoardId, boards_of
from domain.run import Run
from domain.streak import day_before

from . import keys, shards
from .database import Database
from .lua import LuaScript
from .packing import pack
from .placements import Placement, load_board_runs, placement

_CLAIM_SUBMISSION = LuaScript("claim_submission")
_ACCEPT_RUN = LuaScript("accept_run")
_TAKE_INTAKE = LuaScript("take_intake")
_NOTE_ARCHIVED = LuaScript("note_archived")
_RECORD_VERDICT = LuaScript("record_verdict")
_PLACE_RUN = LuaScript("place_run")
_PLACE_PLAYER = LuaScript("place_player")
_UNMARK_PLACED = LuaScript("unmark_placed")
_CLOSE_DISPUTE = LuaScript("close_dispute")
_END_RECOMPUTE = LuaScript("end_recompute")
_CREATE_TOKEN_HOLDER = LuaScript("create_token_holder")
_CLAIM_STALE_RUN = LuaScript("claim_stale_run")
_MARK_ERROR = LuaScript("mark_error")
_REQUEUE_RUN = LuaScript("requeue_run")
_BOARD_PAGE = LuaScript("board_page")
_BOARD_POSITION = LuaScript("board_position")
_LADDER_PAGE = LuaScript("ladder_page")
_LADDER_POSITION = LuaScript("ladder_position")
_BOARD_AMONG = LuaScript("board_among")
_LADDER_AMONG = LuaScript("ladder_among")
_FOLLOW_PLAYER = LuaScript("follow_player")
_BOARD_SPREAD = LuaScript("board_spread")
_FILE_DISPUTE = LuaScript("file_dispute")
_NOTE_DISPUTE_FILED = LuaScript("note_dispute_filed")
_RESOLVE_DISPUTE = LuaScript("resolve_dispute")
_RESTORE_RUN = LuaScript("restore_run")
_REVERIFY_RUN = LuaScript("reverify_run")
_FORGET_RUN = LuaScript("forget_run")
_REINSTATE_RUN = LuaScript("reinstate_run")
_UNLIST_RUN = LuaScript("unlist_run")
_LIST_RUN = LuaScript("list_run")
_PLACE_SEED_BOARDS = LuaScript("place_seed_boards")
_START_GAME = LuaScript("start_game")
_PLAY_MOVES = LuaScript("play_moves")
_CLOSE_SEALED_DAY = LuaScript("close_sealed_day")
_CLOSE_SEASON = LuaScript("close_season")
_RAISE_FLAG = LuaScript("raise_flag")
_NOTE_SHARED_ADDRESS = LuaScript("note_shared_address")
_DISMISS_FLAG = LuaScript("dismiss_flag")
_NOTE_FLAG_DISMISSED = LuaScript("note_flag_dismissed")
_MIGRATE_RUN = LuaScript("migrate_run")
_FORGET_BOARD = LuaScript("forget_board")
_BRING_BACK_BOARD = LuaScript("bring_back_board")
_RECORD_DELIVERY = LuaScript("record_delivery")

MOVED = "moved"  # a board step's answer when the player's version there moved since it was read


def flatten(mapping: dict) -> list[str]:
    """A mapping as the alternating name/value ARGV the scripts read (HSET's order)."""
    return [str(item) for pair in mapping.items() for item in pair]


def claim_submission(client: Any, *, player: str, fingerprint: str, run_id: str, idempotency_key: str,
                     idempotency_ttl: int, token_hash: str) -> Any:
    """The player's step of accepting a submission: ``['claimed', run id]`` (the run the submission is:
    the one its Idempotency-Key or submission key names, or ``run_id``), ``['conflict']`` when the
    Idempotency-Key names another game, ``['unauthorized']`` when ``token_hash``, unless empty, is not
    the player's; nothing is stored but a claimed Idempotency-Key."""
    holder = keys.player(player)
    return _CLAIM_SUBMISSION.run(
        client,
        [holder, keys.idempotency(player, idempotency_key) if idempotency_key else holder,
         keys.submission(player, fingerprint)],
        [token_hash, fingerprint, idempotency_ttl if idempotency_key else "", run_id],
    )


def accept_run(client: Any, *, run_id: str, submitted_ms: int, archived: bool | None, to_intake: bool,
               fields: dict) -> Any:
    """The run's step of accepting a submission: create the run unless Redis or the archive
    (``archived``) holds it. ``['new', intake length]``, ``['existing', submission ms]``,
    ``['archived']``, or, ``archived`` None, ``['ask_archive']`` (nothing stored) when the archived-runs
    filter says the archive may hold it. ``to_intake``: a new run's id goes onto its shard's intake."""
    shard = shards.of_id(run_id)
    return _ACCEPT_RUN.run(
        client,
        [keys.run(run_id), keys.pending_runs(shard), keys.metrics(shard), keys.intake(shard),
         keys.archived_filter(shard), keys.archived_filter_whole(shard)],
        [run_id, submitted_ms, "" if archived is None else "1" if archived else "0", "1" if to_intake else "",
         *flatten(fields)],
    )


def note_archived(client: Any, *, shard: int, run_ids: list[str]) -> Any:
    """Note ``run_ids``, all of ``shard``, in its archived-runs filter (``store.archived_filter``)."""
    return _NOTE_ARCHIVED.run(client, [keys.archived_filter(shard)], run_ids)


def take_intake(client: Any, *, shard: int, job_id: str, waiting: str, run_ids: list[str]) -> Any:
    """Take ``run_ids`` from the head of ``shard``'s intake for job ``job_id`` (each run whose ``job`` is
    ``waiting`` names it then), if they are its head still: how many were taken (0 if none), then the
    ids of the runs that name the job."""
    return _TAKE_INTAKE.run(client, [keys.intake(shard), *map(keys.run, run_ids)], [job_id, waiting, *run_ids])


def record_verdict(client: Any, *, run: Run, worker: str, at_ms: int, metric: str, latency_bucket: str,
                   latency: float, fields: dict) -> Any:
    """Write a pending run's verdict ``fields`` with its audit entry and counts; a verified run joins
    its shard's runs being placed (``store.placing``) and its run.verified event is recorded
    (``lua/_events.lua``). 1 if written, 0 if it had a verdict."""
    shard = shards.of_id(run.id)
    return _RECORD_VERDICT.run(
        client,
        [keys.run(run.id), keys.pending_runs(shard), keys.metrics(shard), keys.latency(shard),
         keys.webhook_outbox(shard), keys.webhooks_registered(shard), keys.placing(shard)],
        [run.id, worker, at_ms, metric, latency_bucket, latency, *flatten(fields)],
    )


def _board_tail(board: Placement) -> list[str]:
    """The keys every board step takes after the board's own: its versions and its placed runs."""
    return [*board.keys, board.versions, board.placed]


def place_run(client: Any, *, board: Placement, version: str, run: Run, index: int, at_ms: int) -> Any:
    """Offer verified ``run`` its place on ``board`` (the ``index``-th of its boards, from 1), unless the
    player's version there is no longer ``version``: 'placed', 'known' (held already) or 'moved'."""
    shard = board.shard
    return _PLACE_RUN.run(
        client, [*_board_tail(board), keys.webhook_outbox(shard), keys.webhooks_registered(shard)],
        ["1", board.spec, run.player, version, run.id, run.score or 0, run.submitted_ms, index, at_ms])


def place_player(client: Any, *, board: Placement, player: str, version: str, runs: list[Run],
                 being_placed: list[str]) -> Any:
    """Set ``player``'s place on ``board`` from ``runs`` (their verified runs on it) unless their version
    there is no longer ``version``, noting ``being_placed`` (ids among them) as held: 'ok' or 'moved'."""
    return _PLACE_PLAYER.run(
        client, _board_tail(board),
        ["1", board.spec, player, version, " ".join(f"{run.submitted_ms}:{run.id}:{run.score or 0}" for run in runs),
         " ".join(being_placed)])


def unmark_placed(client: Any, *, board: Placement, player: str, run_id: str) -> Any:
    """The board no longer notes ``run_id`` as held, and ``player``'s version there moves."""
    return _UNMARK_PLACED.run(client, [board.versions, board.placed], [player, run_id])


def create_token_holder(client: Any, *, holder_key: str, spelling_key: str, name: str, token_hash: str,
                        created_ms: int, members_key: str | None = None) -> int:
    """Claim a player's or moderator's name in every case with its token hash: 1, or 0 if the name is
    taken in any case. The token's key is the caller's to write first (``store.tokens``)."""
    return int(_CREATE_TOKEN_HOLDER.run(
        client, [holder_key, spelling_key, *([members_key] if members_key else [])],
        [name, token_hash, created_ms]))


def claim_stale_run(client: Any, *, run_id: str, cutoff_ms: int, now_ms: int, most_requeues: int) -> int:
    """0 (nothing to do), -1 (re-queued too often) or the run's re-queue count, now claimed."""
    return int(_CLAIM_STALE_RUN.run(client, [keys.run(run_id), keys.pending_runs(shards.of_id(run_id))],
                                    [run_id, cutoff_ms, now_ms, most_requeues]))


def mark_error(client: Any, *, run_id: str, reason: str, at_ms: int, actor: str) -> bool:
    """Give a pending run the status ``error`` (``reason``: the error JSON); False if it had a verdict."""
    shard = shards.of_id(run_id)
    return bool(_MARK_ERROR.run(client, [keys.run(run_id), keys.pending_runs(shard), keys.metrics(shard)],
                                [run_id, reason, at_ms, actor]))


def requeue_run(client: Any, *, run_id: str, at_ms: int, moderator: str) -> bool:
    """Make an ``error`` run pending again; False if it is not in ``error``."""
    return bool(_REQUEUE_RUN.run(client, [keys.run(run_id), keys.pending_runs(shards.of_id(run_id))],
                                 [run_id, at_ms, moderator]))


def board_page(client: Any, *, places: str, runs: str, first: int, last: int) -> list:
    """The board's total, then (player, score, submission ms, run id) per place from index ``first`` to ``last``."""
    return _BOARD_PAGE.run(client, [places, runs], [first, last])


def board_position(client: Any, *, places: str, runs: str, player: str, around: int) -> list:
    """The player's index and the window's first index, then its places as ``board_page``; [] if unranked."""
    return _BOARD_POSITION.run(client, [places, runs], [player, around])


def _ladder_keys(ladder: BoardId) -> tuple[list[str], str]:
    """A board ranking the latest: its places and game counts, and its windows' key prefix."""
    kind, parts = ladder.board.kind, ladder.parts
    return [keys.board_places(kind, parts), keys.board_games(kind, parts)], keys.board_window(kind, parts, "")


def ladder_page(client: Any, *, ladder: BoardId, first: int, last: int) -> list:
    """The ladder's total, then (player, sum of the last games' scores, the latest game's
    submission ms, its run id, games) per place from index ``first`` to ``last``."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_PAGE.run(client, ladder_keys, [first, last, windows])


def ladder_position(client: Any, *, ladder: BoardId, player: str, around: int) -> list:
    """The player's index and the window's first index, then its places as ``ladder_page``; [] if not on it."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_POSITION.run(client, ladder_keys, [player, around, windows])


def board_among(client: Any, *, places: str, runs: str, players: list[str], first: int, last: int) -> list:
    """How many of ``players`` have a place on the board, how many are listed (those from index ``first`` to
    ``last`` among them, best first), each listed one's 0-based index on the board, then their places as
    ``board_page``."""
    return _BOARD_AMONG.run(client, [places, runs], [first, last, *players])


def ladder_among(client: Any, *, ladder: BoardId, players: list[str], first: int, last: int) -> list:
    """As ``board_among``, on a board ranking the latest (a ladder), the places as ``ladder_page``."""
    ladder_keys, windows = _ladder_keys(ladder)
    return _LADDER_AMONG.run(client, ladder_keys, [first, last, windows, *players])


def follow_player(client: Any, *, follower: str, followed: str, at_ms: int, most: int) -> bool:
    """``follower`` follows ``followed`` from ``at_ms`` (kept if they did already); False if they follow
    ``most`` players already."""
    return bool(_FOLLOW_PLAYER.run(client, [keys.following(follower)], [followed, at_ms, most]))


def board_spread(client: Any, *, places: str, span: int, offset: int, unit: int, most: int,
                 below: int | None) -> list:
    """How the values of the rank keys in ``places`` spread: total, first bucket's low value, bucket
    width, the middle place's value, places under value ``below`` (-1 if None), then each bucket's count."""
    return _BOARD_SPREAD.run(client, [places], [span, offset, unit, most, *([] if below is None else [below])])


def file_dispute(client: Any, *, run_id: str, dispute_id: str, player: str, reason: str, filed_ms: int,
                 open_status: str) -> bool:
    """File dispute ``dispute_id`` of ``run_id``, open, unless it is filed already: whether this filed it."""
    return bool(_FILE_DISPUTE.run(
        client, [keys.dispute(dispute_id), keys.disputes(open_status)],
        [dispute_id, player, reason, filed_ms, open_status, run_id],
    ))


def end_recompute(client: Any, *, run_id: str, noted: str) -> Any:
    """Take the run off its shard's runs to recompute if it is still noted at ``noted`` (as read)."""
    return _END_RECOMPUTE.run(client, [keys.replacing(shards.of_id(run_id))], [run_id, noted])


def note_dispute_filed(client: Any, *, run_id: str, dispute_id: str, player: str, reason: str,
                       filed_ms: int) -> bool:
    """The ``disputed`` audit entry of a dispute's filing on its run, unless the run's log names the
    dispute already: whether it was written."""
    return bool(_NOTE_DISPUTE_FILED.run(client, [keys.run(run_id)], [dispute_id, player, reason, filed_ms]))


def resolve_dispute(client: Any, *, run_id: str, dispute_id: str, moderator: str, decision: str, note: str,
                    at_ms: int) -> str:
    """The run's step of resolving a dispute: 'upheld', 'voided' (written now or before) or 'pending'."""
    shard = shards.of_id(run_id)
    return _RESOLVE_DISPUTE.run(
        client, [keys.run(run_id), keys.webhook_outbox(shard), keys.webhooks_registered(shard), keys.replacing(shard)],
        [moderator, decision, note, at_ms, dispute_id])


def close_dispute(client: Any, *, dispute_id: str, moderator: str, decision: str, note: str, at_ms: int,
                  open_status: str, resolved_status: str) -> str:
    """Mark an open dispute resolved with ``decision``: 'ok', or 'resolved' if it was."""
    return _CLOSE_DISPUTE.run(
        client, [keys.dispute(dispute_id), keys.disputes(open_status), keys.disputes(resolved_status)],
        [moderator, decision, note, at_ms, open_status, resolved_status])


def restore_run(client: Any, *, run_id: str, moderator: str, at_ms: int) -> str:
    """Undo a void, owing the player's places a recompute: 'ok' or 'not_void'."""
    return _RESTORE_RUN.run(client, [keys.run(run_id), keys.replacing(shards.of_id(run_id))], [moderator, at_ms])


def reverify_run(client: Any, *, run_id: str, actor_kind: str, actor: str, at_ms: int, log_unchanged: bool,
                 fields: dict) -> str:
    """Write verdict ``fields`` over the stored ones (a change owes the places a recompute): 'changed',
    'unchanged' or 'pending'."""
    return _REVERIFY_RUN.run(client, [keys.run(run_id), keys.replacing(shards.of_id(run_id))],
                             [actor_kind, actor, at_ms, "1" if log_unchanged else "", *flatten(fields)])


def forget_run(client: Any, *, run: dict[str, str]) -> Any:
    """Delete archived ``run``'s hash (its fields as read) unless it changed: 'ok', 'gone', or
    'changed' (changing nothing). Its player's run list is ``unlist_run``'s; its board places stay."""
    return _FORGET_RUN.run(client, [keys.run(run["id"])],
                           flatten({name: value for name, value in run.items() if name != "id"}))


def _player_run_keys(player: str, submission_key: str | None) -> list[str]:
    """The keys of the player's shard that list a run: their run list, the shard's players with runs,
    the run's ``submission_key`` (if it has one; else the run list again)."""
    runs_key = keys.player_runs(player)
    return [runs_key, keys.run_players(shards.of_name(player)), submission_key or runs_key]


def unlist_run(client: Any, *, run_id: str, player: str, submission_key: str | None) -> Any:
    """Take a run whose hash is gone out of the player's run list (and its ``submission_key``, if it
    names it), the player's oldest-run score with it: 1 if it was listed, else 0."""
    return _UNLIST_RUN.run(client, _player_run_keys(player, submission_key), [run_id, player])


def list_run(client: Any, *, run_id: str, player: str, submitted_ms: int, submission_key: str | None) -> Any:
    """Put a run in the player's run list (and its ``submission_key`` where none is named), the
    player's oldest-run score with it. Idempotent."""
    return _LIST_RUN.run(client, _player_run_keys(player, submission_key), [run_id, submitted_ms, player])


def reinstate_run(client: Any, *, run_id: str, fields: dict) -> bool:
    """Write an archived run's stored ``fields`` back as its hash; False (nothing written) if Redis
    holds it already. Its player's list is ``list_run``'s."""
    return bool(_REINSTATE_RUN.run(client, [keys.run(run_id)], flatten(fields)))


def place_seed_board(client: Any, *, board: Placement, player: str, version: str, best: Run | None) -> Any:
    """Offer ``best`` (the player's best verified run in Redis on seed ``board``, read after their
    ``version`` there) its place, and name the run of the place they hold when it is that run: 1 if
    they are on the board, 0 if not, 'moved' if the version moved."""
    packed = "" if best is None else str(_rank(best))
    return _PLACE_SEED_BOARDS.run(client, [board.keys[0], board.keys[1], board.versions],
                                  [player, version, packed, "" if best is None else best.id])


def _rank(run: Run) -> int:
    return pack(run.score or 0, run.submitted_ms)


def place_seed_boards(db: Database, *, player: str) -> int:
    """Offer the player's best verified run in Redis on each seed board its place there, and name
    the run of each place one holds (runs verified before seed boards existed, or before they named
    their runs), one step per board (``place_seed_board``, the version read before the runs: see
    ``store.placing``); the number of seed boards they are on."""
    run_ids = [str(run_id) for run_id in db.redis.zrange(keys.player_runs(player), 0, -1)]
    seeds = list(dict.fromkeys(board for run in load_board_runs(db, run_ids) if run is not None
                               for board in boards_of(run) if board.board is SEED_BOARD))
    on = 0
    while seeds:
        boards = [placement(board, player) for board in seeds]
        with db.redis.pipeline(transaction=False) as pipe:
            for board in boards:
                pipe.hget(board.versions, player)
            versions = [version or "" for version in pipe.execute()]
        best: dict[BoardId, Run] = {}
        for run in load_board_runs(db, run_ids):
            if run is None or run.status != "verified":
                continue
            for seed in boards_of(run):
                held = best.get(seed)
                if seed.board is SEED_BOARD and (held is None or _rank(run) > _rank(held)):
                    best[seed] = run
        with db.redis.pipeline(transaction=False) as pipe:
            for board, version in zip(boards, versions, strict=True):
                place_seed_board(pipe, board=board, player=player, version=version, best=best.get(board.board))
            answers = pipe.execute()
        on += sum(int(answer) for answer in answers if answer != MOVED)
        seeds = [board.board for board, answer in zip(boards, answers, strict=True) if answer == MOVED]
    return on


def start_game(client: Any, *, game_id: str, created_ms: int, slot: str, player: str, date: str,
               server_seed: str, sealed_ttl: int, fields: dict) -> list:
    """Store a new dealt game as being played: ``['new']``, or ``['existing', id]`` when the player has
    a game in ``slot`` (a free game) or that day's sealed daily (``date``, one a day) already;
    ``['redeal']`` when the player's next deal is no longer ``server_seed``; ``['closed']`` for a
    sealed day that is closed."""
    game_key, shard = keys.game(game_id), shards.of_game(game_id)
    sealed = bool(date)
    return _START_GAME.run(
        client,
        [game_key, keys.games_playing(shard), keys.player_games_playing(player),
         keys.sealed_game(date, player) if sealed else game_key, game_key if sealed else keys.next_deal(player),
         keys.sealed_closed(shard), keys.sealed_playing(date, shard) if sealed else game_key, keys.metrics(shard)],
        [game_id, created_ms, slot, "1" if sealed else "", sealed_ttl, date, server_seed, *flatten(fields)])


def play_moves(client: Any, *, game_id: str, played: int, codes: str, at_ms: int, status: str,
               ended_ttl: int, player: str, slot: str, date: str, closes_ms: int | None,
               latency_bucket: str = "", latency: float | None = None, counted_as: str = "") -> list:
    """Append the moves ``codes`` to a game still played with ``played`` moves, and set ``status``:
    ``['ok']``, ``['moved', count]``, ``['over', status]`` or ``['missing']``; a sealed daily game
    (``date``) whose day is closed, or past ``closes_ms``, is forfeited instead (``['closed']`` if
    ``codes`` had moves). A move request's ``latency`` (seconds, in ``latency_bucket``) is counted
    with it, and a game that ends here under ``counted_as`` too (the metric ``games:<counted_as>``); a
    sealed daily game that ends here before its close counts its day in the player's streak."""
    shard = shards.of_game(game_id)
    return _PLAY_MOVES.run(
        client,
        [keys.game(game_id), keys.games_playing(shard), keys.games_ending(shard), keys.player_games_playing(player),
         keys.sealed_closed(shard), keys.sealed_playing(date, shard) if date else keys.game(game_id),
         keys.metrics(shard), keys.move_latency(shard), keys.streak(player) if date else keys.game(game_id)],
        [game_id, played, codes, at_ms, status, ended_ttl, slot, date, "" if closes_ms is None else closes_ms,
         latency_bucket, "" if latency is None else latency, counted_as, day_before(date) if date else ""])


def close_sealed_day(client: Any, *, date: str, shard: int) -> list[str]:
    """Mark ``date``'s sealed daily closed in ``shard``; the ids of its games there still in play."""
    return _CLOSE_SEALED_DAY.run(client, [keys.sealed_closed(shard), keys.sealed_playing(date, shard)], [date])


def close_season(client: Any, *, closed: str, season: str, ends_ms: int, at_ms: int, event: dict) -> int:
    """List ``season`` in ``closed`` (the service's closed seasons) and record its ``season.ended`` event
    (``event``'s fields) in one step; 1 if this call closed it, 0 if it was closed already."""
    return _CLOSE_SEASON.run(client, [closed, keys.webhook_outbox(), keys.webhooks()],
                             [season, ends_ms, at_ms, json.dumps(event)])


def raise_flag(client: Any, *, flag_id: str, listed_in: list[str], every_index: list[str], raised_ms: int,
               kept: int, runs: list[str], fields: dict) -> Any:
    """Store flag ``flag_id`` (``fields``) unless it exists, listed in ``listed_in`` (the first: every flag)
    and under each of ``runs``; past ``kept`` flags the oldest leave ``every_index``. 1 if raised, else 0."""
    return _RAISE_FLAG.run(client, [keys.flag(flag_id), *listed_in, *every_index],
                           [flag_id, raised_ms, kept, keys.flag(""), keys.run_flags(""), " ".join(runs),
                            *flatten(fields)])


def note_shared_address(client: Any, *, address_key: str, player: str, run_id: str, forget_at: int, new_id: str,
                        listed_in: list[str], every_index: list[str], raised_ms: int, kept: int,
                        fields: dict) -> str:
    """Note the player's start from the address of ``address_key``; from the second player on, raise or
    complete its flag (``fields`` for a new one). The flag's id, or '' while the address has one player."""
    return _NOTE_SHARED_ADDRESS.run(client, [address_key, *listed_in, *every_index],
                                    [player, run_id, forget_at, new_id, raised_ms, kept, keys.flag(""),
                                     keys.run_flags(""), *flatten(fields)])


def dismiss_flag(client: Any, *, flag_id: str, open_indexes: list[str], dismissed_indexes: list[str],
                 moderator: str, at_ms: int, note: str, open_status: str, dismissed_status: str) -> str:
    """Dismiss an open flag: 'ok', 'dismissed' (it was) or 'missing'."""
    return _DISMISS_FLAG.run(client, [keys.flag(flag_id), *open_indexes, *dismissed_indexes],
                             [flag_id, moderator, at_ms, note, open_status, dismissed_status])


def note_flag_dismissed(client: Any, *, run_id: str, flag_id: str, reason: str, moderator: str, at_ms: int,
                        event: str) -> int:
    """The audit entry ``event`` of a flag's dismissal on its run, unless the run's log has it: 1 if written."""
    return int(_NOTE_FLAG_DISMISSED.run(client, [keys.run(run_id)], [flag_id, reason, moderator, at_ms, event]))


def migrate_run(client: Any, *, run_id: str, fields_read: dict, stream_entries: int, dropped: list[str],
                new_fields: dict, submission_key: str | None) -> Any:
    """Rewrite a run of an older layout (its hash's ``fields_read`` and ``stream_entries`` audit stream
    entries, as read): delete ``dropped``, write ``new_fields``, delete the stream and write the run's
    ``submission_key``: 'ok', 'gone', or 'changed' (changing nothing) if it is not as read."""
    run_key = keys.run(run_id)
    return _MIGRATE_RUN.run(
        client, [run_key, keys.old_audit_stream(run_id), submission_key or run_key],
        [run_id, stream_entries, len(fields_read), *flatten(fields_read), len(dropped), *dropped,
         *flatten(new_fields)])


def _flat_places(places: list) -> list:
    """Places (``player``, ``rank_key``, ``run_id`` each) as the board scripts' ARGV reads them."""
    return [item for place in places for item in (place.player, place.rank_key, place.run_id)]


def forget_board(client: Any, *, board: Placement, places: list) -> Any:
    """Remove a board the archive holds now, its versions and placed runs too, if it still holds exactly
    ``places`` (``archive.BoardPlace`` each, as read): 'ok', or 'changed' changing nothing."""
    return _FORGET_BOARD.run(client, [board.keys[0], board.keys[1], board.versions, board.placed],
                             _flat_places(places))


def bring_back_board(client: Any, *, places_key: str, runs_key: str, order: str, places: list) -> Any:
    """Offer the archive's ``places`` of a best or first board (``order``) to it in Redis, each as a
    verdict's run would be (``_placement``): the board in Redis is then the two merged."""
    return _BRING_BACK_BOARD.run(client, [places_key, runs_key], [order, *_flat_places(places)])


def record_delivery(client: Any, *, hook_id: str, attempt: str, kept: int, counter: str) -> Any:
    """Count a delivery attempt (JSON) under ``counter`` and keep it among the webhook's latest ``kept``,
    unless the webhook is gone: 1 if kept, 0 if not."""
    return _RECORD_DELIVERY.run(client, [keys.webhook(hook_id), keys.webhook_deliveries(hook_id), keys.metrics()],
                                [attempt, kept, counter])
