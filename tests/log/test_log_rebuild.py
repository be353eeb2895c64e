"""``scoundrel log verify``'s rebuild of each kind of board from leaves alone (``verification.log_audit``): a
best, first, ladder and sum board by its order, a player's places withheld and shown again, an erased
player's runs gone but for a closed sealed day's kept place, a sealed seed replayable once revealed, a
past season's boards skipped. The leaves are written here as the store writes them (``domain.transparency``)."""

import base64

from domain.dealer import commitment
from domain.transparency import ERASE, SHOW, VERDICT, VOID, WITHHOLD, Leaf, PlayerLeaf, SeedLeaf, leaf_hash, leaf_text
from verification.log_audit import LogCopy, audit, read_log, replayable, skipped_boards

SEED = "a" * 64


def _copy(changes, boards=None, season="2026-12") -> LogCopy:
    entries = [{"index": index, "leaf": (text := leaf_text(change, index)),
                "leaf_hash": base64.b64encode(leaf_hash(text)).decode()} for index, change in enumerate(changes)]
    return LogCopy("", [], entries, boards=boards or {}, season=season)


def _run(run: str, player: str, score: int, boards: tuple[str, ...], submitted: int, kind: str = VERDICT,
         verdict: str = "verified", seed: str = SEED) -> Leaf:
    return Leaf(kind, submitted, run, "dealt", "classic", seed, "m", verdict, score, "scoundrel-1", "1", player,
                boards, submitted)


def _board_problems(copy: LogCopy) -> list[str]:
    return [problem for problem in audit(copy) if problem.startswith("/")]


def _entry(run: str, score: int) -> dict:
    return {"run_id": run, "score": score, "player": "shown-by-name"}


def test_a_first_board_counts_the_earliest_submitted_run_whatever_its_leaf_order():
    daily = ("daily:2026-12-05",)
    changes = [_run("late", "p", 30, daily, submitted=200), _run("early", "p", 10, daily, submitted=100)]
    path = "/v1/daily/2026-12-05/leaderboard"
    assert _board_problems(_copy(changes, {path: [_entry("early", 10)]})) == []
    assert _board_problems(_copy(changes, {path: [_entry("late", 30)]})) == [
        f"{path}: player p has score 30 on the live board, score 10 by the log"]


def test_a_ladder_is_the_mean_of_the_latest_games_and_counts_them_all():
    ladder = ("ladder:classic",)
    changes = [_run(f"r{n:02d}", "p", n, ladder, submitted=n) for n in range(21)]  # the window: 1..20
    path = "/v1/leaderboards/dealt/classic/ladder"
    right = {"run_id": "r20", "mean": 10.5, "games": 21}
    assert _board_problems(_copy(changes, {path: [right]})) == []
    assert _board_problems(_copy(changes, {path: [{**right, "mean": 10.45}]})) == [
        f"{path}: player p has mean 10.45 over 21 games on the live board, mean 10.50 over 21 games by the log"]
    assert _board_problems(_copy(changes[:19], {path: []})) == []  # fewer than 20 games: no place yet


def test_a_tournaments_sum_adds_each_deals_best():
    def deal(run: str, number: int, score: int) -> Leaf:
        return _run(run, "p", score, (f"tournament-deal:t1:{number}", "tournament-sum:t1"), submitted=number)

    changes = [deal("a", 1, 5), deal("b", 1, 9), deal("c", 2, -3)]
    live = {"/v1/tournaments/t1/standings": [_entry("c", 6)], "/v1/tournaments/t1/standings?deal=1": [_entry("b", 9)],
            "/v1/tournaments/t1/standings?deal=2": [_entry("c", -3)]}
    assert _board_problems(_copy(changes, live)) == []
    changes.append(_run("b", "p", 9, ("tournament-deal:t1:1", "tournament-sum:t1"), submitted=1, kind=VOID,
                        verdict="void"))
    assert "/v1/tournaments/t1/standings: player p has score 6 on the live board, score 2 by the log" in (
        _board_problems(_copy(changes, live)))


def test_withheld_places_leave_every_board_and_come_back_when_shown():
    boards = ("dealt:classic", "season:classic:2026-12")
    changes = [_run("r", "p", 7, boards, submitted=1), PlayerLeaf(WITHHOLD, 2, "p")]
    live = {"/v1/leaderboards/dealt/classic": [], "/v1/seasons/2026-12/leaderboards/dealt/classic": []}
    assert _board_problems(_copy(changes, live)) == []
    changes.append(PlayerLeaf(SHOW, 3, "p"))
    assert len(_board_problems(_copy(changes, live))) == 2  # back on both: the live boards lack the place


def test_an_erased_players_runs_leave_but_a_closed_sealed_days_place_is_kept_runless():
    day = "2026-12-05"
    sealed = ("sealed:" + day, "dealt:classic")
    changes = [_run("r", "p", 12, sealed, submitted=1, seed="commitment:" + commitment(SEED)),
               SeedLeaf(2, f"daily:{day}", SEED, commitment(SEED)), PlayerLeaf(ERASE, 3, "p")]
    path = f"/v1/daily/{day}/sealed/leaderboard"
    kept = {"run_id": None, "score": 12, "player": "deleted-1"}
    assert _board_problems(_copy(changes, {path: [kept], "/v1/leaderboards/dealt/classic": []})) == []
    assert _board_problems(_copy(changes, {path: []})) == [
        f"{path}: erased players' places kept with scores [], by the log [12]"]
    state = read_log(_copy(changes))
    assert not replayable(state.runs["r"], state)  # erased: the run is gone, nothing to replay


def test_a_sealed_seed_is_replayable_once_revealed_and_a_false_reveal_is_named():
    leaf = _run("r", "p", 12, (), submitted=1, seed="commitment:" + commitment(SEED))
    state = read_log(_copy([leaf]))
    assert not replayable(state.runs["r"], state)
    state = read_log(_copy([leaf, SeedLeaf(2, "daily:2026-12-05", SEED, commitment(SEED))]))
    assert replayable(state.runs["r"], state) and state.seed_of(state.runs["r"]) == SEED
    lie = _copy([leaf, SeedLeaf(2, "daily:2026-12-05", "b" * 64, commitment(SEED))])
    assert "leaf 1: the seed it reveals is not the one its commitment stands for" in audit(lie)


def test_a_past_seasons_boards_are_skipped_saying_why():
    changes = [_run("r", "p", 7, ("season:classic:2026-11", "season:classic:2026-12"), submitted=1)]
    copy = _copy(changes, {"/v1/seasons/2026-12/leaderboards/dealt/classic": [_entry("r", 7)]})
    skipped = skipped_boards(copy, read_log(copy))
    assert list(skipped) == ["/v1/seasons/2026-11/leaderboards/dealt/classic"]
    assert "frozen at the season's close" in skipped["/v1/seasons/2026-11/leaderboards/dealt/classic"]
    assert _board_problems(copy) == []


def test_a_board_no_kind_has_is_named():
    copy = _copy([_run("r", "p", 7, ("open:classic", "nowhere:classic"), submitted=1)],
                 {"/v1/leaderboards/classic": [_entry("r", 7)]})
    assert "leaf 0: names a board no kind has, 'nowhere:classic'" in audit(copy)
    assert _board_problems(copy) == []
