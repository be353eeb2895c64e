"""Dealt games over HTTP against the real service: played to the end with only
what the API shows, every response checked against the real deck afterwards.

Fair play (README, "Fair play"): no response names a card before it is face
up, the seed is revealed only when the game is over and matches its
commitment, and the game's run is verified like a submitted one (R18 for a
forfeit).
"""

import base64
import hashlib
import hmac
import random
import re
import secrets
import threading
import time
from dataclasses import replace
from datetime import timedelta

import pytest
import requests

import domain.errors
import scoundrel
import store.base.keys
import store.games.dealt
from domain.daily_seed import closes_ms, sealed_seed, today
from domain.dealer import fresh_seed, judge
from domain.errors import GameOver, MovesRefused
from domain.game import FORFEIT, PLAYING
from domain.par import quick_par
from store.games.dealt import start_game
from tests.games.conftest import GAME_IDLE, SEALED_SECRET
from tests.games.table import CARD, Table, assert_nothing_shown_early, card_of, cards_in
from tests.support.service_http import within_one_day

SEEDS: list[str] = []  # every seed dealt in this module, for the log check at the end


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def committed(seed: str) -> str:
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def check_run(stack, game: dict, seed: str, headers: dict | None = None) -> dict:
    """The game's run, verified by the worker with the verdict the engine gives the revealed deal."""
    run = stack.wait_final(game["run_id"])
    if headers:
        run = stack.get(f"/v1/runs/{game['run_id']}", headers=headers).json()
    verdict = scoundrel.replay(seed, game["moves"], game["variant"], forfeit=game["status"] == "forfeit")
    assert run["status"] == "verified" and run["outcome"] == game["status"]
    assert run["score"] == verdict.score and run["origin"] == "dealt" and run["game_id"] == game["id"]
    return run


@pytest.mark.parametrize("variant", scoundrel.VARIANTS)
def test_free_games_show_no_card_before_it_is_face_up_and_reveal_the_committed_seed(stack, variant):
    name, token = stack.register()
    for number in range(4):
        table = Table(stack, token, random.Random(f"{variant}-{number}"))
        started = table.start(variant=variant)
        assert started["seed"] is None and started["cards_left"] == 44 - len(started["room"])
        final = table.play_to_the_end()
        seed = final["seed"]
        SEEDS.append(seed)
        assert seed is not None and scoundrel.is_valid_seed(seed) and len(seed) == 64
        assert committed(seed) == started["commitment"] == final["commitment"]
        assert final["status"] == scoundrel.replay(seed, final["moves"], variant).outcome
        assert_nothing_shown_early(table, seed)
        run = check_run(stack, final, seed)
        shown = stack.get(f"/v1/games/{final['id']}").json()  # anyone may check a revealed game
        assert shown["seed"] == seed and shown["score"] == run["score"] and shown["run_id"] == run["id"]
        board = stack.get(f"/v1/leaderboards/{variant}", params={"limit": 100}).json()
        assert name not in {entry["player"] for entry in board["entries"]}  # never on an open board


def test_a_game_is_hidden_from_everyone_but_its_player_while_it_is_played(stack):
    _, token = stack.register()
    _, other = stack.register()
    game = Table(stack, token, random.Random(1)).start()
    missing = "0" * 32
    for headers in ({}, bearer(other)):
        seen = stack.get(f"/v1/games/{game['id']}", headers=headers)
        absent = stack.get(f"/v1/games/{missing}", headers=headers)
        assert seen.status_code == absent.status_code == 404
        assert seen.text.replace(game["id"], missing) == absent.text
    moved = stack.post(f"/v1/games/{game['id']}/moves", json={"moves": [game["legal_moves"][0]]},
                       headers=bearer(other))
    assert moved.status_code == 404
    assert stack.post(f"/v1/games/{game['id']}/forfeit", json={}, headers=bearer(other)).status_code == 404
    assert stack.post(f"/v1/games/{game['id']}/moves", json={"moves": ["flee"]}).status_code == 401
    wrong = bearer("sr_not-a-token")
    assert stack.post(f"/v1/games/{game['id']}/moves", json={"moves": ["flee"]}, headers=wrong).status_code == 401
    assert stack.post(f"/v1/games/{game['id']}/forfeit", json={}, headers=wrong).status_code == 401
    assert stack.get(f"/v1/games/{game['id']}", headers=wrong).status_code == 401
    assert stack.get(f"/v1/games/{game['id']}", headers=bearer(token)).json()["status"] == "playing"
    assert len(game["id"]) == 32  # 128 random bits


