"""``scoundrel log keygen``, ``export`` and ``verify`` (in this process, through ``cli.main.main``): the boards
rebuilt from the log equal the live ones after runs, voids and restores, and each kind of tampering, in
Redis or in the archive, is named."""

import json
import os
import stat

import pytest
import sqlalchemy as sa

from cli.main import main
from store.archive.tables import log_checkpoints, log_leaves
from store.base import keys
from store.log import publish
from store.log.notes import Signer, parse_signer
from tests.log.conftest import ORIGIN
from tests.support.games import legal_games, moderator_token
from tests.support.in_process import stack_of

PLAYERS, GAMES = 5, 20  # 100 runs: each tampering is named in a copy exported again; the scale is the 10,000-run
# rebuild's (test_log_rebuild_at_scale.py)


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("log") / "log.key"
    assert main(["log", "keygen", str(path), "--name", ORIGIN]) == 0
    return path


@pytest.fixture(scope="module")
def stack(request, key_file):
    yield from stack_of(request, env={"SCOUNDREL_LOG_KEY": str(key_file)})


@pytest.fixture(scope="module")
def scene(stack, db, key_file):
    """Runs of several players, some voided and some of those restored; one player banned, one hidden and
    shown again, one erased: all in the log and signed."""
    signer = parse_signer(key_file.read_text())
    moderator = moderator_token(stack, "mia")
    games = legal_games(PLAYERS * GAMES)
    run_ids, players = [], []
    for player in range(PLAYERS):
        name, token = stack.register()
        players.append((name, token))
        batch = {"runs": list(games[player * GAMES:(player + 1) * GAMES])}
        answer = stack.post("/v1/runs/batch", json=batch, headers={"Authorization": f"Bearer {token}"}).json()
        run_ids += [result["run"]["id"] for result in answer["results"]]
    stack.until(lambda: [run["status"] == "pending" for run in stack.get(f"/v1/runs?ids={','.join(run_ids)}").json()[
        "runs"]] == [False] * len(run_ids), "every verdict")
    publish(db, signer)  # a checkpoint before the voids: the next must be consistent with it
    authority = {"Authorization": f"Bearer {moderator}"}
    voided = run_ids[::17]
    for run_id in voided:
        dispute = stack.post(f"/v1/runs/{run_id}/disputes", json={"reason": "too good"},
                             headers={"Authorization": f"Bearer {stack.register()[1]}"}).json()
        assert stack.post(f"/v1/disputes/{dispute['id']}/resolve", json={"decision": "void", "note": ""},
                          headers=authority).status_code == 200
    for run_id in voided[::2]:
        assert stack.post(f"/v1/runs/{run_id}/restore", headers=authority).status_code == 200
    (banned, _), (hidden, _), (erased, erased_token) = players[:3]
    assert stack.post(f"/v1/players/{banned}/ban", json={"reason": "cheating"}, headers=authority).status_code == 200
    assert stack.post(f"/v1/players/{hidden}/hide", json={"reason": "looking"}, headers=authority).status_code == 200
    assert stack.http.delete(stack.url(f"/v1/players/{hidden}/hide"), headers=authority).status_code == 200
    assert stack.http.delete(stack.url(f"/v1/players/{erased}"),
                             headers={"Authorization": f"Bearer {erased_token}"}).status_code in (200, 202, 204)
    publish(db, signer)
    return {"signer": signer, "run_ids": run_ids, "voided": voided, "players": [name for name, _ in players],
            "erased_runs": run_ids[2 * GAMES:3 * GAMES]}


def _export(tmp_path) -> str:
    copy = tmp_path / "log.json"
    assert main(["log", "export", str(copy)]) == 0
    return str(copy)


def _verify(tmp_path) -> tuple[int, dict]:
    copy = _export(tmp_path)
    return main(["log", "verify", copy]), json.loads(open(copy).read())


