"""Friends: following players, and every board listed ``?among=<name>``: that player and those
they follow ranked among themselves, each with their rank on the whole board.

Runs go the real way (open runs over HTTP, dealt runs as the game server
hands them over) and are judged by the stack's worker; each board's
expected order is worked out here, by brute force, from the verified runs
themselves: best or first run by (score, earlier submission), or the
ladder's mean of the last 20 (latest by submission time, then run id),
ties as Redis breaks them (the later name).
"""

import random
import secrets

import pytest

from domain.boards import SEED_BOARD, BoardId
from store import Submission, submit_run
from store.accounts.following import MOST_FOLLOWED
from store.base import keys
from store.base.packing import LADDER_GAMES, pack, pack_ladder, parse_iso_time
from store.boards.pages import board_among
from store.runs.accepting import Dealt
from tests.support.games import games_by_score, legal_games

PLAYERS = 30
SEED = "friends-1"


def verified(stack, run_ids: list[str]) -> list[dict]:
    return [run for run in (stack.wait_final(run_id) for run_id in run_ids) if run["status"] == "verified"]


def key_of(run: dict) -> int:
    return pack(run["score"], parse_iso_time(run["submitted_at"]))


def best(runs: list[dict]) -> dict[str, dict]:
    """Each player's best run: the higher score, then the earlier submission (a best board)."""
    places: dict[str, dict] = {}
    for run in runs:
        if run["player"] not in places or key_of(run) > key_of(places[run["player"]]):
            places[run["player"]] = run
    return places


def ranked(rank_keys: dict[str, int]) -> list[str]:
    """Players best first by rank key; at equal keys Redis's reverse order puts the later name first."""
    return [player for _, player in sorted(((key, player) for player, key in rank_keys.items()), reverse=True)]


def expected(rank_keys: dict[str, int], viewer: str, follows: set[str]) -> list[tuple[int, int, str]]:
    """``(rank among, global rank, player)`` of the viewer and those followed who hold a place."""
    order = ranked(rank_keys)
    chosen = [(order.index(player) + 1, player) for player in order if player in follows | {viewer}]
    return [(rank, global_rank, player) for rank, (global_rank, player) in enumerate(chosen, start=1)]


def among(stack, path: str, name: str, **query) -> dict:
    separator = "&" if "?" in path else "?"
    extra = "".join(f"&{key}={value}" for key, value in {"limit": 100, **query}.items())
    response = stack.get(f"{path}{separator}among={name}{extra}")
    assert response.status_code == 200, response.text
    return response.json()


def shown(listing: dict) -> list[tuple[int, int, str]]:
    return [(entry["rank"], entry["global_rank"], entry["player"]) for entry in listing["entries"]]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def crowd(stack):
    """30 players; 26 submit one to three open runs on one seed (random scores), 4 none."""
    rng = random.Random(7)
    games = games_by_score(SEED, 10)
    tokens = dict(stack.register(f"f{index:02d}") for index in range(PLAYERS))
    run_ids = [stack.submit(token, rng.choice(games)).json()["id"]
               for name, token in tokens.items() if name < f"f{PLAYERS - 4:02d}" for _ in range(rng.randint(1, 3))]
    places = best(verified(stack, run_ids))
    return {"tokens": tokens, "places": places, "keys": {player: key_of(run) for player, run in places.items()}}


def follow_all(stack, crowd, viewer: str, others: list[str]) -> None:
    for other in others:
        response = stack.http.put(stack.url(f"/v1/players/{viewer}/following/{other}"),
                                  headers=bearer(crowd["tokens"][viewer]), timeout=10)
        assert response.status_code == 204, response.text


@pytest.fixture(scope="module")
def follows(stack, crowd):
    """Three viewers, each following a random dozen (some with no place)."""
    rng = random.Random(11)
    chosen = {}
    for viewer in ("f03", "f17", "f28"):
        others = rng.sample([name for name in crowd["tokens"] if name != viewer], 12)
        follow_all(stack, crowd, viewer, others)
        chosen[viewer] = set(others)
    return chosen


