"""The board registry reads like the README's Boards section: which runs count on which board.

"A run counts on the boards of its origin only: an open run (submitted
whole) on its variant's board, its deal's seed board and, on a daily seed,
the daily board; a dealt run on the dealt board, the ladder and, for the
sealed daily, that day's sealed board." (README, Boards). Each test below
is one clause of that sentence, or of the orders the boards rank by.
"""

from domain.boards import (
    BOARDS,
    DAILY_BOARD,
    DEALT_BOARD,
    LADDER,
    LADDER_GAMES,
    OPEN_BOARD,
    SEALED_BOARD,
    SEASON_BOARD,
    SEASON_LADDER,
    SEED_BOARD,
    TOURNAMENT_SUM_BOARD,
    BoardId,
    Order,
    boards_of,
    deal_boards,
    tournament_board,
)
from domain.run import Run
from domain.tournaments import BEST, SUM
from store.runs.records import run_from_stored

OPEN_FIELDS = {"player": "ada", "variant": "easy", "seed": "abc", "status": "verified", "score": "12",
               "submitted_ms": "1700000000000"}
DEALT_FIELDS = {**OPEN_FIELDS, "variant": "classic", "seed": "f00d", "origin": "dealt", "game_id": "g1"}


def kinds(fields: dict) -> dict[str, tuple[str, ...]]:
    return {board.board.kind: board.parts for board in boards_of(run_from_stored("r1", fields))}


def test_an_open_run_counts_on_its_variants_board_and_its_deals_seed_board():
    assert kinds(OPEN_FIELDS) == {"open": ("easy",), "seed": ("easy", "abc")}


def test_an_open_run_on_a_daily_seed_counts_on_that_days_daily_board_too():
    assert kinds({**OPEN_FIELDS, "variant": "classic", "daily": "2026-03-01"}) == {
        "open": ("classic",), "daily": ("2026-03-01",), "seed": ("classic", "abc")}


def test_a_dealt_run_counts_on_the_dealt_board_and_the_ladder_never_an_open_board():
    assert kinds(DEALT_FIELDS) == {"dealt": ("classic",), "ladder": ("classic",), "league": ("2023-W46",)}
    # a dealt run's stored day fields of an open run change nothing: its origin decides
    assert kinds({**DEALT_FIELDS, "daily": "2026-03-01"}) == kinds(DEALT_FIELDS)


def test_a_classic_dealt_run_counts_on_the_league_board_of_the_iso_week_it_ended_in():
    """Issue 34: 1700000000000 ms is 2023-11-14 (UTC), in ISO week 46; the leagues count classic only."""
    assert kinds({**DEALT_FIELDS, "submitted_ms": "1704067199999"})["league"] == ("2023-W52",)  # 2023-12-31
    assert kinds({**DEALT_FIELDS, "submitted_ms": "1704067200000"})["league"] == ("2024-W01",)  # 2024-01-01
    assert "league" not in kinds({**DEALT_FIELDS, "variant": "easy"})


def test_a_dealt_run_with_a_season_counts_on_that_seasons_dealt_board_and_ladder_too():
    assert kinds({**DEALT_FIELDS, "season": "2026-12"}) == {
        "dealt": ("classic",), "ladder": ("classic",), "season": ("classic", "2026-12"),
        "season-ladder": ("classic", "2026-12"), "league": ("2023-W46",)}
    assert "season" not in kinds({**OPEN_FIELDS, "season": "2026-12"})  # an open run: never


def test_only_the_seasons_boards_close_and_their_season_closes_them():
    assert [board.kind for board in BOARDS if board.closed_by] == ["season", "season-ladder"]
    assert BoardId(SEASON_LADDER, ("easy", "2026-W49")).closer == "2026-W49"
    assert BoardId(DEALT_BOARD, ("easy",)).closer is None


def test_a_sealed_daily_game_counts_on_that_days_sealed_board_too():
    sealed = {**DEALT_FIELDS, "challenge": "daily", "date": "2026-03-01"}
    assert kinds(sealed) == {**kinds(DEALT_FIELDS), "sealed": ("2026-03-01",)}
    assert "sealed" not in kinds({**DEALT_FIELDS, "challenge": "daily"})  # no day, no sealed board
    assert "sealed" not in kinds({**OPEN_FIELDS, "challenge": "daily", "date": "2026-03-01"})  # open: never


