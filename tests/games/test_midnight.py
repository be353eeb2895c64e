"""The sealed daily across midnight, against the real service with its clock moved (Debian's
``faketime`` around the API and the worker): R18's close at the end of the UTC day.

At no instant is the day's seed shown (its commitment endpoint, its runs,
their replays, its board, its page) while a game dealt from it can move: a
move after midnight is refused and forfeits the game, and the first read
that shows the deal forfeits every game of the day still in play first.
"""

import math
import random
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

import scoundrel
from domain.daily_seed import sealed_seed
from tests.games.conftest import SEALED_SECRET
from tests.games.table import Table, assert_nothing_shown_early, cards_in
from tests.support.stack import Stack, started_before

pytestmark = pytest.mark.slow

BEFORE_MIDNIGHT = 12  # seconds from the stack's start to the service's midnight, at first (``started_before``)
TRIES = 4  # stacks started at most, each with twice the time before midnight of the one before
WATCHED = 3  # seconds before midnight the reads are watched for, at least


def stack_before_midnight(root, seconds: int) -> tuple[Stack, float]:
    """A stack whose clock starts at most ``seconds`` before its next midnight, and that midnight; the sweeper
    all but off, so that what is tested here is the move path and the reads, not the sweeper's own close of
    the day."""
    now = time.time()
    midnight = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(1)
    # faketime's offset is whole seconds: rounded up, the service's clock starts at most 1 s past the aim,
    # never before it, so however fast the stack starts, midnight is less than ``seconds`` away
    offset = math.ceil(midnight.timestamp() - seconds - now)
    return Stack(root, clock_offset=offset, env={
        "SCOUNDREL_SEALED_SECRET": SEALED_SECRET, "SCOUNDREL_SWEEP_INTERVAL": "3600",
    }).start(), midnight.timestamp()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class Watcher(threading.Thread):
    """Reads everything that could show the day's deal, over and over until ``until`` (the service's
    clock), recording when each read was sent and whether it showed the seed."""

    def __init__(self, stack, day: str, seed: str, run_id: str, until: float):
        super().__init__(daemon=True)
        self.stack, self.seed, self.until = stack, seed, until
        self.paths = [f"/v1/daily/{day}/sealed", f"/daily/{day}", f"/v1/runs/{run_id}",
                      f"/v1/runs/{run_id}/replay", f"/v1/daily/{day}/sealed/leaderboard", f"/runs/{run_id}"]
        self.reads: list[tuple[float, str, bool]] = []

    def run(self) -> None:
        while True:
            for path in self.paths:
                sent = self.stack.now()
                if sent >= self.until:  # a round of reads on a busy machine can take longer than the margin
                    return
                text = self.stack.get(path).text
                self.reads.append((sent, path, self.seed in text))
            time.sleep(0.05)


