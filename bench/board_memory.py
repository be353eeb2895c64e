"""Redis bytes per run, and what the fair-play boards (dealt, ladder, sealed) add to it.

Open runs: N games on N distinct seeds (as open play mostly is), submitted
over HTTP in batches and verified by a real worker; Redis' ``used_memory``
before and after gives the bytes per stored run. Deleting every seed board
(each one's place, kept in the hashes of sole places: one player a seed)
afterwards gives exactly what the seed boards cost while hot (the run as it
was before them). Dealt runs: N games handed over as dealt games' runs
(``store.accept_runs`` with their dealt fields) by N / 40 players, 40 games
each; deleting the dealt boards and ladders gives what those cost.

    .venv/bin/python bench/board_memory.py [--runs 3000]
"""

import argparse
import random
import secrets
import time

import redis

from _harness import Client, Service
from scoundrel.strategies import play_game
from store import Submission, accept_runs
from store.base import keys
from store.queue.pending import pending_count
from store.runs.accepting import Dealt

GAMES_PER_PLAYER = 40


def games(count: int, prefix: str) -> list[dict]:
    seeds = [f"{prefix}-{n}-{secrets.token_hex(8)}" for n in range(count)]
    return [{"seed": seed, "variant": "classic", "moves": play_game(seed, rng=random.Random(n), strategy="greedy")}
            for n, seed in enumerate(seeds)]


def settle(db) -> None:
    """Until every run has its verdict, written with its board places."""
    while pending_count(db.redis):
        time.sleep(0.05)


def drop(connection: redis.Redis, patterns: list[str]) -> tuple[int, int]:
    """Delete every key matching ``patterns``: how many, and the bytes Redis freed."""
    before = connection.info("memory")["used_memory"]
    found = [key for pattern in patterns for key in connection.scan_iter(match=pattern, count=1000)]
    for key in found:
        connection.delete(key)
    return len(found), before - connection.info("memory")["used_memory"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3000)
    args = parser.parse_args()
    runs = args.runs - args.runs % GAMES_PER_PLAYER
    if not runs:
        parser.error(f"--runs must be at least {GAMES_PER_PLAYER} (one player's dealt games)")

    stack = Service(workers=1, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        connection = redis.Redis.from_url(stack.redis_url)
        db = stack.database()
        _, token = stack.register("bench")
        open_games, dealt_games = games(runs, "open"), games(runs, "dealt")

        before = connection.info("memory")["used_memory"]
        client = Client(stack.base)
        for first in range(0, runs, 1000):
            status, text = client.request("POST", "/v1/runs/batch", {"runs": open_games[first:first + 1000]},
                                          {"Authorization": f"Bearer {token}"})
            assert status == 200, text[:200]
        settle(db)
        per_open = (connection.info("memory")["used_memory"] - before) / runs
        placed = sum(connection.hlen(bucket) for bucket in keys.every_sole_places())
        assert placed == runs, f"{placed} seed boards: not every run was verified"
        _, freed = drop(connection, keys.every_sole_places())
        seed_boards = freed / runs
        print(f"open runs, {runs:,} on distinct seeds: {per_open:,.0f} bytes per verified run with its seed "
              f"board, {per_open - seed_boards:,.0f} without; the seed board: {seed_boards:,.0f} bytes per run")

        before = connection.info("memory")["used_memory"]
        for first in range(0, runs, GAMES_PER_PLAYER):
            player = f"dealer-{first // GAMES_PER_PLAYER}"
            accept_runs(db, player, [Submission(game["seed"], game["variant"], game["moves"],
                                                dealt=Dealt(secrets.token_hex(16)))
                                     for game in dealt_games[first:first + GAMES_PER_PLAYER]], runs_per_job=100)
        settle(db)
        per_dealt = (connection.info("memory")["used_memory"] - before) / runs
        count, freed = drop(connection, [keys.board_places("dealt", ("*",)), keys.board_holders("dealt", ("*",)),
                                         keys.board_places("ladder", ("*",)),
                                         keys.board_window("ladder", ("*",), "*"), keys.board_games("ladder", ("*",))])
        assert count == 4 + runs // GAMES_PER_PLAYER, f"{count} keys: not every run was verified"
        boards = freed / runs
        print(f"dealt runs, {GAMES_PER_PLAYER} each by {runs // GAMES_PER_PLAYER} players: {per_dealt:,.0f} bytes "
              f"per verified run; the dealt board and ladder: {boards:,.0f} bytes per run")
        db.close()
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
