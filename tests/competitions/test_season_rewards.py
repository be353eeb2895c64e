"""Issue 48, a season's rewards: once a season is closed, ``SCOUNDREL_SEASON_REWARDS`` is granted on its
classic dealt board, once, into the players' inboxes."""

import json

import pytest

from domain.boards import SEASON_BOARD, BoardId
from domain.rewards import table_from
from domain.seasons import parse_season
from settings import Settings, SettingsError
from store.base.packing import pack
from store.boards.pages import ranking
from store.boards.seasons import close_season
from store.competitions import settle_closed_seasons
from tests.support.in_process import stack_of

SEASON = "2026-10"
BANDS = table_from([{"from_rank": 1, "to_rank": 2, "payload": {"title": "Champion"}},
                    {"top_percent": 60, "payload": {"coins": 5}}])
SCORES = {"ivy": 20, "jon": 31, "kim": 4, "lou": -9, "max": 11}  # 60 % of 5: the first 3


@pytest.fixture(scope="module")
def stack(request):
    yield from stack_of(request)


def test_a_closed_seasons_table_is_granted_once_on_its_classic_dealt_board(stack):
    tokens = {name: stack.register(name)[1] for name in SCORES}
    db = stack.database()
    board = ranking(BoardId(SEASON_BOARD, ("classic", SEASON)))
    try:
        for order, (player, score) in enumerate(SCORES.items()):
            db.redis.zadd(board.places, {player: pack(score, 1_790_000_000_000 + order)})
            db.redis.hset(board.runs, player, f"r{order}")
        assert settle_closed_seasons(db, BANDS) == []  # not closed yet
        assert close_season(db, parse_season(SEASON))
        assert settle_closed_seasons(db, BANDS) == [SEASON]
        assert settle_closed_seasons(db, BANDS) == []
    finally:
        db.close()
    expected = {"jon": (1, {"title": "Champion"}), "ivy": (2, {"title": "Champion"}), "max": (3, {"coins": 5})}
    for player, token in tokens.items():
        items = stack.get(f"/v1/players/{player}/inbox", headers={"Authorization": f"Bearer {token}"}).json()["items"]
        assert [(item["source"], item["rank"], item["payload"]) for item in items] == (
            [(f"season:{SEASON}", *expected[player])] if player in expected else []), player


def test_the_seasons_table_is_a_setting_checked_at_start(monkeypatch):
    monkeypatch.setenv("SCOUNDREL_SEASON_REWARDS", json.dumps([{"top_percent": 1, "payload": {"gems": 3}}]))
    assert Settings.from_env().season_rewards == table_from([{"top_percent": 1, "payload": {"gems": 3}}])
    for wrong in ("[", json.dumps({"classic": []}), json.dumps([{"top_percent": 0, "payload": 1}])):
        monkeypatch.setenv("SCOUNDREL_SEASON_REWARDS", wrong)
        with pytest.raises(SettingsError, match="SCOUNDREL_SEASON_REWARDS: not a reward table"):
            Settings.from_env()
