"""R18 for a sealed daily: its deal is shown once its UTC day is over, and only after the close is
recorded (the act the caller hands in), so no game dealt from it can move while it shows. R19: a
tournament's sealed deck waits on its tournament's seal the same way."""

from dataclasses import replace
from datetime import date, timedelta

from domain.daily_seed import today
from domain.dealer import is_revealed, may_see
from domain.game import DAILY, FORFEIT, PLAYING, Game
from domain.run import DEALT, Run
from domain.sealing import day_revealed, shown


def game(status: str, day: str = "") -> Game:
    return Game(id="a" * 32, player="ada", variant="classic", challenge=DAILY if day else "", date=day,
                seed="s" * 64, server_seed="s" * 64, client_seed="", moves=[], move_gaps="", status=status,
                created_ms=0, last_ms=0, ended_ms=None, run_status=None, run_score=None)


def test_r18_a_day_still_running_is_not_revealed_and_not_closed():
    closed: list[date] = []
    assert not day_revealed(today(), closed.append)
    assert closed == []


def test_r18_a_day_that_is_over_is_closed_before_it_is_revealed():
    yesterday = today() - timedelta(days=1)
    closed: list[date] = []
    assert day_revealed(yesterday, closed.append)
    assert closed == [yesterday]


def test_a_free_games_seed_shows_once_it_ends_and_asks_no_day():
    def no_day(seal: str) -> bool:
        raise AssertionError("a free game waits on no seal")

    assert not is_revealed(game(PLAYING), no_day)
    assert is_revealed(game(FORFEIT), no_day)


def test_a_sealed_games_seed_waits_for_its_day_even_once_it_ends():
    day = today().isoformat()
    assert not is_revealed(game(FORFEIT, day), lambda _: False)
    assert is_revealed(game(FORFEIT, day), lambda asked: asked == f"daily:{day}")
    assert not may_see(game(FORFEIT, day), "bob", lambda _: False)
    assert may_see(game(PLAYING, day), "ada", lambda _: False)


def test_a_sealed_run_hides_its_seed_and_moves_from_all_but_moderators_until_revealed():
    run = Run("r", "ada", "classic", "s", "verified", 7, 1, DEALT, challenge=DAILY, date=today().isoformat(),
              moves=("flee",))
    assert shown(run, lambda _: False) == replace(run, seed=None, moves=None)
    assert shown(run, lambda _: False, moderator=True) == run
    assert shown(run, lambda _: True) == run
    assert shown(replace(run, challenge=None), lambda _: False).seed == "s"


def test_r19_a_tournaments_sealed_deck_waits_for_its_tournament_and_a_fresh_deck_for_its_end():
    sealed = replace(game(FORFEIT), challenge="tournament", tournament="7", deal=2)
    assert not is_revealed(sealed, lambda _: False)
    assert is_revealed(sealed, lambda asked: asked == "tournament:7")
    fresh = replace(sealed, deal=0)
    assert fresh.seal is None and is_revealed(fresh, lambda _: False)
    run = Run("r", "ada", "classic", "s", "verified", 7, 1, DEALT, challenge="tournament", moves=("flee",),
              tournament="7", deal=1)
    assert shown(run, lambda asked: asked != "tournament:7") == replace(run, seed=None, moves=None)
    assert shown(replace(run, deal=0), lambda _: False) == replace(run, deal=0)