def test_among_ranks_match_a_brute_force_ranking(stack, crowd, follows):
    for viewer, others in follows.items():
        listing = among(stack, "/v1/leaderboards/classic", viewer)
        wanted = expected(crowd["keys"], viewer, others)
        assert listing["among"] == viewer and listing["variant"] == "classic"
        assert shown(listing) == wanted and listing["total"] == len(wanted)
        for entry in listing["entries"]:
            run = crowd["places"][entry["player"]]
            assert (entry["score"], entry["run_id"], entry["submitted_at"]) == (
                run["score"], run["id"], run["submitted_at"])


def test_a_seed_board_lists_among_too(stack, crowd, follows):
    listing = among(stack, f"/v1/seeds/{SEED}/leaderboard?variant=classic", "f17")
    assert shown(listing) == expected(crowd["keys"], "f17", follows["f17"])
    assert [entry["run_id"] for entry in listing["entries"]] == [
        crowd["places"][entry["player"]]["id"] for entry in listing["entries"]]


def test_among_is_paged_names_any_case_and_leaves_out_players_without_a_place(stack, crowd, follows):
    wanted = expected(crowd["keys"], "f28", follows["f28"])
    page = among(stack, "/v1/leaderboards/classic", "F28", offset=2, limit=3)
    assert page["among"] == "f28" and page["total"] == len(wanted)
    assert shown(page) == wanted[2:5]
    unplaced = {name for name in follows["f28"] if name not in crowd["keys"]}
    assert unplaced and not unplaced & {entry["player"] for entry in among(stack, "/v1/leaderboards/classic",
                                                                           "f28")["entries"]}
    alone = among(stack, "/v1/leaderboards/classic", "f05")  # follows nobody
    assert shown(alone) == [(1, ranked(crowd["keys"]).index("f05") + 1, "f05")]
    assert among(stack, "/v1/leaderboards/easy", "f03") == {"variant": "easy", "among": "f03", "total": 0,
                                                             "entries": []}


def test_a_listing_without_among_keeps_its_shape(stack, crowd):
    entry = stack.get("/v1/leaderboards/classic?limit=1").json()["entries"][0]
    assert set(entry) == {"rank", "player", "score", "run_id", "submitted_at", "total", "percentile", "top_percent"}


@pytest.mark.parametrize("path", [
    "/v1/leaderboards/classic", "/v1/leaderboards/dealt/classic", "/v1/leaderboards/dealt/classic/ladder",
    f"/v1/seeds/{SEED}/leaderboard", "/v1/daily/2026-01-01/leaderboard", "/v1/daily/2026-01-01/sealed/leaderboard",
    "/v1/seasons/{season}/leaderboards/dealt/classic", "/v1/seasons/{season}/leaderboards/dealt/classic/ladder"])
def test_among_an_unknown_player_is_404_and_a_bad_name_422(stack, crowd, path):
    path = path.format(season=stack.get("/v1/seasons").json()["current"]["id"])
    missing = stack.get(f"{path}?among=nobody-here")
    assert missing.status_code == 404 and "nobody-here" in missing.json()["message"]
    bad = stack.get(f"{path}?among=no%20such")
    assert bad.status_code == 422 and "among" in bad.json()["errors"]


def test_following_is_listed_latest_first_and_unfollowing_is_idempotent(stack, crowd):
    follow_all(stack, crowd, "f10", ["f11", "F12", "f13"])
    follow_all(stack, crowd, "f10", ["f11"])  # again: kept where it was
    listed = stack.get("/v1/players/F10/following").json()
    assert listed["player"] == "f10" and listed["total"] == 3
    assert [entry["player"] for entry in listed["entries"]] == ["f13", "f12", "f11"]
    assert all(entry["since"].endswith("Z") for entry in listed["entries"])
    assert [entry["player"] for entry in stack.get("/v1/players/f10/following?limit=1&offset=1").json()[
        "entries"]] == ["f12"]
    for _ in range(2):
        gone = stack.http.delete(stack.url("/v1/players/f10/following/F12"), headers=bearer(crowd["tokens"]["f10"]),
                                 timeout=10)
        assert gone.status_code == 204 and gone.content == b""
    assert stack.get("/v1/players/f10/following").json()["total"] == 2
    assert stack.get("/v1/players/nobody-here/following").status_code == 404
    assert "limit" in stack.get("/v1/players/f10/following?limit=0").json()["errors"]


