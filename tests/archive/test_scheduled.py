"""Issue 11: retention runs on its own in the workers, and ``scoundrel archive`` fails in one line.

A stack whose workers pass every half second with ``SCOUNDREL_HOT_DAYS=0``
(any finished run is old enough) moves runs, the one holding the player's
place too, and the cold seed board, without anyone asking.
"""

import os
import subprocess
import sys
import time

from cli.redis_server import free_port
from store.base import keys
from store.runs.records import load_run
from tests.audit.conftest import submit_final
from tests.support.games import games_by_score
from tests.support.stack import Stack


def test_workers_move_old_runs_on_their_own(tmp_path):
    stack = Stack(tmp_path, env={"SCOUNDREL_HOT_DAYS": "0", "SCOUNDREL_ARCHIVE_INTERVAL": "0.5"}).start()
    db = stack.database()
    try:
        token = stack.register("fay")[1]
        low, high = games_by_score("scheduled", 2)
        low_id = submit_final(stack, token, low)["id"]
        high_id = submit_final(stack, token, high)["id"]
        deadline = time.monotonic() + 30
        # a pass may take one run and the board before the other run's turn: wait for the whole move
        while (db.redis.exists(keys.board_places("seed", ("classic", "scheduled")))
               or len(db.archive.load([low_id, high_id])) < 2) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert set(db.archive.load([low_id, high_id])) == {low_id, high_id}
        assert load_run(db, low_id) is None and load_run(db, high_id) is None
        assert stack.get(f"/v1/runs/{low_id}").json()["status"] == "verified"
        assert stack.get("/v1/seeds/scheduled/leaderboard").json()["entries"][0]["run_id"] == high_id
    finally:
        db.close()
        stack.stop()


def test_an_unreachable_archive_is_one_line_and_status_1():
    closed = free_port()
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{closed}/0",
           "SCOUNDREL_ARCHIVE_URL": f"postgresql+psycopg://scoundrel:secret@127.0.0.1:{closed}/archive"}
    done = subprocess.run([sys.executable, "-m", "cli.main", "archive"], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 1
    assert done.stderr.startswith(f"scoundrel archive: cannot reach the archive (postgresql+psycopg://scoundrel:***"
                                  f"@127.0.0.1:{closed}/archive): ")
    assert done.stderr.count("\n") == 1 and "secret" not in done.stderr
