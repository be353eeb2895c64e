"""The weekly leagues at a million players: what a week's close costs, a join, and a cohort's memory.

A week's close runs nothing (``domain.leagues``): each player's next tier
is decided when they next play, from their frozen cohort. So the figures
are the costs that stand in for a close:

- filling a week: N players join (``lua/join_league.lua``, O(1) each) in
  random order, each with a best game on the week's league board; Redis'
  ``used_memory`` before and after gives the bytes per cohort (its players'
  memberships and history entries, the open-cohort and tier hashes) and,
  apart, the week's board;
- the next week: a sample of the players plays again, each join reading
  their last cohort's standings (``board_among`` over its 30 players on the
  million-place board) to find their tier: its latency, p50 and p99;
- the longest single Redis call of the whole run, from Redis' SLOWLOG
  (every call logged that took 1 ms or more): the service keeps answering
  while a week closes as long as that stays well under 50 ms;
- the week's end, side by side: today's close (every cohort's final order read
  as a returning player's tier reads it, ``cohort_order``, one cohort at a
  time) and the settlement (``store.leagues.week_end``: every cohort's
  ``league.week_ended`` told, with a webhook registered, and each tier's
  rewards granted to the top 3 of each cohort), alternating batch by batch
  so both meet the same load, and their ratio;
- once cold, the week's board moving to the archive (``store.boards.cooling``,
  a slice of places a call): its wall time and its longest Redis call, then
  a returning player's tier read from their cohort's archived places.

Straight to a throwaway Redis, no API: the store's own functions.

    .venv/bin/python bench/leagues.py [--players 1000000] [--sample 2000]
"""

import argparse
import random
import statistics
import tempfile
import time

import _harness  # noqa: F401  (puts the checkout on sys.path)
from cli.redis_server import RedisServer
from domain.boards import LEAGUE_BOARD, BoardId
from domain.leagues import LeagueRules
from domain.rewards import table_from
from domain.run import DEALT, Run
from domain.seasons import parse_season
from settings import Settings
from store import Database
from store.base import keys
from store.base.packing import pack
from store.boards.cooling import cool_boards
from store.boards.pages import ranking
from store.leagues import scripts
from store.leagues import week_end as week_ending
from store.leagues.membership import cohort_order, join_week, tier_for
from store.webhooks.hooks import create_webhook
from worker.registry import JOBS

WEEK, FOLLOWING, LATER = "2026-W49", "2026-W50", "2026-W51"
BATCH = 2000
SLOWLOG_KEPT = 100_000  # SLOWLOG entries kept: every slow call of a run
MIB = 2**20


def fill(db: Database, rules: LeagueRules, players: int, rng: random.Random) -> None:
    """``players`` join ``WEEK`` in random order, each with one game on its board, in pipelines of ``BATCH``."""
    board = ranking(BoardId(LEAGUE_BOARD, (WEEK,)))
    order = list(range(players))
    rng.shuffle(order)
    for start in range(0, players, BATCH):
        with db.redis.pipeline(transaction=False) as pipe:
            for n in order[start:start + BATCH]:
                player = f"p{n}"
                pipe.zadd(board.places, {player: pack(rng.randint(-200, 30), 1_700_000_000_000 + n)})
                pipe.hset(board.runs, player, f"r{n}")
                scripts.join_league(pipe, week=WEEK, player=player, tier=0, size=rules.size, kept=10**7)
            pipe.execute()


def week_end(db: Database, rules: LeagueRules, cohorts: int) -> tuple[float, float, int]:
    """``(today's close, the settlement, cohorts told)`` in seconds, side by side: for each batch of cohorts the
    settlement takes at once (``week_end.BATCH``), every one's final order read as the lazy close reads it
    (``cohort_order``), then the batch ended (``end_cohorts``: told, with a webhook registered, and rewards for
    the top 3 of each cohort). Alternating, both meet the same load of a shared machine."""
    create_webhook(db, "https://studio.example/hooks", ["league.week_ended", "reward.granted"], "bench")
    rewards = {tier: table_from([{"from_rank": 1, "payload": {"coins": 100}},
                                 {"from_rank": 2, "to_rank": 3, "payload": {"coins": 50}}]) for tier in rules.tiers}
    close_s = settle_s = 0.0
    told, at = 0, int(time.time() * 1000)
    db.redis.slowlog_reset()
    for first in range(1, cohorts + 1, week_ending.BATCH):
        batch = list(range(first, min(first + week_ending.BATCH, cohorts + 1)))
        started = time.perf_counter()
        for cohort in batch:
            cohort_order(db, WEEK, cohort)
        close_s += time.perf_counter() - started
        started = time.perf_counter()
        told += week_ending.end_cohorts(db, rules, rewards, WEEK, batch, at)
        settle_s += time.perf_counter() - started
    return close_s, settle_s, told


