"""``scoundrel log verify`` on dealt games: the dealt board, the ladder, the current season's two boards, the
week's league and a sealed daily (its seed still sealed) rebuilt from the log equal the live ones, and a
ladder place changed is named."""

import json

import pytest

from cli.main import main
from domain.boards import LADDER_GAMES
from domain.daily_seed import today
from store.boards import current_season
from store.log import publish
from tests.support.games import accept_dealt, accept_dealt_games, legal_games


@pytest.fixture(scope="module")
def copy(stack, db, signer, tmp_path_factory):
    """A ladder's worth of dealt games for one player, a few for another and a sealed daily of today."""
    games = legal_games(LADDER_GAMES + 4)
    season = current_season(db).id
    regular, _ = stack.register()
    played = accept_dealt_games(stack, regular, list(games[:LADDER_GAMES + 1]), season=season)
    assert [run["status"] for run in played] == ["verified"] * (LADDER_GAMES + 1)
    casual, _ = stack.register()
    accept_dealt_games(stack, casual, list(games[LADDER_GAMES + 1:]), season=season)
    accept_dealt(stack, casual, games[0], challenge="daily", date=today().isoformat(), season=season)
    publish(db, signer)
    path = tmp_path_factory.mktemp("copy") / "log.json"
    assert main(["log", "export", str(path)]) == 0
    return path


def test_every_board_of_dealt_games_is_rebuilt_as_the_live_one(copy, capsys):
    exported = json.loads(copy.read_text())
    season = exported["season"]
    kinds = {path.split("?")[0] for path in exported["boards"]}
    assert {"/v1/leaderboards/dealt/classic", "/v1/leaderboards/dealt/classic/ladder",
            f"/v1/seasons/{season}/leaderboards/dealt/classic",
            f"/v1/seasons/{season}/leaderboards/dealt/classic/ladder",
            f"/v1/daily/{today().isoformat()}/sealed/leaderboard"} <= kinds
    assert any(path.startswith("/v1/leagues/") for path in kinds)
    assert exported["boards"]["/v1/leaderboards/dealt/classic/ladder"]  # the regular's mean
    assert exported["boards"][f"/v1/seasons/{season}/leaderboards/dealt/classic/ladder"]
    capsys.readouterr()
    assert main(["log", "verify", str(copy)]) == 0, capsys.readouterr().out


def test_a_ladder_place_that_is_not_the_logs_mean_is_named(copy, capsys, tmp_path):
    exported = json.loads(copy.read_text())
    [place] = exported["boards"]["/v1/leaderboards/dealt/classic/ladder"]
    place["mean"] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(exported))
    capsys.readouterr()
    assert main(["log", "verify", str(tampered)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("/v1/leaderboards/dealt/classic/ladder: player ") and "mean" in line