def test_an_illegal_move_applies_nothing_and_names_only_cards_face_up(stack):
    _, token = stack.register()
    table = Table(stack, token, random.Random(2))
    game = table.start(variant="hard")
    legal = game["legal_moves"]
    absent = next(card for card in scoundrel.CANONICAL_ORDER
                  if card[0] in "SC" and card not in game["room"]) + "b"
    refused = table.send([legal[0], absent])
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "card_not_in_room" and error["move_index"] == 1 and error["ruling"] == "R4"
    refused = table.send(["flee"])  # R14: never in hard
    assert refused.status_code == 422
    assert refused.json()["error"] == {"code": "flee_not_allowed", "move_index": 0, "ruling": "R14",
                                       "message": refused.json()["message"]}
    bad = table.send(["S8x"])
    assert bad.status_code == 422 and "moves" in bad.json()["errors"]
    assert table.reload()["moves"] == []
    mismatch = table.send([legal[0]], expected_moves=3)
    assert mismatch.status_code == 409 and mismatch.json()["moves"] == 0
    assert cards_in(refused.text + bad.text + mismatch.text) <= set(game["room"]) | {absent[:-1]}


def test_a_batch_stops_at_the_move_that_deals_new_cards(stack):
    _, token = stack.register()
    table = Table(stack, token, random.Random(3))
    game = table.start(variant="easy")
    refused = table.send(["flee", "flee"])
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "room_not_dealt" and refused.json()["error"]["move_index"] == 1
    assert table.reload()["moves"] == [] and table.reload()["room"] == game["room"]
    applied = table.send(["flee"])
    assert applied.status_code == 200 and applied.json()["moves"] == ["flee"]


def _post_at_once(stack, token: str, path: str, bodies: list[dict]) -> list:
    """``POST path`` with each body at the same moment, from threads; the answers in that order."""
    answers: list = [None] * len(bodies)
    barrier = threading.Barrier(len(bodies))

    def send(index: int) -> None:
        barrier.wait()
        answers[index] = stack.post(path, json=bodies[index], headers=bearer(token))

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _race(stack, token: str, game_id: str, bodies: list[dict]) -> list[int]:
    return [answer.status_code for answer in _post_at_once(stack, token, f"/v1/games/{game_id}/moves", bodies)]


def test_two_racing_moves_never_both_apply(stack):
    _, token = stack.register()
    table = Table(stack, token, random.Random(4))
    game = table.start(variant="easy")
    for _ in range(12):
        if game["status"] != "playing":
            break
        count = len(game["moves"])
        first, *rest = game["legal_moves"]
        second = rest[0] if rest else first
        statuses = _race(stack, token, game["id"], [{"moves": [first], "expected_moves": count},
                                                    {"moves": [second], "expected_moves": count}])
        assert sorted(statuses) == [200, 409], statuses
        game = table.reload()
        assert len(game["moves"]) == count + 1 and game["moves"][-1] in (first, second)


def test_forfeit_scores_as_dying_at_once_and_reveals_the_seed(stack):
    _, token = stack.register()
    table = Table(stack, token, random.Random(5))
    table.start()
    table.step()
    count = len(table.game["moves"])
    response = table.record(count, stack.post(f"/v1/games/{table.game['id']}/forfeit",
                                               json={"expected_moves": count}, headers=bearer(token)))
    assert response.status_code == 200, response.text
    game = table.game = response.json()
    assert game["status"] == "forfeit" and game["legal_moves"] == [] and game["seed"] is not None
    SEEDS.append(game["seed"])
    assert_nothing_shown_early(table, game["seed"])
    run = check_run(stack, game, game["seed"])
    state = scoundrel.Game(game["seed"]).state
    for move in game["moves"]:
        scoundrel.apply(state, scoundrel.MOVES[move])
    assert run["score"] == -sum(scoundrel.VALUE[c] for c in [*state.room, *state.dungeon] if c[0] in "SC")
    again = stack.post(f"/v1/games/{game['id']}/forfeit", json={}, headers=bearer(token))
    assert again.status_code == 409
    assert stack.post(f"/v1/games/{game['id']}/moves", json={"moves": ["flee"]},
                      headers=bearer(token)).status_code == 409


