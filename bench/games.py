"""Dealt games: move latency with 1,000 games in play, and what a game in play costs Redis.

1,000 games are dealt (1,000 players: one game in play per player and variant) and kept in play: the
clients play one move at a time on them in turn, each move a plain
player's choice among the legal ones (a game that ends is replaced by a new one,
so 1,000 stay in play). Only the move requests are timed. Rate limits are
off, as in the other API benchmarks. Bytes per game in play: the mean
MEMORY USAGE of the 1,000 game hashes as dealt, plus their index of games
in play divided among them; and the largest
game hash (MEMORY USAGE) seen while 200 easy games (at most ``--games``) are played to the end at
random through the store, with a clock that moves 1-100 s between moves
(long gaps make the longest move log). Goal: p99 under 10 ms at 1,000
games in play, at most 1 KB a game.

    .venv/bin/python bench/games.py [--games 1000] [--moves 6000] [--clients 2]
"""

import argparse
import json
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import scoundrel
from _harness import Client, Service, percentiles
from domain.dealer import fresh_seed, judge, position
from domain.game import PLAYING
from store.games.dealt import game_bytes, load_game, next_deal, play_moves, playing_index, start_game

RANDOM_GAMES = 200  # easy games played at random for the largest game hash (fewer if --games is smaller)


def first_move(game: dict) -> str:
    """A plain player's choice among the legal moves: the weapon, potions, weapons, then the weakest monster."""
    legal = game["legal_moves"]

    def preference(move: str) -> tuple[int, int]:
        if move == "flee":
            return (4, 0)
        kind = {"w": 0, "H": 1, "D": 2}.get(move[-1] if move[-1] in "wb" else move[0], 3)
        return (kind, int(move[1:].rstrip("wb")))

    return min(legal, key=preference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=6000)
    parser.add_argument("--clients", type=int, default=2)
    args = parser.parse_args()

    stack = Service(workers=1, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": "",
                                        "SCOUNDREL_API_WORKERS": "2"})
    db = stack.database()
    try:
        tokens = [stack.register(f"bench-{n}")[1] for n in range(args.games)]  # one game in play per player
        client = Client(stack.base)

        def deal(token: str) -> dict:
            status, body = client.request("POST", "/v1/games", {"variant": "classic"},
                                          {"Authorization": f"Bearer {token}"})
            assert status == 201, body[:200]
            return {"token": token, **json.loads(body)}

        games = [deal(token) for token in tokens]
        count, index_bytes = playing_index(db)
        dealt_bytes = statistics.mean(game_bytes(db, game["id"]) for game in games) + index_bytes / count

        shares = [games[c::args.clients] for c in range(args.clients)]

        def play(share: list[dict]) -> list[float]:
            mine = Client(stack.base)
            times = []
            for turn in range(args.moves // args.clients):
                game = share[turn % len(share)]
                headers = {"Authorization": f"Bearer {game['token']}"}
                body = {"moves": [first_move(game)], "expected_moves": len(game["moves"])}
                start = time.perf_counter()
                status, text = mine.request("POST", f"/v1/games/{game['id']}/moves", body, headers)
                times.append((time.perf_counter() - start) * 1000)
                assert status == 200, text[:200]
                game.update(json.loads(text))
                if game["status"] != "playing":
                    status, text = mine.request("POST", "/v1/games", {"variant": "classic"}, headers)
                    game.update(json.loads(text))
            return times

        def version(_: int) -> list[float]:
            mine = Client(stack.base)
            return [_timed(mine, "GET", "/v1/version") for _ in range(args.moves // args.clients // 4)]

        started = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            times = [t for share in pool.map(play, shares) for t in share]
        rate = len(times) / (time.perf_counter() - started)
        with ThreadPoolExecutor(args.clients) as pool:
            trivial = [t for share in pool.map(version, range(args.clients)) for t in share]
        in_play, _ = playing_index(db)

        played = [load_game(db, game["id"]) for game in games if game["status"] == "playing"]
        deep = max(played, key=lambda game: len(game.moves))
        engine = statistics.median(_engine_us(game) for game in played[:200])
        print(f"{args.games:,} games dealt, {in_play:,} in play while {len(times):,} moves were played by "
              f"{args.clients} clients ({rate:,.0f} moves/s)")
        print(f"move latency over HTTP: {percentiles(times)} (GET /v1/version for scale: {percentiles(trivial)})")
        print(f"engine per request (deal + replay of the stored moves + legal moves): median {engine:.0f} µs")
        print(f"Redis per game in play: {dealt_bytes:,.0f} bytes (its hash as dealt and its index entry); "
              f"the hash of a game with {len(deep.moves)} moves: {game_bytes(db, deep.id)} bytes (MEMORY USAGE)")
        random_games = min(RANDOM_GAMES, args.games)
        print(f"largest game hash in play, {random_games} random easy games with 1-100 s between moves: "
              f"{_largest_game_bytes(db, random_games)} bytes")
    finally:
        db.close()
        stack.stop()


def _largest_game_bytes(db, games: int) -> int:
    """The largest MEMORY USAGE of a game hash in play over ``games`` random easy games, on a slow clock."""
    rng, clock, largest = random.Random(1), [time.time() * 1000], 0

    def now() -> int:
        clock[0] += rng.randint(1_000, 100_000)
        return int(clock[0])

    with mock.patch("store.games.dealt.now_ms", now):
        for _ in range(games):
            seed = next_deal(db, "bench-memory", fresh_seed())
            game = start_game(db, "bench-memory", "easy", seed, server_seed=seed)
            while game.status == PLAYING:
                state = position(game)
                move = rng.choice(scoundrel.legal_moves(state, game.variant))
                game = play_moves(db, game, [move], judge(state, game.variant, len(game.moves), [move]))
                if game.status == PLAYING:
                    largest = max(largest, game_bytes(db, game.id))
    return largest


def _timed(client: Client, method: str, path: str) -> float:
    start = time.perf_counter()
    status, _ = client.request(method, path)
    assert status == 200
    return (time.perf_counter() - start) * 1000


def _engine_us(game) -> float:
    start = time.perf_counter()
    for _ in range(50):
        scoundrel.legal_moves(position(game), game.variant)
    return (time.perf_counter() - start) / 50 * 1e6


if __name__ == "__main__":
    main()
