"""The clairvoyant flag as the workers raise it (``worker.flags.flag_clairvoyance``), over a throwaway Redis:
each verified dealt game judged once and kept as a tally, the player flagged with the evidence, never twice
for the same games.

The games are played by the bench's bots (``bench/clairvoyance.py``): one reads the next cards, one does not.
"""

import pytest

from bench.clairvoyance import FairBot, Peeker, play
from domain.run import DEALT, Run
from scoundrel.rules import CLASSIC
from store.base import keys
from store.moderation.clairvoyance import GameTally, note_tally
from store.moderation.flags import CLAIRVOYANT, flag_page, run_flags
from verification.clairvoyance import FAIR_RATE, THRESHOLD, WINDOW, game_tally
from worker.flags import flag_clairvoyance

GAMES = 8


def dealt_runs(player: str, choose, games: int = GAMES, first_ms: int = 1_000) -> list[Run]:
    """``games`` verified classic dealt runs of ``player``, each a game ``choose`` played."""
    runs = []
    for number in range(games):
        seed = f"{player}-{number}"
        runs.append(Run(f"{player}run{number:04d}", player, CLASSIC, seed, "verified", 0, first_ms + number, DEALT,
                        moves=tuple(play(seed, choose))))
    return runs


@pytest.fixture(scope="module")
def reader_runs() -> list[Run]:
    return dealt_runs("reader", Peeker("reader", 1.0, FairBot("reader", samples=16, slack=0.0)))


def test_a_player_who_reads_the_deck_is_flagged_once_with_the_evidence(store_db, reader_runs):
    for run in reader_runs:  # one verification job a game, as the games end
        flag_clairvoyance(store_db, [run], kept=100)
    total, [flag] = flag_page(store_db, CLAIRVOYANT, "open", 0, 10)
    assert total == 1 and flag.players == ["reader"] and flag.run_id is None
    detail = flag.detail
    assert flag.run_ids == detail["runs"] == [run.id for run in reader_runs[:len(detail["runs"])]]
    assert detail["perfect"] == detail["telling"] >= 20
    assert detail["fair_rate"] == FAIR_RATE and detail["threshold"] == THRESHOLD and detail["tail"] < THRESHOLD
    assert flag.id in {found.id for found in run_flags(store_db, reader_runs[0].id)}

    flag_clairvoyance(store_db, reader_runs, kept=100)  # every job again: nothing new
    assert flag_page(store_db, CLAIRVOYANT, None, 0, 10)[0] == 1


def test_a_game_is_kept_once_and_a_flag_s_games_are_not_cited_again(store_db, reader_runs):
    run = reader_runs[-1]
    tally = game_tally(run.seed or "", run.moves or (), CLASSIC)
    cited = flag_page(store_db, CLAIRVOYANT, None, 0, 10)[1][0].run_ids
    uncited = [game for game in reader_runs if game.id not in cited]
    after = note_tally(store_db, run, tally.n, tally.k, WINDOW)
    assert [game.run_id for game in after] == [game.id for game in uncited]
    assert after[-1] == GameTally(run.id, tally.n, tally.k)
    assert store_db.redis.zcard(keys.clairvoyance_tallies("reader")) == GAMES + 1  # the games and the mark


def test_the_window_keeps_the_newest_games(store_db, reader_runs):
    run = reader_runs[0]
    for number in range(WINDOW + 5):
        later = Run(f"late{number:04d}", "window", CLASSIC, run.seed, "verified", 0, 10_000 + number, DEALT)
        kept = note_tally(store_db, later, 1, 0, WINDOW)
    assert [game.run_id for game in kept] == [f"late{number:04d}" for number in range(5, WINDOW + 5)]


def test_a_fair_player_is_not_flagged(store_db):
    flag_clairvoyance(store_db, dealt_runs("fair", FairBot("fair", samples=16, slack=0.0)), kept=100)
    assert not [flag for flag in flag_page(store_db, CLAIRVOYANT, None, 0, 10)[1] if flag.players == ["fair"]]


def test_only_verified_classic_dealt_games_are_judged(store_db, reader_runs):
    others = [Run(f"other{number}", "others", variant, run.seed, status, 0, number, origin, moves=run.moves)
              for number, (variant, status, origin) in enumerate([(CLASSIC, "verified", "open"),
                                                                   ("easy", "verified", DEALT),
                                                                   (CLASSIC, "rejected", DEALT)])
              for run in reader_runs[:1]]
    flag_clairvoyance(store_db, others, kept=100)
    assert not store_db.redis.exists(keys.clairvoyance_tallies("others"))
