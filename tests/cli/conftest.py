"""Run ``scoundrel`` commands: in this process (``scoundrel``), or the installed console script as a user would
(``scoundrel_command``)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.redis_server import RedisServer
from tests.support.commands import run_command

# Seed "1", won with score 19 (found with scoundrel.strategies.find_win, kept here as data).
WON_MOVES = (
    "D4 S13w S5w H7 C3w D6 flee C4w D10 C14w flee C12w H3 S11w S10w C6w D7 flee C10w D9 H10 flee "
    "S12w C11w C9w flee S7w C5w D5 S14w H5 C13w H6 C7w D8 flee H8 S9w S3b C2b S8w H4 S6w S4w S2w "
    "D3 C8w H9 H2 D2"
).split()


@pytest.fixture(scope="session")
def scoundrel_command() -> list[str]:
    """The console script next to this Python (a venv with the project installed), else ``python -m cli.main``."""
    script = shutil.which("scoundrel", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "cli.main"]


@pytest.fixture
def scoundrel():
    """``scoundrel ARGS`` run in this process (``tests.support.commands``: the same code from its arguments to
    its status), its output as bytes, as a process's: for what a command prints. What only the command as a
    process shows (a terminal, a stream read as it comes, a signal) runs ``scoundrel_command``."""
    def run(*args: str, input: str | bytes | None = None) -> subprocess.CompletedProcess:
        done = run_command(dict(os.environ), *args, input=input)
        return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.encode(), done.stderr.encode())

    return run


@pytest.fixture
def won_game() -> dict:
    return {"seed": "1", "moves": list(WON_MOVES), "variant": "classic"}


@pytest.fixture
def lost_game() -> dict:
    """Seed "abc": four monsters fought barehanded; dead at -6 with 164 of monsters left (R16)."""
    return {"seed": "abc", "moves": ["C5b", "S3b", "S8b", "C10b"], "variant": "classic"}


@pytest.fixture
def rejected_game() -> dict:
    """Seed "1": D4 kills S5, so it may not fight S13 (R10) at move 3."""
    return {"seed": "1", "moves": ["D4", "S5w", "S13w"], "variant": "classic"}


def lines_of(*submissions) -> str:
    """Submissions as ``scoundrel verify`` reads them, one a line; a string is a line as it is."""
    return "".join((item if isinstance(item, str) else json.dumps(item)) + "\n" for item in submissions)


@pytest.fixture
def ten_thousand(tmp_path, won_game, lost_game, rejected_game):
    """10,000 lines for ``scoundrel verify``: 4,000 won, 3,000 lost, 2,000 rejected, 1,000 not JSON."""
    cycle = [won_game, lost_game, rejected_game, won_game, lost_game,
             "{oops", won_game, rejected_game, lost_game, won_game]
    path = tmp_path / "ten-thousand.jsonl"
    path.write_text(lines_of(*(cycle * 1000)))
    return path


@pytest.fixture
def own_redis(tmp_path):
    """A throwaway Redis of the test's own, for a command that runs a worker or the API on it."""
    server = RedisServer(tmp_path / "redis", persistent=False).start()
    yield server
    server.stop()