def _problems(capsys, tmp_path) -> list[str]:
    """What ``scoundrel log verify`` names in a copy exported now: one line each."""
    copy = _export(tmp_path)
    capsys.readouterr()
    status = main(["log", "verify", copy])
    lines = capsys.readouterr().out.splitlines()
    assert (status == 0) == (not lines)
    return lines


def test_keygen_writes_a_key_for_its_owner_alone_and_prints_its_verifier(key_file, capsys, tmp_path):
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    signer = parse_signer(key_file.read_text())
    other = tmp_path / "other.key"
    assert main(["log", "keygen", str(other), "--name", ORIGIN]) == 0
    assert capsys.readouterr().out.strip() == parse_signer(other.read_text()).verifier.text()
    assert main(["log", "keygen", str(other)]) == 1  # never overwritten
    assert "exists" in capsys.readouterr().err
    assert signer.verifier != parse_signer(other.read_text()).verifier


def test_the_boards_rebuilt_from_the_log_are_the_live_boards(scene, capsys, tmp_path):
    status, copy = _verify(tmp_path)
    assert status == 0, capsys.readouterr().out
    leaves = [json.loads(entry["leaf"]) for entry in copy["entries"]]
    kinds = [leaf["kind"] for leaf in leaves]
    assert kinds.count("verdict") == PLAYERS * GAMES
    assert kinds.count("void") == len(scene["voided"]) and kinds.count("restore") == len(scene["voided"][::2])
    assert (kinds.count("withhold"), kinds.count("show"), kinds.count("erase")) == (2, 1, 1)
    assert len(copy["checkpoints"]) == 2 and copy["boards"]["/v1/leaderboards/classic"]
    seed_boards = [path for path in copy["boards"] if path.startswith("/v1/seeds/")]
    assert len(seed_boards) == len({leaf["seed"] for leaf in leaves if leaf["kind"] == "verdict"})  # each rebuilt
    erased = set(scene["erased_runs"])  # gone with their player: nothing to replay
    replayed = [run_id for run_id in scene["run_ids"] if run_id not in erased]
    assert sorted(copy["runs"]) == sorted(set(replayed) - set(scene["voided"][1::2]))  # the log ends them verified


def _archive_change(db, statement):
    with db.archive.engine.begin() as connection:
        connection.execute(statement)


def _leaf(db, index: int) -> str:
    with db.archive.engine.connect() as connection:
        return connection.execute(sa.select(log_leaves.c.leaf).where(log_leaves.c.index == index)).scalar_one()


def _set_leaf(db, index: int, text: str) -> None:
    _archive_change(db, log_leaves.update().where(log_leaves.c.index == index).values(leaf=text))


def test_a_score_changed_in_the_archive_is_named(scene, db, capsys, tmp_path):
    text = _leaf(db, 3)
    score = json.loads(text)["score"]
    _set_leaf(db, 3, text.replace(f'"score":{score}', f'"score":{score + 5}'))
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        _set_leaf(db, 3, text)
    assert any("leaf 3: its hash" in problem for problem in problems)
    assert any("root is not the tree" in problem for problem in problems)


def test_a_leaf_deleted_from_the_archive_is_named(scene, db, capsys, tmp_path):
    with db.archive.engine.connect() as connection:
        row = connection.execute(sa.select(log_leaves).where(log_leaves.c.index == 5)).one()
    _archive_change(db, log_leaves.delete().where(log_leaves.c.index == 5))
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        _archive_change(db, log_leaves.insert().values(**row._mapping))
    assert any("leaf 5: served as leaf 6" in problem for problem in problems)


def test_two_leaves_swapped_in_the_archive_are_named(scene, db, capsys, tmp_path):
    first, second = _leaf(db, 7), _leaf(db, 8)
    _set_leaf(db, 7, second)
    _set_leaf(db, 8, first)
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        _set_leaf(db, 7, first)
        _set_leaf(db, 8, second)
    assert any("leaf 7: its text says it is leaf 8" in problem for problem in problems)
    assert any("leaf 8: its text says it is leaf 7" in problem for problem in problems)