def test_the_orders_best_on_the_variant_seed_and_dealt_boards_first_on_the_days_the_last_20_on_the_ladder():
    """Rankings: each player's best score; the daily board: "only a player's first verified run on
    the day's seed counts"; the ladder: "the mean of a player's last 20 dealt games"."""
    assert {board.kind: board.order for board in BOARDS} == {
        "open": Order.BEST, "seed": Order.BEST, "dealt": Order.BEST,
        "daily": Order.FIRST, "sealed": Order.FIRST, "ladder": Order.LATEST, "season": Order.BEST,
        "season-ladder": Order.LATEST, "league": Order.BEST, "tournament": Order.BEST,
        "tournament-deal": Order.BEST, "tournament-sum": Order.SUM}
    assert LADDER_GAMES == 20


def test_the_seed_boards_cool_and_only_best_or_first_boards_may():
    """Memory: the seed boards, one per deal played, leave Redis when cold; a ladder's windows and a sum board
    (adding up boards of its own) stay hot."""
    assert "seed" in [board.kind for board in BOARDS if board.cools]
    assert all(board.order in (Order.BEST, Order.FIRST) for board in BOARDS if board.cools)


def test_the_variants_own_boards_are_those_keyed_by_the_variant_alone():
    assert {board.kind for board in BOARDS if board.per_variant} == {"open", "dealt", "ladder"}


def test_each_board_has_the_page_and_json_path_the_readme_lists():
    assert [(board.page, board.api) for board in (
        BoardId(OPEN_BOARD, ("easy",)), BoardId(DAILY_BOARD, ("2026-03-01",)), BoardId(SEED_BOARD, ("classic", "abc")),
        BoardId(SEED_BOARD, ("hard", "abc")), BoardId(DEALT_BOARD, ("easy",)), BoardId(LADDER, ("easy",)),
        BoardId(SEALED_BOARD, ("2026-03-01",)), BoardId(SEASON_BOARD, ("easy", "2026-12")),
        BoardId(SEASON_LADDER, ("easy", "2026-W49")))] == [
        ("/boards/easy", "/v1/leaderboards/easy"),
        ("/boards/daily-2026-03-01", "/v1/daily/2026-03-01/leaderboard"),
        ("/boards/seed/abc?variant=classic", "/v1/seeds/abc/leaderboard?variant=classic"),
        ("/boards/seed/abc?variant=hard", "/v1/seeds/abc/leaderboard?variant=hard"),
        ("/boards/dealt-easy", "/v1/leaderboards/dealt/easy"),
        ("/boards/dealt-easy-ladder", "/v1/leaderboards/dealt/easy/ladder"),
        ("/boards/sealed-2026-03-01", "/v1/daily/2026-03-01/sealed/leaderboard"),
        ("/boards/dealt-easy-2026-12", "/v1/seasons/2026-12/leaderboards/dealt/easy"),
        ("/boards/dealt-easy-2026-W49-ladder", "/v1/seasons/2026-W49/leaderboards/dealt/easy/ladder"),
    ]


def test_each_board_has_its_title_and_what_it_proves_with_its_parts_filled_in():
    assert BoardId(SEASON_LADDER, ("easy", "2026-W49")).title == "Easy: ladder, 2026-W49"
    assert "season 2026-W49, forfeits" in BoardId(SEASON_LADDER, ("easy", "2026-W49")).proves
    assert BoardId(SEED_BOARD, ("hard", "abc")).title == "Seed abc: hard"
    assert BoardId(DAILY_BOARD, ("2026-03-01",)).title == "Daily of 2026-03-01: open"


def test_the_tournaments_boards_share_their_standings_and_a_sum_tournaments_deal_is_a_query():
    standings = tournament_board("7", SUM)
    assert standings.board is TOURNAMENT_SUM_BOARD and standings.api == "/v1/tournaments/7/standings"
    assert tournament_board("7", BEST).api == standings.api and standings.page == "/tournaments/7"
    assert deal_boards(standings)[1].api == "/v1/tournaments/7/standings?deal=2"


def test_a_run_is_read_once_from_its_stored_hash_empty_fields_as_none():
    run = run_from_stored("r1", {**OPEN_FIELDS, "score": "", "daily": "", "codes": ""})
    assert run == Run(id="r1", player="ada", variant="easy", seed="abc", status="verified", score=None,
                      submitted_ms=1700000000000, origin="open", daily=None, challenge=None, date=None)
    assert run_from_stored("r2", DEALT_FIELDS).dealt and not run.dealt
