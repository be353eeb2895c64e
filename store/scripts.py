"""One Python wrapper per Lua script (``store/lua/<name>.lua``), naming its KEYS and ARGV.

The store's modules call these with named values; the positional contract
of each script (documented at its top) is spelt here alone, next to the
key names it uses. ``client`` is a Redis client, or a pipeline to queue the
call in (its reply then comes from ``execute``).

The boards a run counts on come from the registry (``domain.boards``), as
keys and orders (``store.placements``): the scripts rank, they do not
decide which boards a run is on.

Voiding, restoring or re-verifying a run can move a player's place either
way, so those scripts look at every run of the player: the wrapper passes
the run keys (declared, as Redis Cluster wants) and, per board, which of
them count on it; the script refuses, changing nothing, if the player
submitted another run since they were read; the wrapper then reads them
again (``_with_player_runs``).
"""

import json
from typing import Any

from redis.client import Pipeline

from domain.boards import SEED_BOARD, BoardId, boards_of
from domain.run import Run
from domain.streak import day_before

from . import keys
from .database import Database
from .lua import LuaScript
from .placements import Placement, load_board_runs, placement, placements, script_args
from .run_records import run_from_stored

_ACCEPT_RUN = LuaScript("accept_run")
_TAKE_INTAKE = LuaScript("take_intake")
_NOTE_ARCHIVED = LuaScript("note_archived")
_RECORD_VERDICT = LuaScript("record_verdict")
_CREATE_TOKEN_HOLDER = LuaScript("create_token_holder")
_TOKEN_OWNER = LuaScript("token_owner")
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
_RESOLVE_DISPUTE = LuaScript("resolve_dispute")
_RESTORE_RUN = LuaScript("restore_run")
_REVERIFY_RUN = LuaScript("reverify_run")
_FORGET_RUN = LuaScript("forget_run")
_REINSTATE_RUN = LuaScript("reinstate_run")
_PLACE_SEED_BOARDS = LuaScript("place_seed_boards")
_START_GAME = LuaScript("start_game")
_PLAY_MOVES = LuaScript("play_moves")
_CLOSE_SEALED_DAY = LuaScript("close_sealed_day")
_CLOSE_SEASON = LuaScript("close_season")
_RAISE_FLAG = LuaScript("raise_flag")
_NOTE_SHARED_ADDRESS = LuaScript("note_shared_address")
_DISMISS_FLAG = LuaScript("dismiss_flag")
_MIGRATE_RUN = LuaScript("migrate_run")
_FORGET_BOARD = LuaScript("forget_board")
_BRING_BACK_BOARD = LuaScript("bring_back_board")
_RECORD_DELIVERY = LuaScript("record_delivery")

STALE = "stale"  # the places scripts' answer when the player's run list grew meanwhile


def flatten(mapping: dict) -> list[str]:
    """A mapping as the alternating name/value ARGV the scripts read (HSET's order)."""
    return [str(item) for pair in mapping.items() for item in pair]


def accept_run(client: Any, *, run_id: str, player: str, fingerprint: str, submitted_ms: int,
               idempotency_key: str, idempotency_ttl: int, archived: bool | None, to_intake: bool, token_hash: str,
               fields: dict) -> Any:
    """Store a submission unless the player sent that game (or that Idempotency-Key) before, or
    the archive holds its run (``archived``): ``['new']``, ``['existing', run id]`` or ``['conflict']``.
    ``archived`` None: the archived-runs filter answers, ``['ask_archive']`` (nothing stored) when
    the archive may hold it. ``to_intake``: a new run's id goes onto the intake too; ``token_hash``,
    unless empty: the token must still name ``player``, else ``['unauthorized']`` and nothing stored."""
    idempotency = keys.idempotency(player, idempotency_key) if idempotency_key else keys.metrics()
    return _ACCEPT_RUN.run(
        client,
        [idempotency, keys.submission(player, fingerprint), keys.run(run_id), keys.player_runs(player),
         keys.run_players(), keys.pending_runs(), keys.metrics(), keys.intake(),
         keys.token(token_hash) if token_hash else keys.metrics(), keys.archived_filter(),
         keys.archived_filter_whole()],
        [run_id, fingerprint, submitted_ms, idempotency_ttl if idempotency_key else "",
         "" if archived is None else "1" if archived else "0",
         player, "1" if to_intake else "", "1" if token_hash else "", *flatten(fields)],
    )


