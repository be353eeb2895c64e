"""Dealt games: the server's record of a game it deals card by card.

One hash per game (``keys.game``) holds all of it: player, variant,
challenge and date, the seed, the status, the times of the deal and of the
last move, and the log of moves: per move one character (``store.runs.move_codes``)
and the milliseconds since the move before, in fields of at most 64 bytes
so Redis keeps the hash in its compact encoding (``play_moves.lua``). The position is not stored: the service deals
the seed and replays the moves on every request (about 50 µs), so there is
one source of truth and a game in play stays well under 1 KB.

A move is a compare-and-set on the move count the caller judged the game
at (``play_moves.lua``): of two requests racing on one game, one applies
and the other gets ``GameMoved``. The move that ends a game (or a forfeit)
stores its run in that same script, the record a submitted run gets
(``store.runs.accepting.new_run_fields``: the same fields and audit entry,
on the intake for its verification job): no ended game is ever without its
run, whatever process dies when.

A player has at most one game in play per slot: a variant for free games,
the day for the sealed daily (``keys.player_games_playing``), taken and
freed in the same scripts that start and end games, so two racing starts
give one game. A free game is dealt from the player's next deal
(``next_deal``), committed to before it starts and taken by the start.

The sealed daily of a day closes at the end of that UTC day (R18):
``close_sealed_day`` marks it closed, after which ``play_moves.lua``
forfeits any game of it instead of applying a move, then forfeits every
game of it still in play. Only a closed day's deal may be shown.
"""

import secrets
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from domain.daily_seed import sealed_seed
from domain.errors import DealTaken, GameInPlay, GameMoved, GameOver, NoSuchGame, SealedDailyStarted, SealedDayOver
from domain.game import DAILY, FORFEIT, PLAYING, Game, game_run_id, slot_of
from domain.run import PENDING, daily_seal
from domain.seasons import Schedule, season_at
from domain.tournaments import TOURNAMENT_ENDED, TournamentRefusal
from store.accounts.players import PLAYERS
from store.accounts.tokens import queue_holder_lookup
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.metrics import MOVE_LATENCY_BUCKETS, latency_bucket
from store.games import scripts
from store.games.day_secrets import sealed_secret
from store.log import reveal_leaf_parts
from store.queue.intake import intake_entry
from store.runs import move_codes
from store.runs.accepting import Dealt, Submission, new_run_fields

GAME_KEPT = 7 * 24 * 3600  # seconds an ended game is kept (its run keeps the record for good)
SEALED_KEPT = 2 * 24 * 3600  # seconds the one-a-day mark of a sealed daily game is kept: past its day
SWEEP_BATCH = 500  # games looked at per sweep, of each kind
FORFEITED_IDLE = "forfeited_idle"  # the metric a sweeper's forfeit counts under (games:forfeited_idle)

_closed_days: set[str] = set()  # sealed days this process has closed: a day once closed stays closed


def new_game_id() -> str:
    """128 random bits: a game's id cannot be guessed."""
    return secrets.token_hex(16)


def is_game_id(text: str) -> bool:
    return len(text) == 32 and all(c in "0123456789abcdef" for c in text)


def dealt(game: Game, schedule: Schedule) -> Dealt:
    """Where the game's run comes from, as the run records it: with the season of ``schedule`` it ended in."""
    season = season_at(schedule, game.ended_ms).id if game.ended_ms is not None else ""
    return Dealt(game.id, game.challenge, game.date, forfeit=game.status == FORFEIT, dealt_ms=game.created_ms,
                 move_gaps=game.move_gaps, season=season, tournament=game.tournament, deal=game.deal,
                 scoring=game.scoring)


def _stored_game(game_id: str, fields: dict, run: list) -> Game:
    created = int(fields["created_ms"])
    log = "".join(fields[f"log{chunk}"] for chunk in range(int(fields["chunks"]) + 1))
    entries = log.split(",")[:-1]  # each: the move's character, then its gap in ms
    return Game(
        id=game_id, player=fields["player"], variant=fields["variant"], challenge=fields["challenge"],
        date=fields["date"], seed=fields["seed"], server_seed=fields.get("server_seed") or fields["seed"],
        client_seed=fields.get("client_seed", ""), moves=move_codes.decode("".join(entry[0] for entry in entries)),
        move_gaps=" ".join(entry[1:] for entry in entries), status=fields["status"], created_ms=created,
        last_ms=int(fields["last_ms"]),
        ended_ms=int(fields["ended_ms"]) if fields.get("ended_ms") else None,
        run_status=run[0] or None, run_score=int(run[1]) if run[1] not in (None, "") else None,
        tournament=fields.get("tournament", ""), deal=int(fields.get("deal") or 0), scoring=fields.get("scoring", ""),
        tournament_ends_ms=int(fields["tournament_ends_ms"]) if fields.get("tournament_ends_ms") else None,
    )


def _read_game(pipe, game_id: str) -> None:
    pipe.hgetall(keys.game(game_id))
    pipe.hmget(keys.run(game_run_id(game_id)), "status", "score")


