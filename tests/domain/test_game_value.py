"""The dealt game as a value: what a write makes of it, and what follows from its fields alone."""

from domain.daily_seed import closes_ms
from domain.game import DAILY, FORFEIT, PLAYING, Game, game_run_id


def game(**fields) -> Game:
    value = {"id": "b" * 32, "player": "ada", "variant": "classic", "challenge": "", "date": "", "seed": "s" * 64,
             "server_seed": "s" * 64, "client_seed": "", "moves": ["D9"], "move_gaps": "1500", "status": PLAYING,
             "created_ms": 1_000, "last_ms": 2_500, "ended_ms": None, "run_status": None, "run_score": None}
    return Game(**value | fields)


def test_moves_played_together_take_their_time_from_the_last_move_the_first_of_them_only():
    played = game().played(["H2", "S7b"], PLAYING, 4_000)
    assert played.moves == ["D9", "H2", "S7b"]
    assert played.move_gaps == "1500 1500 0"
    assert played.last_ms == 4_000 and played.ended_ms is None


def test_the_first_move_of_a_game_has_no_gap_before_it_but_the_deal():
    played = game(moves=[], move_gaps="", last_ms=1_000).played(["D9"], PLAYING, 1_200)
    assert played.move_gaps == "200"


def test_a_game_that_ends_has_its_end_time_and_its_run():
    ended = game().played([], FORFEIT, 9_000)
    assert ended.moves == ["D9"] and ended.move_gaps == "1500"
    assert ended.status == FORFEIT and ended.ended_ms == 9_000
    assert ended.run_id == game_run_id(ended.id) and game().run_id is None


def test_a_free_game_counts_under_its_variant_a_sealed_one_under_its_day():
    assert game().slot == "classic" and game().closes_ms is None
    sealed = game(challenge=DAILY, date="2026-11-30")
    assert sealed.slot == "daily:2026-11-30"
    assert sealed.closes_ms == closes_ms("2026-11-30") == 1_796_083_200_000  # 2026-12-01T00:00:00Z