def test_following_refusals(stack, crowd):
    url = stack.url("/v1/players/f20/following/f21")
    own = bearer(crowd["tokens"]["f20"])
    for method in ("PUT", "DELETE"):
        assert stack.http.request(method, url, timeout=10).status_code == 401
        assert stack.http.request(method, url, headers=bearer("sr_wrong"), timeout=10).status_code == 401
        theirs = stack.http.request(method, url, headers=bearer(crowd["tokens"]["f21"]), timeout=10)
        assert theirs.status_code == 403
    unknown = stack.http.put(stack.url("/v1/players/f20/following/nobody-here"), headers=own, timeout=10)
    assert unknown.status_code == 404
    yourself = stack.http.put(stack.url("/v1/players/f20/following/F20"), headers=own, timeout=10)
    assert yourself.status_code == 422 and "other" in yourself.json()["errors"]
    assert stack.get("/v1/players/f20/following").json()["total"] == 0


def test_following_stops_at_the_most_one_may(stack, crowd, db):
    db.redis.zadd(keys.following("f22"), {f"ghost-{index}": index for index in range(MOST_FOLLOWED)})
    full = stack.http.put(stack.url("/v1/players/f22/following/f23"), headers=bearer(crowd["tokens"]["f22"]),
                          timeout=10)
    assert full.status_code == 409 and full.json()["most"] == MOST_FOLLOWED
    assert "unfollow" in full.json()["message"]
    # players that are no more (never registered here) break no read: they hold no place
    assert shown(among(stack, "/v1/leaderboards/classic", "f22")) == [
        (1, ranked(crowd["keys"]).index("f22") + 1, "f22")]
    gone = stack.http.delete(stack.url("/v1/players/f22/following/ghost-0"), headers=bearer(crowd["tokens"]["f22"]),
                             timeout=10)
    assert gone.status_code == 204
    follow_all(stack, crowd, "f22", ["f23"])  # room for one again
    assert stack.get("/v1/players/f22/following?limit=1").json()["entries"][0]["player"] == "f23"


@pytest.fixture(scope="module")
def dealt(stack, crowd, db):
    """Six of the crowd finish 17 to 23 dealt games each (the ladder wants 20); two play the sealed daily.
    All end in the current season, so its dealt board and ladder are the all-time ones."""
    rng = random.Random(5)
    games = list(legal_games(LADDER_GAMES + 3))
    today = stack.get("/v1/daily").json()["date"]
    season = stack.get("/v1/seasons").json()["current"]["id"]  # the season the games end in, as the game server says
    run_ids = []
    for name in ("f01", "f03", "f04", "f08", "f17", "f24"):
        for game in rng.sample(games, rng.randint(LADDER_GAMES - 3, LADDER_GAMES + 3)):
            run, _ = submit_run(db, name, Submission(game["seed"], game["variant"], game["moves"],
                                                     dealt=Dealt(secrets.token_hex(16), season=season)))
            run_ids.append(run.id)
    sealed = games_by_score("sealed-friends", 2)
    for name, game in (("f03", sealed[0]), ("f09", sealed[1])):
        run, _ = submit_run(db, name, Submission(game["seed"], game["variant"], game["moves"],
                                                 dealt=Dealt(secrets.token_hex(16), challenge="daily", date=today,
                                                             season=season)))
        run_ids.append(run.id)
    runs = verified(stack, run_ids)  # a sealed daily game is a dealt game too: on the dealt board and ladder
    return {"today": today, "season": season, "dealt": runs,
            "sealed": [run for run in runs if run["challenge"] == "daily"]}