def the_day_before_midnight(stack, midnight: float) -> dict | None:
    """Before ``midnight``: one sealed game played to its end (a run of the day), two left in play (one moved
    once); None if midnight came first or too soon to watch the reads (the machine was slower than the time
    given)."""
    started = stack.now()
    if started >= midnight:
        return None
    day = datetime.fromtimestamp(started, UTC).date()
    (name_done, token_done), (name_a, token_a), (name_b, token_b) = (stack.register(), stack.register(),
                                                                      stack.register())
    done = Table(stack, token_done, random.Random(1))
    done.start(challenge="daily")
    final = done.play_to_the_end()
    assert final["seed"] is None and final["date"] == day.isoformat()
    table_a = Table(stack, token_a, random.Random(2))
    game_a = table_a.start(challenge="daily")
    assert 0 < game_a["closes_in"] <= midnight - started and game_a["closes_at"] == (
        datetime.fromtimestamp(midnight, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"))
    table_a.step(alone=True)  # still in play, whatever the day's deal
    game_b = Table(stack, token_b, random.Random(3)).start(challenge="daily")
    stack.wait_final(final["run_id"])
    if stack.now() > midnight - WATCHED:
        return None
    return {"day": day, "midnight": midnight, "names": (name_done, name_a, name_b), "done": done,
            "final": final, "table_a": table_a, "game_a": table_a.game, "game_b": game_b, "token_b": token_b}


@pytest.fixture(scope="module")
def before_midnight(tmp_path_factory):
    """A stack and its day's games before midnight (``the_day_before_midnight``; ``started_before``: a slow
    machine gets more time, never a failure)."""
    running, day = started_before(lambda seconds: stack_before_midnight(tmp_path_factory.mktemp("midnight"), seconds),
                                  the_day_before_midnight, BEFORE_MIDNIGHT, TRIES)
    yield running, day
    running.kill()  # under faketime a quick shutdown never ends (nothing of this stack is kept)


def test_the_sealed_seed_is_never_shown_while_a_game_dealt_from_it_can_move(before_midnight):
    stack, before = before_midnight
    day, midnight, final, done = before["day"], before["midnight"], before["final"], before["done"]
    table_a, game_a, game_b, token_b = before["table_a"], before["game_a"], before["game_b"], before["token_b"]
    name_done, name_a, name_b = before["names"]
    seed = sealed_seed(SEALED_SECRET, day)
    watcher = Watcher(stack, day.isoformat(), seed, final["run_id"], until=midnight - 0.3)
    watcher.start()
    watcher.join()
    assert len(watcher.reads) > 12 and not [read for read in watcher.reads if read[2]], watcher.reads
    while stack.now() < midnight + 0.3:
        time.sleep(0.05)
    # after midnight, nothing read yet: a move is refused, and forfeits the game (R18)
    refused = table_a.send([game_a["legal_moves"][0]], expected_moves=len(game_a["moves"]))
    assert refused.status_code == 409, refused.text
    assert refused.json()["reason"] == "sealed_day_over" and refused.json()["ruling"] == "R18"
    assert seed not in refused.text
    # game B did not move after midnight, and nothing of the day is shown yet: B waits for the first
    # read that would show the deal (here A's, over now), which forfeits it first
    waiting = stack.get(f"/v1/games/{game_b['id']}", headers=bearer(token_b)).json()
    assert waiting["status"] == "playing" and waiting["seed"] is None and waiting["closes_in"] == 0
    forfeited = table_a.reload()
    assert forfeited["status"] == "forfeit" and forfeited["moves"] == game_a["moves"]
    assert forfeited["seed"] == seed
    after_b = stack.get(f"/v1/games/{game_b['id']}", headers=bearer(token_b)).json()
    assert after_b["status"] == "forfeit" and after_b["seed"] == seed and after_b["moves"] == []
    revealed = stack.get(f"/v1/daily/{day.isoformat()}/sealed").json()
    assert revealed["seed"] == seed
    # the game played to its end counts its day in its player's streak; the two the close forfeited do not
    done_streak = stack.get(f"/v1/players/{name_done}/streak").json()
    assert (done_streak["last_date"], done_streak["current"]) == (day.isoformat(), 1)  # yesterday's: alive
    assert [stack.get(f"/v1/players/{name}/streak").json()["last_date"] for name in (name_a, name_b)] == [None, None]
    # then everything is open, and checks out against the revealed deal
    assert_nothing_shown_early(table_a, seed)
    assert_nothing_shown_early(done, seed)
    for game in (final, forfeited, after_b):
        run = stack.wait_final(stack.get(f"/v1/games/{game['id']}").json()["run_id"])
        verdict = scoundrel.replay(seed, run["moves"], "classic", forfeit=run["forfeit"])
        assert run["status"] == "verified" and run["seed"] == seed and run["score"] == verdict.score
    for path in watcher.paths:
        assert stack.get(path).status_code == 200, path
    assert seed in stack.get(f"/v1/runs/{final['run_id']}").text
    assert seed in stack.get(f"/daily/{day.isoformat()}").text
    # and the day deals no new game: a sealed start now is the new day's
    _, late = stack.register()
    new_day = stack.post("/v1/games", json={"challenge": "daily"}, headers=bearer(late)).json()
    assert new_day["date"] == (day + timedelta(1)).isoformat() and new_day["commitment"] != revealed["commitment"]
    logs = "".join(path.read_text() for path in stack.root.glob("*.log"))
    assert seed not in logs and not cards_in(logs)
