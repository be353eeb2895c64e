"""Legal games for tests that need many verified runs, made by the engine's own players."""

import functools
import random
import secrets
import subprocess
import time
from collections.abc import Callable

import scoundrel
from scoundrel.strategies import find_win, play_game
from store import load_runs
from store.runs import run_audit_logs
from tests.support.commands import run_command


def legal_games(count: int, variant: str = "classic") -> tuple[dict, ...]:
    """``count`` complete legal submissions (won or lost), the same every time: the first ``count`` of one list,
    each game played once a test process (some 9 ms of CPU each; modules ask for up to 200, many for the same)."""
    return tuple(_legal_game(number, variant) for number in range(count))


@functools.cache
def _legal_game(number: int, variant: str) -> dict:
    seed = f"game-{variant}-{number}"
    return {"seed": seed, "variant": variant, "moves": play_game(seed, variant)}


def winning_moves(seed: str, variant: str = "classic") -> list[str]:
    """A move list that wins the game dealt from ``seed``: ``find_win``'s, searched for once a test process (a
    second of CPU a seed), as the board pages', the replay viewer's and the desk's tests each win on theirs."""
    return list(_winning_moves(seed, variant))


@functools.cache
def _winning_moves(seed: str, variant: str) -> tuple[str, ...]:
    moves = find_win(seed, variant=variant, budget=2000)
    assert moves is not None, f"no win found on {seed!r}"
    return tuple(moves)


def games_by_score(seed: str, count: int, variant: str = "classic") -> list[dict]:
    """``count`` complete games on ``seed`` with distinct scores, lowest first."""
    found: dict[int, dict] = {}
    for rng_seed in range(500):
        moves = play_game(seed, variant, rng=random.Random(rng_seed), strategy="random")
        score = scoundrel.replay(seed, moves, variant).score
        found.setdefault(score, {"seed": seed, "moves": moves, "variant": variant})
        if len(found) == count:
            break
    return [found[score] for score in sorted(found)]


def scoundrel_check(stack, *args: str) -> subprocess.CompletedProcess:
    """``scoundrel check`` against the stack's Redis (in this process: ``tests.support.commands``)."""
    return run_command(stack.env(), "check", *args)


def assert_verified_once(db, run_ids: list[str]) -> None:
    """Each run verified, and verified once (one ``verified`` entry in its audit log): read from the store as the
    API's run and audit-log views read it, in two round trips rather than two requests a run (the views are
    tests/audit's), for the fault tests that submit dozens of runs."""
    statuses = [run.status if run else None for run in load_runs(db, run_ids)]
    assert statuses == ["verified"] * len(run_ids), list(zip(run_ids, statuses, strict=True))
    for run_id, log in zip(run_ids, run_audit_logs(db, run_ids), strict=True):
        assert [entry["event"] for entry in log].count("verified") == 1, (run_id, log)


def moderator_token(stack, name: str = "mod") -> str:
    """A moderator created the operator's way (``scoundrel moderator add``)."""
    from store import create_moderator

    database = stack.database()
    try:
        return create_moderator(database, name)
    finally:
        database.close()


def accept_dealt(stack, player: str, game: dict, *, challenge: str = "", date: str = "", season: str = "") -> dict:
    """A finished dealt game's run, accepted the way the game server hands it over
    (``store.accept_runs`` with the run's dealt fields, ``season`` the one it ended in) and
    verified by the stack's worker: the run once it has its verdict."""
    [run] = accept_dealt_games(stack, player, [game], challenge=challenge, date=date, season=season)
    return run


def accept_dealt_games(stack, player: str, games: list[dict], *, challenge: str = "", date: str = "",
                       season: str = "") -> list[dict]:
    """``accept_dealt`` of each of ``games`` in turn, a few milliseconds apart (distinct submission times), then
    verified together, as the workers take a backlog: the in-process stack's worker makes one pass for them
    all instead of one a game (its registries, the periodic pass and the intake's dispatch each time)."""
    from store import Submission, submit_run
    from store.runs.accepting import Dealt

    db = stack.database()
    run_ids = []
    try:
        for number, game in enumerate(games):
            if number:
                time.sleep(0.003)
            dealt = Dealt(secrets.token_hex(16), challenge=challenge, date=date, season=season)
            run, _ = submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"], dealt=dealt))
            run_ids.append(run.id)
    finally:
        db.close()
    return [stack.wait_final(run_id) for run_id in run_ids]


def _dealt_seed(stack, game_id: str) -> str:
    """The seed a game in play was dealt from, read where only the service may read it: the test
    knows the deck so its moves can keep the player alive."""
    from store.games.dealt import load_game

    db = stack.database()
    try:
        stored = load_game(db, game_id)
    finally:
        db.close()
    assert stored is not None, game_id
    return stored.seed


def play_dealt(stack, pauses: list[float], pause: Callable[[float], None] = time.sleep) -> tuple[dict, str]:
    """``(game, its player's token)``: a dealt game of a new player, ``len(pauses) + 1`` moves, one a
    request, waiting ``pauses[i]`` s before move ``i + 2`` (``pause``: ``time.sleep`` unless given), then
    forfeited, its run verified. The moves are the engine's greedy line on the game's deck; a deal whose line
    ends within those moves (about one in nine) is forfeited and another dealt."""
    wanted = len(pauses) + 1
    for _ in range(10):
        _, token = stack.register()
        auth = {"Authorization": f"Bearer {token}"}
        game = stack.post("/v1/games", json={}, headers=auth).json()
        line = play_game(_dealt_seed(stack, game["id"]))
        if len(line) > wanted:
            for seconds, move in zip([0.0, *pauses], line, strict=False):
                pause(seconds)
                response = stack.post(f"/v1/games/{game['id']}/moves", headers=auth, json={
                    "moves": [move], "expected_moves": len(game["moves"])})
                assert response.status_code == 200, response.text
                game = response.json()
            assert game["status"] == "playing", game["status"]
        game = stack.post(f"/v1/games/{game['id']}/forfeit", json={}, headers=auth).json()
        stack.wait_final(game["run_id"])
        if len(line) > wanted:
            return game, token
    raise AssertionError("ten deals in a row had greedy lines shorter than the moves wanted")


def play_at_machine_speed(stack) -> tuple[dict, str]:
    """``play_dealt`` as fast as HTTP goes, 13 moves: past ``SCOUNDREL_FLAG_MIN_MOVES`` (10 by default),
    so its move timing is judged (``fast_moves``)."""
    return play_dealt(stack, [0.0] * 12)