def test_dealt_and_sealed_boards_list_among(stack, dealt, follows):
    places = best(dealt["dealt"])
    assert len(places) == 7
    listing = among(stack, "/v1/leaderboards/dealt/classic", "f03")
    assert shown(listing) == expected({player: key_of(run) for player, run in places.items()}, "f03", follows["f03"])
    seasonal = among(stack, f"/v1/seasons/{dealt['season']}/leaderboards/dealt/classic", "f03")
    assert seasonal["season"] == dealt["season"] and seasonal["entries"] == listing["entries"]
    sealed = among(stack, f"/v1/daily/{dealt['today']}/sealed/leaderboard", "f03")
    wanted = expected({run["player"]: key_of(run) for run in dealt["sealed"]}, "f03", follows["f03"])
    assert sealed["date"] == dealt["today"] and shown(sealed) == wanted


def test_the_ladder_lists_among_by_the_mean_of_the_last_20(stack, dealt, follows):
    ladder_keys, means = {}, {}
    for player in {run["player"] for run in dealt["dealt"]}:
        runs = sorted((run for run in dealt["dealt"] if run["player"] == player),
                      key=lambda run: (run["submitted_at"], run["id"]))
        if len(runs) >= LADDER_GAMES:
            last = runs[-LADDER_GAMES:]
            total = sum(run["score"] for run in last)
            ladder_keys[player] = pack_ladder(total, parse_iso_time(last[-1]["submitted_at"]))
            means[player] = (round(total / LADDER_GAMES, 2), len(runs), last[-1]["id"])
    assert 1 < len(ladder_keys) < 6
    for viewer in ("f17", "f03"):
        listing = among(stack, "/v1/leaderboards/dealt/classic/ladder", viewer)
        assert shown(listing) == expected(ladder_keys, viewer, follows[viewer])
        assert [(entry["mean"], entry["games"], entry["run_id"]) for entry in listing["entries"]] == [
            means[entry["player"]] for entry in listing["entries"]]
    seasonal = among(stack, f"/v1/seasons/{dealt['season']}/leaderboards/dealt/classic/ladder", "f03")
    assert seasonal["entries"] == among(stack, "/v1/leaderboards/dealt/classic/ladder", "f03")["entries"]


def test_the_daily_board_lists_among(stack, crowd, follows):
    """Last: its runs are on the open board too, which the tests above check against ``crowd``."""
    day = stack.get("/v1/daily").json()
    games = games_by_score(day["seed"], 3)
    run_ids = [stack.submit(crowd["tokens"][name], game).json()["id"]
               for name, game in zip(("f03", "f06", "f17"), games, strict=True)]
    runs = verified(stack, run_ids)
    listing = among(stack, f"/v1/daily/{day['date']}/leaderboard", "f03")
    assert listing["seed"] == day["seed"]
    assert shown(listing) == expected({run["player"]: key_of(run) for run in runs}, "f03", follows["f03"])


def test_equal_rank_keys_are_ordered_among_as_the_board_orders_them(db):
    """A friends' view orders by rank key itself (one ZMSCORE, not a ZREVRANK each): at equal keys, as
    ZREVRANGE does, the later name first."""
    board = BoardId(SEED_BOARD, ("classic", "among-ties"))
    places = keys.board_places(board.board.kind, board.parts)
    tied = pack(-10, 1_000)
    db.redis.zadd(places, {"tie-a": tied, "tie-c": tied, "tie-b": tied, "above": pack(5, 1), "below": pack(-50, 1)})
    order = db.redis.zrevrange(places, 0, -1)
    total, entries = board_among(db, board, ["tie-b", "below", "tie-a", "nobody", "tie-c", "above", "tie-a"], 0, 10)
    assert total == 5
    assert [(entry["player"], entry["global_rank"]) for entry in entries] == [
        (player, order.index(player) + 1) for player in order]
    assert [entry["player"] for entry in board_among(db, board, order, 1, 2)[1]] == order[1:3]