def note_archived(client: Any, *, run_ids: list[str]) -> Any:
    """Note ``run_ids`` in the archived-runs filter (``store.archived_filter``)."""
    return _NOTE_ARCHIVED.run(client, [keys.archived_filter()], run_ids)


def take_intake(client: Any, *, job_id: str, waiting: str, run_ids: list[str]) -> Any:
    """Take ``run_ids`` from the intake's head for job ``job_id`` (each run whose ``job`` is ``waiting``
    names it then), if they are its head still: how many were taken (0 if none), then the ids of the
    runs that name the job."""
    return _TAKE_INTAKE.run(client, [keys.intake()], [job_id, keys.run(""), waiting, *run_ids])


def record_verdict(client: Any, *, run: Run, worker: str, at_ms: int, metric: str, latency_bucket: str,
                   latency: float, fields: dict) -> Any:
    """Write a pending run's verdict ``fields`` with its audit entry and counts; a verified
    run is offered its places on every board it counts on, and its events recorded (``lua/_events.lua``).
    1 if written, 0 if it had a verdict."""
    board_keys, boards = script_args(placements(run))
    return _RECORD_VERDICT.run(
        client,
        [keys.run(run.id), keys.pending_runs(), keys.metrics(), keys.latency(), *board_keys, keys.webhook_outbox(),
         keys.webhooks()],
        [run.id, worker, at_ms, metric, latency_bucket, latency, *boards, *flatten(fields)],
    )


def create_token_holder(client: Any, *, holder_key: str, token_key: str, spelling_key: str,
                        name: str, token_hash: str, created_ms: int, members_key: str | None = None) -> int:
    """Claim a player's or moderator's name in every case with its token hash: 1, or 0 if the name is
    taken in any case."""
    return int(_CREATE_TOKEN_HOLDER.run(
        client, [holder_key, token_key, spelling_key, *([members_key] if members_key else [])],
        [name, token_hash, created_ms]))


def token_owner(client: Any, *, token_key: str, holder_prefix: str) -> tuple[str, str] | None:
    """``(name, stored token hash)`` of whom ``token_key`` names (their key: ``holder_prefix`` + name), or None.

    In a pipeline the call is queued; ``execute`` answers ``[name, hash]`` or None in its place.
    """
    owner = _TOKEN_OWNER.run(client, [token_key], [holder_prefix])
    if isinstance(owner, Pipeline):
        return None
    return (owner[0], owner[1]) if owner else None


def claim_stale_run(client: Any, *, run_id: str, cutoff_ms: int, now_ms: int, most_requeues: int) -> int:
    """0 (nothing to do), -1 (re-queued too often) or the run's re-queue count, now claimed."""
    return int(_CLAIM_STALE_RUN.run(client, [keys.run(run_id), keys.pending_runs()],
                                    [run_id, cutoff_ms, now_ms, most_requeues]))


def mark_error(client: Any, *, run_id: str, reason: str, at_ms: int, actor: str) -> bool:
    """Give a pending run the status ``error`` (``reason``: the error JSON); False if it had a verdict."""
    return bool(_MARK_ERROR.run(client, [keys.run(run_id), keys.pending_runs(), keys.metrics()],
                                [run_id, reason, at_ms, actor]))