def test_a_game_left_idle_is_forfeited_by_the_sweeper(stack, monkeypatch):
    """The workers' sweep (``sweep_games``) at a clock moved past the idle time: a game left alone is
    forfeited with its run, a game moved since is not."""
    _, token = stack.register()
    table = Table(stack, token, random.Random(6))
    table.start()
    table.step()
    db = stack.database()
    try:
        idle_at = store.games.dealt.load_game(db, table.game["id"]).last_ms + int(GAME_IDLE * 1000)
        monkeypatch.setattr(store.games.dealt, "now_ms", lambda: idle_at - 1_000)
        store.games.dealt.sweep_games(db, GAME_IDLE)
        assert table.reload()["status"] == "playing"
        monkeypatch.setattr(store.games.dealt, "now_ms", lambda: idle_at + 1_000)
        assert store.games.dealt.sweep_games(db, GAME_IDLE) >= 1  # this one, and any an earlier test left
    finally:
        db.close()
    game = table.reload()
    assert game["status"] == "forfeit" and game["run_id"] is not None
    SEEDS.append(game["seed"])
    run = check_run(stack, game, game["seed"])
    assert run["forfeit"] is True and run["outcome"] == "forfeit"


def test_the_sealed_daily_is_one_game_a_day_and_stays_sealed_until_the_day_is_over(stack, moderator):
    within_one_day(lambda day: one_sealed_daily(stack, moderator, day))


def one_sealed_daily(stack, moderator: str, day) -> None:
    """A player's sealed daily of ``day`` (today), and another's: one game each, its seed sealed to them."""
    name, token = stack.register()
    _, other = stack.register()
    seed = sealed_seed(SEALED_SECRET, day)  # the test knows the secret; players do not
    SEEDS.append(seed)
    sealed = stack.get("/v1/daily/sealed").json()
    assert sealed == {"date": day.isoformat(), "commitment": committed(seed), "seed": None, "par": None}
    assert stack.get(f"/v1/daily/{day.isoformat()}/sealed").json() == sealed
    assert stack.post("/v1/games", json={"challenge": "daily", "variant": "easy"},
                      headers=bearer(token)).status_code == 422
    table = Table(stack, token, random.Random(7))
    game = table.start(challenge="daily")
    assert game["challenge"] == "daily" and game["date"] == day.isoformat()
    assert game["commitment"] == sealed["commitment"]
    again = stack.post("/v1/games", json={"challenge": "daily"}, headers=bearer(token))
    assert again.status_code == 409 and again.json()["game_id"] == game["id"]
    assert Table(stack, other, random.Random(8)).start(challenge="daily")["commitment"] == game["commitment"]
    final = table.play_to_the_end()
    assert final["seed"] is None  # the day is not over
    assert_nothing_shown_early(table, seed)
    assert stack.get(f"/v1/games/{final['id']}").status_code == 404
    assert stack.get(f"/v1/games/{final['id']}", headers=bearer(other)).status_code == 404
    check_run(stack, final, seed, headers=bearer(moderator))
    public = stack.get(f"/v1/runs/{final['run_id']}")
    assert public.json()["seed"] is None and public.json()["moves"] is None
    assert seed not in public.text and not cards_in(public.text)
    listed = stack.get(f"/v1/players/{name}/runs").json()["runs"][0]
    assert listed["seed"] is None and listed["moves"] is None
    assert stack.get(f"/v1/runs/{final['run_id']}/replay").status_code == 403
    assert seed not in stack.get(f"/runs/{final['run_id']}").text
    replay = stack.get(f"/v1/runs/{final['run_id']}/replay", headers=bearer(moderator)).json()
    assert replay["seed"] == seed and len(replay["move_times"]) == len(final["moves"])
    assert stack.get(f"/v1/runs/{final['run_id']}/audit-log").status_code == 200


