"""A ban's cost, and its undoing: a player with 1,000 runs on 5 boards banned, then unbanned.

Fills the store (``store.runs``, as the worker records verdicts) with one
player's ``--runs`` dealt classic games of one season and week, so each counts
on 5 boards (dealt, ladder, season, season ladder, league), among ``--others``
players with a game each; then times ``store.sanctions.ban`` (the places
withheld from every board, recomputed as a void recomputes them) and
``unban``, and checks that every board after the unban equals, place for
place, the board before the ban.

Goal: a ban under 1 s; the boards equal.

    .venv/bin/python bench/moderation.py [--runs 1000] [--others 1000]
"""

import argparse
import time

from _harness import Service
from domain.boards import BoardId
from scoundrel.strategies import play_game
from store.base import keys
from store.base.clock import now_ms
from store.boards.cooling import redis_places
from store.runs.accepting import Dealt, Submission, accept_runs
from store.runs.records import load_runs
from store.runs.verdicts import record_verdicts
from store.sanctions import ban, boards_played, unban
from verification import judge

SEASON = "2026-12"
BATCH = 500  # runs accepted and recorded at a time


def record(db, player: str, game: dict, verdict: dict | None, first: int, count: int) -> dict:
    """``count`` dealt games of ``player`` (ids from ``first``), all ``game``, accepted and their verdicts
    recorded as the worker records them; the verdict (judged once: every game is the same)."""
    for start in range(first, first + count, BATCH):
        submissions = [Submission(game["seed"], game["variant"], game["moves"],
                                  dealt=Dealt(game_id=f"{player}-{i}", dealt_ms=now_ms(), season=SEASON))
                       for i in range(start, min(first + count, start + BATCH))]
        pending = load_runs(db, [run.id for run, _ in accept_runs(db, player, submissions)])
        verdict = verdict or judge(pending[0])
        record_verdicts(db, [(run, verdict) for run in pending])
    assert verdict is not None
    return verdict


def board_state(db, boards: list[BoardId], player: str) -> list:
    """Every place of every board (a board kept as its one place: that place), the ladders' counts and the
    player's windows, and the runs naming the places as (score, submission ms): a tie of two runs may name
    either."""
    state = []
    for board in boards:
        kind, parts = board.board.kind, board.parts
        holders = db.redis.hgetall(keys.board_holders(kind, parts))
        runs = dict(zip(holders, load_runs(db, list(holders.values())), strict=True))
        state.append((db.redis.zrange(keys.board_places(kind, parts), 0, -1, withscores=True),
                      {name: (run.score, run.submitted_ms) for name, run in runs.items() if run is not None},
                      db.redis.hgetall(keys.board_games(kind, parts)),
                      db.redis.zrange(keys.board_window(kind, parts, player), 0, -1, withscores=True),
                      db.redis.hget(keys.sole_places(board.name), board.name)))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="the banned player's runs")
    parser.add_argument("--others", type=int, default=1000, help="other players on the same boards, a game each")
    args = parser.parse_args()

    stack = Service(workers=0)
    try:
        db = stack.database()
        game = {"seed": "bench-moderation", "variant": "classic", "moves": play_game("bench-moderation", "classic")}
        started = time.perf_counter()
        verdict = record(db, "banned", game, None, 0, args.runs)
        for other in range(args.others):
            record(db, f"other{other:06d}", game, verdict, 0, 1)
        boards = boards_played(db, "banned")
        print(f"stored {args.runs:,} runs of one player on {len(boards)} boards, among {args.others:,} players, "
              f"in {time.perf_counter() - started:.1f} s")
        before = board_state(db, boards, "banned")

        started = time.perf_counter()
        ban(db, "banned", "bench", "the bench")
        banned_s = time.perf_counter() - started
        assert all(place.player != "banned" for places in redis_places(db, boards) for place in places)
        started = time.perf_counter()
        unban(db, "banned", "bench")
        unbanned_s = time.perf_counter() - started
        equal = board_state(db, boards, "banned") == before
        print(f"ban: {banned_s * 1000:.0f} ms (goal under 1 s); unban: {unbanned_s * 1000:.0f} ms; "
              f"every board equal to the boards before the ban, place for place: {'yes' if equal else 'NO'}")
        if not equal:
            raise SystemExit("the boards after the unban differ from the boards before the ban")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