def requeue_run(client: Any, *, run_id: str, at_ms: int, moderator: str) -> bool:
    """Make an ``error`` run pending again; False if it is not in ``error``."""
    return bool(_REQUEUE_RUN.run(client, [keys.run(run_id), keys.pending_runs()],
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
    """Open dispute ``dispute_id`` of the run; False if there is no such run."""
    return bool(_FILE_DISPUTE.run(
        client, [keys.run(run_id), keys.dispute(dispute_id), keys.disputes(open_status)],
        [dispute_id, player, reason, filed_ms, open_status, run_id],
    ))


def _player_runs(db: Database, player: str) -> tuple[list[str], list[Run | None]]:
    """The player's run ids in submission order, and each run as the boards see it (None: not stored)."""
    run_ids = [str(run_id) for run_id in db.redis.zrange(keys.player_runs(player), 0, -1)]
    return run_ids, load_board_runs(db, run_ids)


def _on_board(board: Placement, runs: list[Run | None]) -> str:
    """The positions among ``runs`` of those that count on ``board``, as ``_places.lua`` reads them."""
    return " ".join(str(position) for position, run in enumerate(runs)
                    if run is not None and board.board in boards_of(run))


def _archived_runs(db: Database, player: str, hot: list[str]) -> list[Run]:
    """The player's verified runs in the archive and not in Redis (``hot``: a run in both, a move
    interrupted, is Redis's). Read after their run list: a run archived in between is in one of the two,
    and the script finds the run list changed."""
    hot_ids = set(hot)
    return [run for fields in db.archive.player_runs(player)
            if fields["id"] not in hot_ids and (run := run_from_stored(fields["id"], fields)).status == "verified"]


def _archived_on(board: Placement, runs: list[Run]) -> str:
    """The archived ``runs`` that count on ``board``, as ``_places.lua`` reads them."""
    return " ".join(f"{run.submitted_ms}:{run.id}:{run.score}" for run in runs if board.board in boards_of(run))


def _with_player_runs(db: Database, script: LuaScript, run: Run, fixed_keys: list[str], fixed_args: list,
                      args: list) -> Any:
    """Run a places script for ``run``: ``fixed_keys``, its boards' keys, the player's run list and every
    run key of the player; ``fixed_args``, its boards, the runs in Redis on each, the archived runs on
    each, then ``args``."""
    boards = placements(run)
    board_keys, board_args = script_args(boards)
    while True:
        run_ids, runs = _player_runs(db, run.player)
        archived = _archived_runs(db, run.player, run_ids)
        answer = script.run(
            db.redis, [*fixed_keys, *board_keys, keys.player_runs(run.player), *map(keys.run, run_ids)],
            [*fixed_args, *board_args, *(_on_board(board, runs) for board in boards),
             *(_archived_on(board, archived) for board in boards), *args])
        if answer != STALE:
            return answer


def resolve_dispute(db: Database, *, dispute_id: str, run: Run, moderator: str, decision: str, note: str,
                    at_ms: int, open_status: str, resolved_status: str) -> str:
    """Resolve an open dispute (a void moves the player's places and records its event): 'ok', 'resolved' or
    'pending'."""
    return _with_player_runs(
        db, _RESOLVE_DISPUTE, run,
        [keys.dispute(dispute_id), keys.disputes(open_status), keys.disputes(resolved_status), keys.run(run.id),
         keys.webhook_outbox(), keys.webhooks()],
        [moderator, decision, note, at_ms, open_status, resolved_status], [],
    )


def restore_run(db: Database, *, run: Run, moderator: str, at_ms: int) -> str:
    """Undo a void and recompute the player's places: 'ok' or 'not_void'."""
    return _with_player_runs(db, _RESTORE_RUN, run, [keys.run(run.id)],
                             [moderator, at_ms], [])


def reverify_run(db: Database, *, run: Run, actor_kind: str, actor: str, at_ms: int, log_unchanged: bool,
                 fields: dict) -> str:
    """Write verdict ``fields`` over the stored ones and recompute the places: 'changed', 'unchanged' or 'pending'."""
    return _with_player_runs(db, _REVERIFY_RUN, run, [keys.run(run.id)],
                             [actor_kind, actor, at_ms, "1" if log_unchanged else ""], flatten(fields))


def forget_run(client: Any, *, run: dict[str, str], submission_key: str | None) -> Any:
    """Remove archived ``run`` (its fields as read) and every key it owns (its ``submission_key`` too,
    if it has one): 'ok', 'gone', or 'changed' (changing nothing). Its board places stay."""
    run_key = keys.run(run["id"])
    return _FORGET_RUN.run(
        client,
        [run_key, keys.player_runs(run["player"]), keys.run_players(), submission_key or run_key],
        [run["id"], run["player"], *flatten({name: value for name, value in run.items() if name != "id"})],
    )


def reinstate_run(client: Any, *, run_id: str, player: str, submitted_ms: int, fields: dict,
                  submission_key: str | None) -> bool:
    """Put an archived run back: its stored ``fields`` and its indexes (and its ``submission_key``, if
    it has one); False (nothing written) if Redis holds it already."""
    run_key = keys.run(run_id)
    return bool(_REINSTATE_RUN.run(
        client, [run_key, keys.player_runs(player), keys.run_players(), submission_key or run_key],
        [run_id, submitted_ms, player, *flatten(fields)],
    ))


def place_seed_boards(db: Database, *, player: str) -> int:
    """Offer each of the player's runs in Redis that counts on a seed board its place there, and name
    the run of each place one holds (runs verified before seed boards existed, or before they named
    their runs); the number of seed boards they are on."""
    while True:
        run_ids, runs = _player_runs(db, player)
        on_seeds = [(run, placement(board, player)) for run in runs if run is not None
                    for board in boards_of(run) if board.board is SEED_BOARD]
        answer = _PLACE_SEED_BOARDS.run(
            db.redis, [keys.player_runs(player), *(keys.run(run.id) for run, _ in on_seeds),
                       *(board.keys[0] for _, board in on_seeds), *(board.keys[1] for _, board in on_seeds)],
            [player, len(run_ids)])
        if answer != STALE:
            return int(answer)


def start_game(client: Any, *, game_id: str, created_ms: int, slot: str, player: str, date: str,
               server_seed: str, sealed_ttl: int, fields: dict) -> list:
    """Store a new dealt game as being played: ``['new']``, or ``['existing', id]`` when the player has
    a game in ``slot`` (a free game) or that day's sealed daily (``date``, one a day) already;
    ``['redeal']`` when the player's next deal is no longer ``server_seed``; ``['closed']`` for a
    sealed day that is closed."""
    game_key = keys.game(game_id)
    sealed = bool(date)
    return _START_GAME.run(
        client,
        [game_key, keys.games_playing(), keys.player_games_playing(player),
         keys.sealed_game(date, player) if sealed else game_key, game_key if sealed else keys.next_deal(player),
         keys.sealed_closed(), keys.sealed_playing(date) if sealed else game_key, keys.metrics()],
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
    return _PLAY_MOVES.run(
        client,
        [keys.game(game_id), keys.games_playing(), keys.games_ending(), keys.player_games_playing(player),
         keys.sealed_closed(), keys.sealed_playing(date) if date else keys.game(game_id), keys.metrics(),
         keys.move_latency(), keys.streak(player) if date else keys.game(game_id)],
        [game_id, played, codes, at_ms, status, ended_ttl, slot, date, "" if closes_ms is None else closes_ms,
         latency_bucket, "" if latency is None else latency, counted_as, day_before(date) if date else ""])


def close_sealed_day(client: Any, *, date: str) -> list[str]:
    """Mark ``date``'s sealed daily closed; the ids of its games still in play."""
    return _CLOSE_SEALED_DAY.run(client, [keys.sealed_closed(), keys.sealed_playing(date)], [date])


def close_season(client: Any, *, closed: str, season: str, ends_ms: int, at_ms: int, event: dict) -> int:
    """List ``season`` in ``closed`` (the closed seasons) and record its ``season.ended`` event
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
                 run_id: str | None, moderator: str, at_ms: int, note: str, open_status: str,
                 dismissed_status: str, event: str) -> str:
    """Dismiss an open flag, with an audit entry ``event`` on its run if it names one:
    'ok', 'dismissed' (it was) or 'missing'."""
    flag_key = keys.flag(flag_id)
    about = [keys.run(run_id) if run_id else flag_key]
    return _DISMISS_FLAG.run(client, [flag_key, *open_indexes, *dismissed_indexes, *about],
                             [flag_id, moderator, at_ms, note, open_status, dismissed_status, event,
                              "1" if run_id else ""])


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


def forget_board(client: Any, *, places_key: str, runs_key: str, places: list) -> Any:
    """Remove a board the archive holds now (its keys ``places_key`` and ``runs_key``) if it still
    holds exactly ``places`` (``archive.BoardPlace`` each, as read): 'ok', or 'changed' changing nothing."""
    return _FORGET_BOARD.run(client, [places_key, runs_key], _flat_places(places))


def bring_back_board(client: Any, *, places_key: str, runs_key: str, order: str, places: list) -> Any:
    """Offer the archive's ``places`` of a best or first board (``order``) to it in Redis, each as a
    verdict's run would be (``_placement``): the board in Redis is then the two merged."""
    return _BRING_BACK_BOARD.run(client, [places_key, runs_key], [order, *_flat_places(places)])


def record_delivery(client: Any, *, hook_id: str, attempt: str, kept: int) -> Any:
    """Keep a delivery attempt (JSON) among the webhook's latest ``kept``, unless the webhook is gone:
    1 if kept, 0 if not."""
    return _RECORD_DELIVERY.run(client, [keys.webhook(hook_id), keys.webhook_deliveries(hook_id)], [attempt, kept])