def test_a_sealed_daily_game_of_a_day_that_is_over_shows_its_seed(stack):
    yesterday = today() - timedelta(days=1)
    seed = sealed_seed(SEALED_SECRET, yesterday)
    SEEDS.append(seed)
    revealed = stack.get(f"/v1/daily/{yesterday.isoformat()}/sealed").json()
    par = revealed.pop("par")
    assert revealed == {"date": yesterday.isoformat(), "commitment": committed(seed), "seed": seed}
    # the request's own quick search, or better: what the worker's search kept (its periodic pass queues
    # the search of yesterday's sealed daily once the day is over), its line scoring it (R15, R16)
    assert quick_par(seed, "classic").score <= par["par"] <= par["upper"]
    assert scoundrel.replay(seed, par["line"], "classic").to_dict()["score"] == par["par"]
    assert stack.get(f"/v1/daily/{(today() + timedelta(days=1)).isoformat()}/sealed").status_code == 404
    assert stack.get("/v1/daily/2026-02-30/sealed").status_code == 422
    name, _ = stack.register()
    with pytest.raises(domain.errors.SealedDayOver):  # R18: a closed day deals no new game
        start_game(stack.database(), name, "classic", seed, challenge="daily", date=yesterday.isoformat())


def _game_of_a_past_day(stack, days_ago: int) -> tuple[str, dict, str]:
    """A sealed daily game of a day that is over, started before it closed (made in the store, as if
    started before midnight): ``(token, the game as its player sees it, the day's seed)``."""
    name, token = stack.register()
    day = (today() - timedelta(days=days_ago)).isoformat()
    seed = sealed_seed(SEALED_SECRET, today() - timedelta(days=days_ago))
    SEEDS.append(seed)
    game_id = start_game(stack.database(), name, "classic", seed, challenge="daily", date=day).id
    return token, stack.get(f"/v1/games/{game_id}", headers=bearer(token)).json(), seed


def test_r18_a_move_after_the_sealed_day_closed_is_refused_and_the_game_forfeited(stack):
    token, game, seed = _game_of_a_past_day(stack, 3)
    assert game["status"] == "playing" and game["seed"] is None and game["closes_in"] == 0
    refused = stack.post(f"/v1/games/{game['id']}/moves", json={"moves": [game["legal_moves"][0]]},
                         headers=bearer(token))
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "sealed_day_over" and refused.json()["ruling"] == "R18"
    assert seed not in refused.text and not cards_in(refused.text) - set(game["room"])
    final = stack.get(f"/v1/games/{game['id']}", headers=bearer(token)).json()
    assert final["status"] == "forfeit" and final["moves"] == [] and final["seed"] == seed
    assert check_run(stack, final, seed)["forfeit"] is True


def test_r18_revealing_a_sealed_day_forfeits_its_games_still_in_play_first(stack):
    token, game, seed = _game_of_a_past_day(stack, 4)
    day = game["date"]
    assert stack.get(f"/v1/daily/{day}/sealed").json()["seed"] == seed
    final = stack.get(f"/v1/games/{game['id']}", headers=bearer(token)).json()
    assert final["status"] == "forfeit" and final["seed"] == seed
    refused = stack.post(f"/v1/games/{game['id']}/moves", json={"moves": [game["legal_moves"][0]]},
                         headers=bearer(token))
    assert refused.status_code == 409
    check_run(stack, final, seed)


def test_r18_the_sweeper_closes_yesterdays_sealed_daily_and_forfeits_its_games(stack, monkeypatch):
    """A worker's sweep just after a midnight closes the day before, read or not (the store's
    sweep, run here at a moved clock: the day after a day no one has read)."""
    token, game, seed = _game_of_a_past_day(stack, 5)
    db = stack.database()
    assert not db.redis.sismember(store.base.keys.sealed_closed(), game["date"])
    midnight = closes_ms(game["date"])
    monkeypatch.setattr(store.games.dealt, "now_ms", lambda: midnight + 5_000)
    store.games.dealt.sweep_games(db, 3600)
    assert db.redis.sismember(store.base.keys.sealed_closed(), game["date"])
    final = stack.get(f"/v1/games/{game['id']}", headers=bearer(token)).json()
    assert final["status"] == "forfeit" and final["seed"] == seed
    check_run(stack, final, seed)


def test_a_game_in_play_stays_under_a_kilobyte(stack):
    _, token = stack.register()
    table = Table(stack, token, random.Random(10))
    table.start(variant="easy")
    db = stack.database()
    while table.game["status"] == "playing" and len(table.game["moves"]) < 45:
        table.step()
        if table.game["status"] == "playing":
            assert store.games.dealt.game_bytes(db, table.game["id"]) <= 1024


