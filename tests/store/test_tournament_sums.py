"""Issue 34: a tournament scored by ``sum`` (``domain.boards.Order.SUM``) on a throwaway Redis, its runs placed
by the verdict script and a void's recompute, as the workers and moderators place them: each entrant's best
game on each sealed deal, added up, checked against a sum computed here from the runs; ``scoundrel check``
agrees; the standings read each place's total."""

import random
import secrets
import time

import pytest

from domain.boards import tournament_board
from store import Submission, create_player, load_runs, record_verdicts, submit_run
from store.boards.pages import board_page, board_position, ranking
from store.moderation.disputes import file_dispute, resolve_dispute
from store.operations.consistency import check
from store.runs.accepting import Dealt
from tests.support.games import legal_games
from verification import judge

TOURNAMENT, DEALS = "41", 3


@pytest.fixture
def db(archived_store_db):
    return archived_store_db


def played(db, player: str, game: dict, deal: int) -> dict:
    """A finished game of the tournament's ``deal``, accepted as a game's end accepts it and verified."""
    dealt = Dealt(secrets.token_hex(16), "tournament", tournament=TOURNAMENT, deal=deal, scoring="sum")
    run, _ = submit_run(db, player, Submission(game["seed"], game["variant"], game["moves"], dealt=dealt))
    [stored] = load_runs(db, [run.id])
    record_verdicts(db, [(stored, judge(stored))])
    time.sleep(0.002)  # distinct submission times
    [verified] = load_runs(db, [run.id])
    return {"id": verified.id, "player": player, "deal": deal, "score": verified.score,
            "ms": verified.submitted_ms, "status": verified.status}


def expected_sums(runs: list[dict]) -> list[tuple[str, int]]:
    """(player, sum of their best score on each deal), ranked: the higher sum, then the earlier latest best."""
    best: dict[tuple[str, int], dict] = {}
    for run in runs:
        if run["status"] != "verified":
            continue
        held = best.get((run["player"], run["deal"]))
        if held is None or run["score"] > held["score"]:
            best[run["player"], run["deal"]] = run
    totals: dict[str, list[int]] = {}
    for (player, _), run in best.items():
        total, latest = totals.setdefault(player, [0, 0])
        totals[player] = [total + run["score"], max(latest, run["ms"] // 1000)]
    return [(player, total) for player, (total, _) in sorted(totals.items(), key=lambda item: (-item[1][0],
                                                                                                 item[1][1]))]


def test_the_sum_of_each_entrants_best_on_each_deal_ranks_them_and_a_void_recomputes_it(db):
    rng = random.Random(34)
    games = list(legal_games(40))
    players = ["ana", "ben", "cat", "dan", "eve"]
    for player in players:
        create_player(db, player)
    runs = [played(db, player, rng.choice(games), rng.randint(1, DEALS))
            for player in players for _ in range(rng.randint(1, 5))]
    board = ranking(tournament_board(TOURNAMENT, "sum"))
    total, entries = board_page(db, board, 0, 10)
    assert [(entry["player"], entry["score"]) for entry in entries] == expected_sums(runs)
    assert total == len(players)
    assert check(db, 3600) == []

    top = entries[0]
    voided = next(run for run in runs if run["id"] == top["run_id"])
    dispute = file_dispute(db, voided["id"], "ben", "too good")
    resolve_dispute(db, dispute["id"], "mia", "void", "")
    voided["status"] = "void"
    _, entries = board_page(db, board, 0, 10)
    assert [(entry["player"], entry["score"]) for entry in entries] == expected_sums(runs)
    assert check(db, 3600) == []
    place = board_position(db, board, entries[-1]["player"], 1)
    assert place["score"] == entries[-1]["score"] and place["rank"] == len(entries)