def load_game(db: Database, game_id: str) -> Game | None:
    """The game with its run's status and score, in one round trip; None if there is none."""
    if not is_game_id(game_id):
        return None
    with db.redis.pipeline(transaction=False) as pipe:
        _read_game(pipe, game_id)
        fields, run = pipe.execute()
    return _stored_game(game_id, fields, run) if fields else None


def load_game_as(db: Database, game_id: str, token: str) -> tuple[str | None, Game | None]:
    """``(the token's player or None, the game or None)`` in one round trip: a move's
    authentication and read together, so that a move costs this and its compare-and-set."""
    with db.redis.pipeline(transaction=False) as pipe:
        holder = queue_holder_lookup(pipe, PLAYERS, token)
        if is_game_id(game_id):
            _read_game(pipe, game_id)
        owner, *game = pipe.execute()
    player = holder(owner)
    if not game or not game[0]:
        return player, None
    return player, _stored_game(game_id, *game)


def next_deal(db: Database, player: str, fresh_seed: str) -> str:
    """The server seed of the player's next free game: ``fresh_seed`` if none is drawn yet.

    It stays the same until a game of the player's starts from it (``start_game`` takes it).
    """
    with db.redis.pipeline(transaction=False) as pipe:
        pipe.set(keys.next_deal(player), fresh_seed, nx=True)
        pipe.get(keys.next_deal(player))
        return pipe.execute()[1]


def start_game(db: Database, player: str, variant: str, seed: str, *, server_seed: str = "",
               client_seed: str = "", challenge: str = "", date: str = "") -> Game:
    """Store a new game dealt from ``seed``; the game as stored.

    A free game is dealt from the player's next deal, ``server_seed``
    (``seed`` itself, or derived from it and ``client_seed``), which it
    takes: ``DealTaken`` if another start took it first. One free game in
    play per player and variant: ``GameInPlay`` with the one in play.
    A sealed daily game (``challenge="daily"``) is one per player and day:
    a second start raises ``SealedDailyStarted`` with the first one's id,
    and one of a closed day ``SealedDayOver``.
    """
    game_id, created = new_game_id(), now_ms()
    sealed = challenge == DAILY
    fields = new_game_fields(player, variant, seed, created, challenge=challenge, date=date)
    if client_seed:
        fields |= {"server_seed": server_seed, "client_seed": client_seed}
    reply = scripts.start_game(db.redis, game_id=game_id, created_ms=created, slot=slot_of(variant, date),
                               player=player, date=date if sealed else "", server_seed=server_seed,
                               sealed_ttl=SEALED_KEPT, fields=fields)
    if reply[0] == "existing":
        raise SealedDailyStarted(reply[1]) if sealed else GameInPlay(reply[1], variant)
    if reply[0] == "redeal":
        raise DealTaken()
    if reply[0] == "closed":
        raise SealedDayOver(date)
    return new_game(game_id, fields)


def new_game_fields(player: str, variant: str, seed: str, created_ms: int, **more: object) -> dict:
    """The hash of a game dealt from ``seed`` at ``created_ms``, before its first move; ``more``: its
    fields of a challenge (``challenge``, ``date``; a tournament's)."""
    return {"player": player, "variant": variant, "challenge": "", "date": "", "seed": seed, "status": PLAYING,
            "created_ms": created_ms, "last_ms": created_ms, "count": 0, "chunks": 0, "log0": "", **more}


def new_game(game_id: str, fields: dict) -> Game:
    """The game a start stored as ``fields`` (``new_game_fields``)."""
    return _stored_game(game_id, {name: str(value) for name, value in fields.items()}, [None, None])


def games_in_play(db: Database, player: str) -> list[Game]:
    """The player's games in play, oldest first."""
    ids = db.redis.hvals(keys.player_games_playing(player))
    games = [load_game(db, game_id) for game_id in ids]
    return sorted((game for game in games if game is not None and game.status == PLAYING),
                  key=lambda game: game.created_ms)