def test_the_script_that_ends_a_game_stores_its_run_on_the_intake(stack):
    """No ended game is ever without its run: the ending move's one script stores it (no later step, no
    sweeper), and a second ending is refused without a second run."""
    name, token = stack.register()
    db = stack.database()
    game = Table(stack, token, random.Random(11)).start()
    stored = store.games.dealt.load_game(db, game["id"])
    forfeited = store.games.dealt.play_moves(db, stored, [], FORFEIT)
    run_id = forfeited.run_id
    assert db.redis.hget(store.base.keys.run(run_id), "game_id") == game["id"]
    assert db.redis.zscore(store.base.keys.player_runs(name), run_id) is not None
    with pytest.raises(GameOver):
        store.games.dealt.play_moves(db, stored, [], FORFEIT)
    runs = stack.get(f"/v1/players/{name}/runs").json()
    assert runs["total"] == 1 and runs["runs"][0]["game_id"] == game["id"]
    assert stack.wait_final(run_id)["outcome"] == "forfeit"
    assert not db.redis.exists("{scoundrel}:games-ending")


def _game_reads(stack, game_id: str, request) -> tuple[requests.Response, int]:
    """The response to ``request()`` and how often the game's hash was read whole (HGETALL) meanwhile,
    by any process: Redis's MONITOR shows every command, up to a marker sent after the response."""
    db = stack.database()
    marker = secrets.token_hex(8)
    try:
        with db.redis.monitor() as monitor:
            response = request()
            db.redis.echo(marker)
            reads = 0
            while (command := monitor.next_command()["command"]) != f"ECHO {marker}":
                reads += command == f"HGETALL {store.base.keys.game(game_id)}"
    finally:
        db.close()
    return response, reads


def _as_written(game: dict) -> dict:
    """A game's JSON but for what changes without a request: the time left, and the score its run gets."""
    return {name: value for name, value in game.items() if name not in ("closes_in", "score")}


def test_a_move_reads_its_game_once_and_answers_with_the_game_as_written(stack):
    """Every move request, the one that ends the game and a refused batch too, reads the game once
    (with the token) and answers with the game as its write left it: what reading it back shows. The
    ended game's run records the move times the game's hash holds."""
    _, token = stack.register()
    table = Table(stack, token, random.Random(12))
    game = table.start()
    while table.game["status"] == "playing":
        first = table.choose()
        others = [move for move in table.game["legal_moves"] if move != "flee" and card_of(move) != card_of(first)]
        for moves in ([first, others[0]], [first]) if first != "flee" and others else ([first],):
            response, reads = _game_reads(stack, game["id"], lambda moves=moves: table.send(
                moves, expected_moves=len(table.game["moves"])))
            assert reads == 1
            if response.status_code == 200:
                break
            assert response.status_code == 422 and len(moves) == 2, response.text
        assert response.status_code == 200, response.text
        table.game = response.json()
        assert _as_written(table.reload()) == _as_written(table.game)
    db = stack.database()
    try:
        stored = store.games.dealt.load_game(db, game["id"])
        assert stored is not None and len(stored.move_gaps.split(" ")) == len(stored.moves)
        assert db.redis.hget(store.base.keys.run(table.game["run_id"]), "move_gaps") == stored.move_gaps
    finally:
        db.close()


def test_a_write_returns_the_game_as_reading_it_back_finds_it(stack):
    """What a move's answer is built from, ``store.games.dealt.play_moves``' return (the moves, each one's
    time, the status, when it ended), is what the game's hash holds after it: for a new game, a
    batch of two moves, and a forfeit (which ends the game and accepts its run)."""
    name, _ = stack.register()
    db = stack.database()
    try:
        seed, moves = next((seed, pair) for seed in (fresh_seed() for _ in range(20))
                           if (pair := two_moves_that_go_on(seed)))
        assert store.games.dealt.next_deal(db, name, seed) == seed  # a new player's next deal: the seed given
        game = start_game(db, name, "classic", seed, server_seed=seed)
        assert store.games.dealt.load_game(db, game.id) == game
        time.sleep(0.01)  # the first move's time is then some ms after the deal, the second's 0 after it
        written = store.games.dealt.play_moves(db, game, moves, PLAYING)
        assert store.games.dealt.load_game(db, game.id) == written
        assert written.move_gaps.split(" ")[1] == "0" and int(written.move_gaps.split(" ")[0]) >= 10
        forfeited = store.games.dealt.play_moves(db, written, [], FORFEIT)
        assert forfeited.status == FORFEIT and forfeited.run_status == "pending"
        read = store.games.dealt.load_game(db, game.id)
        assert read is not None and replace(read, run_status="pending", run_score=None) == forfeited
    finally:
        db.close()