def longest_call(db: Database) -> float:
    """The longest Redis call since the SLOWLOG was reset (ms; calls of 1 ms and over are logged)."""
    return max((entry["duration"] for entry in db.redis.slowlog_get(SLOWLOG_KEPT)), default=0) / 1000


def used(db: Database) -> int:
    return db.redis.info("memory")["used_memory"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--sample", type=int, default=2000, help="players timed joining the next week")
    args = parser.parse_args()
    settings = Settings()
    rules = LeagueRules(settings.league_tiers, settings.league_cohort, settings.league_moves)
    rng = random.Random(34)
    with tempfile.TemporaryDirectory() as root:
        server = RedisServer(root, persistent=False).start()
        try:
            db = Database(server.url, JOBS, socket_timeout=30, archive_url=f"sqlite:///{root}/archive.sqlite3")
            db.archive.upgrade()  # a week's board may cool there: a cohort's read asks it first
            db.redis.config_set("slowlog-log-slower-than", 1000)
            db.redis.config_set("slowlog-max-len", SLOWLOG_KEPT)
            db.redis.slowlog_reset()
            empty = used(db)
            board = ranking(BoardId(LEAGUE_BOARD, (WEEK,)))
            started = time.perf_counter()
            fill(db, rules, args.players, rng)
            filled = time.perf_counter() - started
            slowest = longest_call(db)
            total = used(db) - empty
            board_bytes = (db.redis.memory_usage(board.places, samples=0) or 0) + (
                db.redis.memory_usage(board.runs, samples=0) or 0)
            cohorts = int(db.redis.get(f"{{scoundrel}}:league-cohorts:{WEEK}"))
            db.redis.slowlog_reset()  # MEMORY USAGE of the board above is this bench's own long call
            sample = rng.sample(range(args.players), min(args.sample, args.players))
            ends = parse_season(FOLLOWING).starts_ms
            latencies = []
            for n in sample:
                run = Run(f"s{n}", f"p{n}", "classic", "s", "verified", 0, ends + n, origin=DEALT)
                began = time.perf_counter()
                join_week(db, rules, run)
                latencies.append((time.perf_counter() - began) * 1000)
            latencies.sort()
            slowest = max(slowest, longest_call(db))
            print(f"leagues, {args.players:,} players in {cohorts:,} cohorts of at most {rules.size}")
            print("the week's close: nothing runs (each player's next tier is decided as they next play)")
            print(f"filling the week (joins and board places, pipelined): {filled:.1f} s, "
                  f"{args.players / filled:,.0f} joins/s")
            print(f"memory: {(total - board_bytes) / cohorts:,.0f} bytes a cohort (its players' memberships and "
                  f"history), the week's board {board_bytes / MIB:,.1f} MiB ({board_bytes / args.players:.0f} bytes a "
                  f"player)")
            print(f"a player's first join of the next week ({len(latencies):,} timed, each reading their last "
                  f"cohort): p50 {statistics.median(latencies):.2f} ms, p99 "
                  f"{latencies[int(len(latencies) * 0.99) - 1 if len(latencies) > 1 else 0]:.2f} ms, "
                  f"max {latencies[-1]:.2f} ms")
            print(f"longest single Redis call of the service's, filling and joining (SLOWLOG, 1 ms and over): "
                  f"{slowest:.2f} ms")
            close_s, settle_s, told = week_end(db, rules, cohorts)
            print(f"the week's end: today's close (every cohort's order read) {close_s:.1f} s; the settlement "
                  f"({told:,} cohorts told, {db.redis.hlen(keys.rewards_granted(f'league:{WEEK}')):,} rewards granted) "
                  f"{settle_s:.1f} s: {settle_s / close_s:.2f}x; the longest single Redis call meanwhile "
                  f"{longest_call(db):.2f} ms")
            db.redis.slowlog_reset()
            started = time.perf_counter()
            tally = cool_boards(db, 10**13)
            moved = time.perf_counter() - started
            slowest = longest_call(db)
            print(f"the week's board leaving Redis for the archive once cold ({tally.cooled} board): {moved:.1f} s, "
                  f"the longest single Redis call meanwhile {slowest:.2f} ms")
            later = []
            for n in sample:
                began = time.perf_counter()
                tier_for(db, rules, f"p{n}", LATER)
                later.append((time.perf_counter() - began) * 1000)
            later.sort()
            print(f"a player's tier once the board is archived ({len(later):,} timed, each reading their cohort's "
                  f"places there): p50 {statistics.median(later):.2f} ms, "
                  f"p99 {later[int(len(later) * 0.99) - 1 if len(later) > 1 else 0]:.2f} ms")
            db.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