def play_moves(db: Database, game: Game, moves: list[str], status: str, *, request_id: str = "",
               latency: float | None = None, counted_as: str = "", server_key: str = "") -> Game:
    """Append ``moves`` (judged legal on ``game`` as loaded) and set the status they lead to
    (none and ``FORFEIT`` for a forfeit, R18); the game as written (``Game.played``), with its
    run's status if it ended here, so nothing is read back. A move request passes its ``latency``
    so far (seconds), counted with the moves (``scoundrel_move_latency_seconds``); a game that
    ends here is counted by its status, and under ``counted_as`` too when given, in the same step. A
    studio's ``server_key`` sending the moves for the player is named by the audit entry of the run a game
    ending here gets.

    Raises ``GameMoved`` when the game changed since it was loaded,
    ``GameOver`` when it has ended, ``NoSuchGame``; ``SealedDayOver`` when
    the moves came for a sealed daily game whose day has closed, which
    forfeits it instead (R18). A game that ends here gets its run in the same script.
    """
    at_ms = now_ms()
    written = game.played(moves, status, at_ms)
    # a sealed daily's or a tournament's game's run as its close would end it (a free game has no close)
    closed_run = _run_fields(db, game.played([], FORFEIT, at_ms), at_ms) if game.closes_ms else None
    reply = scripts.play_moves(db.redis, game_id=game.id, played=len(game.moves),
                               codes=move_codes.encode(moves), at_ms=at_ms, status=status,
                               ended_ttl=GAME_KEPT, player=game.player, slot=game.slot, date=game.date,
                               tournament=game.tournament, closes_ms=game.closes_ms, run_id=game_run_id(game.id),
                               intake_entry=intake_entry(game_run_id(game.id), request_id),
                               ended_run=None if status == PLAYING else _run_fields(db, written, at_ms,
                                                                                    server_key),
                               closed_run=closed_run,
                               latency=latency, counted_as=counted_as,
                               latency_bucket="" if latency is None else latency_bucket(latency, MOVE_LATENCY_BUCKETS))
    if reply[0] == "missing":
        raise NoSuchGame(game.id)
    if reply[0] == "over":
        raise GameOver(reply[1])
    if reply[0] == "moved":
        raise GameMoved(int(reply[1]))
    if reply[0] == "closed":  # forfeited with the moves it had instead (R18, R19)
        raise TournamentRefusal(TOURNAMENT_ENDED) if game.tournament else SealedDayOver(game.date)
    return written if status == PLAYING else replace(written, run_status=PENDING, run_score=None)


def _run_fields(db: Database, ended: Game, at_ms: int, server_key: str = "") -> dict:
    """The hash of ``ended``'s run, as a submitted run's (``store.runs.accepting``), by ``server_key`` if one
    sent its last moves."""
    submission = Submission(ended.seed, ended.variant, ended.moves, dealt=dealt(ended, db.seasons),
                            server_key=server_key)
    return new_run_fields(ended.player, submission, at_ms)[1]


def close_sealed_day(db: Database, day: str) -> None:
    """Close ``day``'s sealed daily (a day that is over, R18): mark it closed, so that no game of it
    takes a move from then on, and forfeit each game of it still in play.

    The first close of the day appends its seed's ``reveal`` leaf to the
    public log (``store.log``), which ties the commitment its runs' leaves
    carry to the seed. Whatever shows the day's deal calls this first.
    Idempotent and safe in several processes at once (a forfeit is a move's
    compare-and-set); each process does it once a day.
    """
    if day in _closed_days:
        return
    reveal = reveal_leaf_parts(daily_seal(day), [sealed_seed(sealed_secret(db), date.fromisoformat(day))], now_ms())
    for game_id in scripts.close_sealed_day(db.redis, date=day, reveal=reveal):
        forfeit_at_close(db, game_id, keys.sealed_playing(day))
    _closed_days.add(day)


def forfeit_at_close(db: Database, game_id: str, playing: str, tries: int = 3) -> None:
    """Forfeit a game of a closed sealed daily or tournament (R18, R19), listed in ``playing`` (its games in
    play), read again if a move landed between its reading and its forfeit (the forfeit is that move's
    compare-and-set); one that stays out of reach is refused every move from now on and forfeited then,
    or by the idle sweep."""
    for _ in range(tries):
        game = load_game(db, game_id)
        if game is None:
            db.redis.srem(playing, game_id)
            return
        try:
            play_moves(db, game, [], FORFEIT, request_id="sealed-close")  # R18, R19
            return
        except GameMoved:
            continue
        except (GameOver, NoSuchGame):
            return


def sweep_games(db: Database, idle_seconds: float) -> int:
    """Close yesterday's sealed daily (R18) and forfeit the games left without a move for
    ``idle_seconds`` (R18); how many were forfeited.

    Safe in several workers at once: a forfeit is the same compare-and-set
    as a move, so a player's move that lands first wins.
    """
    now = now_ms()
    close_sealed_day(db, (datetime.fromtimestamp(now / 1000, UTC).date() - timedelta(days=1)).isoformat())
    forfeited = 0
    idle = db.redis.zrangebyscore(keys.games_playing(), "-inf", now - int(idle_seconds * 1000),
                                  start=0, num=SWEEP_BATCH)
    for game_id in idle:
        game = load_game(db, game_id)
        if game is None or game.status != PLAYING:
            db.redis.zrem(keys.games_playing(), game_id)
            continue
        try:
            play_moves(db, game, [], FORFEIT, request_id="sweeper", counted_as=FORFEITED_IDLE)  # R18
            forfeited += 1
        except (GameMoved, GameOver, NoSuchGame):
            continue
    return forfeited


def game_bytes(db: Database, game_id: str) -> int:
    """What one game costs Redis (MEMORY USAGE of its hash), for the benchmark."""
    return int(db.redis.memory_usage(keys.game(game_id), samples=0) or 0)


def playing_index(db: Database) -> tuple[int, int]:
    """``(games in play, bytes of their index)``, for the benchmark."""
    return db.redis.zcard(keys.games_playing()), int(db.redis.memory_usage(keys.games_playing(), samples=0) or 0)