def two_moves_that_go_on(seed: str) -> list[str] | None:
    """Two moves on two cards of the first room dealt from ``seed`` after which the game goes on, or
    None: about one deal in 350 is a room of monsters no two of which a player survives barehanded."""
    def dealt():
        return scoundrel.start(scoundrel.deal(seed))

    moves = [move for move in scoundrel.legal_moves(dealt(), "classic") if move != "flee"]
    for pair in ([first, second] for first in moves for second in moves if card_of(first) != card_of(second)):
        try:
            if judge(dealt(), "classic", 0, pair) == PLAYING:
                return pair
        except MovesRefused:
            continue
    return None


def test_a_forfeit_reads_its_game_once_and_answers_with_the_game_as_written(stack):
    _, token = stack.register()
    game = Table(stack, token, random.Random(13)).start(variant="easy")
    response, reads = _game_reads(stack, game["id"], lambda: stack.post(
        f"/v1/games/{game['id']}/forfeit", headers=bearer(token)))
    assert response.status_code == 200, response.text
    assert reads == 1
    forfeited = response.json()
    assert forfeited["status"] == "forfeit" and forfeited["run_id"] is not None
    assert _as_written(stack.get(f"/v1/games/{game['id']}", headers=bearer(token)).json()) == _as_written(forfeited)


def test_a_game_never_grows_past_the_moves_a_run_may_have(stack):
    """Easy allows avoiding forever; a dealt game stops at RULES.md's 200 moves, so its run can be verified."""
    _, token = stack.register()
    table = Table(stack, token, random.Random(13))
    table.start(variant="easy")
    for _ in range(scoundrel.MAX_MOVES):
        assert table.send(["flee"]).status_code == 200
        table.game["moves"].append("flee")
    refused = table.send(["flee"])
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "too_many_moves"
    response = stack.post(f"/v1/games/{table.game['id']}/forfeit", json={}, headers=bearer(token))
    assert response.status_code == 200
    run = stack.wait_final(response.json()["run_id"])
    assert run["status"] == "verified" and run["outcome"] == "forfeit" and run["moves"] == ["flee"] * 200


def test_one_game_in_play_per_player_and_variant(stack):
    name, token = stack.register()
    _, other = stack.register()
    classic = Table(stack, token, random.Random(20)).start()
    again = stack.post("/v1/games", json={}, headers=bearer(token))
    assert again.status_code == 409 and again.json()["game_id"] == classic["id"], again.text
    easy = Table(stack, token, random.Random(21)).start(variant="easy")  # other variants are independent
    theirs = Table(stack, other, random.Random(22)).start()  # and other players
    listed = stack.get(f"/v1/players/{name.upper()}/games", params={"status": "playing"}, headers=bearer(token))
    assert listed.status_code == 200, listed.text
    assert [game["id"] for game in listed.json()["games"]] == [classic["id"], easy["id"]]
    assert listed.json()["games"][0] == stack.get(f"/v1/games/{classic['id']}", headers=bearer(token)).json() | {
        "closes_in": None}
    assert theirs["id"] not in listed.text and classic["seed"] is None
    assert stack.get(f"/v1/players/{name}/games", headers=bearer(other)).status_code == 403
    assert stack.get(f"/v1/players/{name}/games").status_code == 401
    assert stack.get(f"/v1/players/{name}/games", params={"status": "won"}, headers=bearer(token)).status_code == 422
    forfeited = stack.post(f"/v1/games/{classic['id']}/forfeit", json={}, headers=bearer(token))
    assert forfeited.status_code == 200
    SEEDS.append(forfeited.json()["seed"])
    after = stack.get(f"/v1/players/{name}/games", params={"status": "playing"}, headers=bearer(token)).json()
    assert [game["id"] for game in after["games"]] == [easy["id"]]
    assert Table(stack, token, random.Random(23)).start()["id"] != classic["id"]  # once it ended, a new one