def test_a_checkpoint_signed_with_another_key_is_named(scene, db, capsys, tmp_path):
    forger = Signer.generate(ORIGIN)
    with db.archive.engine.connect() as connection:
        size = connection.execute(sa.select(sa.func.max(log_checkpoints.c.size))).scalar_one()
    note = forger.sign(f"{ORIGIN}\n{size + 1}\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n")
    _archive_change(db, log_checkpoints.insert().values(size=size + 1, note=note, signed_ms=0))
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        _archive_change(db, log_checkpoints.delete().where(log_checkpoints.c.size == size + 1))
    assert problems == [f"checkpoint of size {size + 1}: no signature by {scene['signer'].verifier.text()}"]


def test_a_score_changed_in_redis_is_named(scene, db, capsys, tmp_path):
    run_id = scene["run_ids"][1]
    score = db.redis.hget(keys.run(run_id), "score")
    db.redis.hset(keys.run(run_id), "score", int(score) + 7)
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        db.redis.hset(keys.run(run_id), "score", score)
    assert problems == [f"run {run_id}: the service shows verified {int(score) + 7}, the log verified {score}"]


def test_a_place_taken_off_a_live_board_in_redis_is_named(scene, db, capsys, tmp_path):
    board = keys.board_places("open", ("classic",))
    player, rank = db.redis.zrevrange(board, 0, 0, withscores=True)[0]
    db.redis.zrem(board, player)
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        db.redis.zadd(board, {player: rank})
    assert len(problems) == 1 and "has no place on the live board" in problems[0]


def test_places_withheld_without_a_leaf_are_named_on_every_board(scene, db, capsys, tmp_path):
    """A player's places quietly taken off every board (a ban the log was not told of): each board's
    difference named, the open board and every seed board the player's runs count on."""
    from store.sanctions.places import set_places

    player = scene["players"][3]
    set_places(db, player, withhold=True)
    try:
        problems = _problems(capsys, tmp_path)
    finally:
        set_places(db, player, withhold=False)
    assert any(problem.startswith("/v1/leaderboards/classic: player ") for problem in problems)
    seed_problems = [problem for problem in problems if problem.startswith("/v1/seeds/")]
    counted = set(scene["run_ids"][3 * GAMES:4 * GAMES]) - set(scene["voided"][1::2])  # each on a seed of its own
    assert len(seed_problems) == len(counted) and all("has no place on the live board" in p for p in seed_problems)


def test_verify_from_a_running_service_over_http(scene, stack, capsys):
    """``--from URL``: the same checks over a real socket (the stack's app behind werkzeug's server)."""
    import threading

    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, stack.app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        capsys.readouterr()
        status = main(["log", "verify", "--from", f"http://127.0.0.1:{server.server_port}",
                       "--key", scene["signer"].verifier.text()])
    finally:
        server.shutdown()
    captured = capsys.readouterr()
    assert status == 0, captured.out
    assert "the boards are what the log says" in captured.err
    assert main(["log", "verify", "--from", "http://127.0.0.1:1", "--key", "x"]) != 0  # one line, not a trace
    assert main(["log", "verify"]) == 2


def test_a_copy_the_service_fails_to_answer_in_full_is_refused_not_blamed_on_the_boards(scene, stack):
    """A run the service failed to send (a 503, a rate limit) ends the copy with one line: an incomplete copy
    would have the audit name the missing run as the service's doing."""
    from cli.log import collect

    def get(path: str) -> tuple[int, str]:
        if path.startswith("/v1/runs?ids="):
            return 503, '{"message": "busy"}'
        answer = stack.get(path)
        return answer.status_code, answer.text

    with pytest.raises(LookupError, match=r"/v1/runs\?ids=\S+ answered 503: the copy would be incomplete"):
        collect(get)