def test_two_racing_starts_give_one_game(stack):
    for _ in range(5):
        name, token = stack.register()
        answers = _post_at_once(stack, token, "/v1/games", [{"variant": "hard"}] * 2)
        assert sorted(answer.status_code for answer in answers) == [201, 409], [a.text for a in answers]
        started = next(answer.json() for answer in answers if answer.status_code == 201)
        refused = next(answer.json() for answer in answers if answer.status_code == 409)
        assert refused["game_id"] == started["id"]
        listed = stack.get(f"/v1/players/{name}/games", headers=bearer(token)).json()["games"]
        assert [game["id"] for game in listed] == [started["id"]]
    # two variants at once: two games, each from its own committed deal (one start deals again)
    _, token = stack.register()
    answers = _post_at_once(stack, token, "/v1/games", [{"variant": "classic"}, {"variant": "easy"}])
    assert [answer.status_code for answer in answers] == [201, 201], [answer.text for answer in answers]
    assert answers[0].json()["commitment"] != answers[1].json()["commitment"]


def dealt_from(server_seed: str, client_seed: str) -> str:
    """The deal's seed as the README says to compute it, independently of the service's code."""
    digest = hmac.new(server_seed.encode(), client_seed.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def test_the_deal_comes_from_the_committed_server_seed_and_the_players_seed(stack):
    name, token = stack.register()
    _, other = stack.register()
    committed_to = stack.get(f"/v1/players/{name}/next-deal", headers=bearer(token))
    assert committed_to.status_code == 200 and set(committed_to.json()) == {"commitment"}
    commitment = committed_to.json()["commitment"]
    assert stack.get(f"/v1/players/{name}/next-deal", headers=bearer(token)).json()["commitment"] == commitment
    assert stack.get(f"/v1/players/{name}/next-deal", headers=bearer(other)).status_code == 403
    assert stack.get(f"/v1/players/{name}/next-deal").status_code == 401
    for bad in ("", "has space", "x" * 65, "é"):
        refused = stack.post("/v1/games", json={"client_seed": bad}, headers=bearer(token))
        assert refused.status_code == 422 and "client_seed" in refused.json()["errors"], refused.text
    daily = stack.post("/v1/games", json={"challenge": "daily", "client_seed": "mine"}, headers=bearer(token))
    assert daily.status_code == 422 and "client_seed" in daily.json()["errors"]
    client_seed = "my-own_Seed42"
    table = Table(stack, token, random.Random(24))
    started = table.start(client_seed=client_seed)
    assert started["commitment"] == commitment and started["client_seed"] == client_seed
    assert started["seed"] is None and started["server_seed"] is None
    fresh = stack.get(f"/v1/players/{name}/next-deal", headers=bearer(token)).json()["commitment"]
    assert fresh != commitment  # the start took it; a new one is drawn
    final = table.play_to_the_end()
    server_seed, seed = final["server_seed"], final["seed"]
    SEEDS.extend([server_seed, seed])
    assert committed(server_seed) == commitment and final["client_seed"] == client_seed
    assert seed == dealt_from(server_seed, client_seed) and len(seed) == 43 and scoundrel.is_valid_seed(seed)
    assert started["room"] == scoundrel.Game(seed).state.room  # the cards seen are the derived deck's
    assert_nothing_shown_early(table, seed)
    assert not [exchange for exchange in table.exchanges if not exchange.ended and server_seed in exchange.text]
    check_run(stack, final, seed)
    # without a client seed: exactly as before, the seed is the committed server seed
    plain = Table(stack, token, random.Random(25))
    assert plain.start()["commitment"] == fresh
    ended = plain.play_to_the_end()
    SEEDS.append(ended["seed"])
    assert committed(ended["seed"]) == fresh and ended["server_seed"] is None and ended["client_seed"] is None


def test_no_log_line_names_a_seed_or_a_card(stack):
    logs = "".join(path.read_text() for path in stack.root.glob("*.log"))
    # a player's name as a path asked for it, in any case: a random name spelt in capitals ("P-C8DA…")
    # would read as a card code
    logs = re.sub(r"/v1/players/[^/\"]+", "/v1/players/<name>", logs)
    assert "/v1/games" in logs and len(SEEDS) >= 14
    assert not [seed for seed in SEEDS if seed in logs]
    found = [logs[max(0, match.start() - 300):match.end() + 100] for match in CARD.finditer(logs)]
    assert not cards_in(logs), found[:3]  # where, to tell a leak from a coincidence
