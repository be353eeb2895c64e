"""The README's curl tour, pasted twice in a row into bash and into zsh, against a real stack.

A paste is what an interactive shell reads: bash and zsh are started
interactive (``-i``, no start-up files), reading the tour's ``sh`` blocks
from standard input, so what breaks a paste breaks here (zsh takes a ``#``
line for a command unless ``interactivecomments`` is set; an apostrophe
opens a quote). The shell stops at the first failure (``set -e``, and its
zsh spelling): a failing curl, a missing field, a name the first paste
took. Each paste must read back the runs it submitted rather than ids of
the README writer's own, and a run must have the fields the README shows
in step 3.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.served  # the README's curl tour against a running service

README = Path(__file__).resolve().parents[2] / "README.md"
TOUR = "A tour with curl against"
TOUR_END = "## A map of the code"
SUBMITTED = ["C5b", "S8b", "H6", "flee", "D2", "C13b"]
ILLEGAL = ["S8b", "S3w"]
DONE = "pasted twice"
# Each shell as a person at a terminal has it, told to stop at the first failure; prompts go to stderr.
SHELLS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], "set -euo pipefail"),
    "zsh": (["zsh", "-f", "-i"], "setopt err_exit pipe_fail no_unset"),
}


def tour_text() -> str:
    text = README.read_text()
    start = text.index(TOUR)
    return text[start:text.index(TOUR_END, start)]


def blocks(language: str) -> list[str]:
    """The tour's fenced blocks of ``language``, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```$", tour_text(), re.MULTILINE | re.DOTALL)


def shown_run() -> dict:
    """The run step 3 shows: the output block that follows its curl."""
    text = tour_text()
    after = text[text.index("curl -s $B/v1/runs/$RUN"):]
    output = re.search(r"^```json\n(.*?)^```$", after, re.MULTILINE | re.DOTALL)
    assert output is not None
    return json.loads(output[1])


def shown_after(command: str) -> list:
    """The JSON replies the output block under ``command`` shows, in order."""
    text = tour_text()
    after = text[text.index(command):]
    output = re.search(r"^```json\n(.*?)^```$", after, re.MULTILINE | re.DOTALL)
    assert output is not None
    decoder, shown, rest = json.JSONDecoder(), [], output[1].strip()
    while rest:
        reply, end = decoder.raw_decode(rest)
        shown.append(reply)
        rest = rest[end:].strip()
    return shown


def shape(value):
    """What a reply holds, without its values: an object's keys (each with its value's shape), a list's first
    item."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return None


def test_the_tour_has_no_line_a_pasting_shell_could_misread():
    pasted = "".join(blocks("sh"))
    assert not [line for line in pasted.splitlines() if line.lstrip().startswith("#")]
    assert "!" not in pasted  # interactive bash's history expansion


@pytest.mark.parametrize("shell", SHELLS)
def test_the_tour_pastes_twice_in_a_row_and_shows_a_whole_run(stack, shell):
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell} on this machine (Debian: apt-get install {shell}; .ci/run installs it)")
    command, stop_at_failure = SHELLS[shell]
    tour = "".join(blocks("sh")).replace("B=http://127.0.0.1:8000", f"B={stack.base}")
    script = f"{stop_at_failure}\n{tour}{tour}echo '{DONE}'\n"
    done = subprocess.run(command, input=script, capture_output=True, text=True, timeout=120, check=False,
                          env={"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(stack.root), "TERM": "dumb"})
    assert done.returncode == 0 and done.stdout.rstrip().endswith(DONE), done.stdout + done.stderr
    for trouble in ("command not found", "parse error", "unmatched", "Traceback"):
        assert trouble not in done.stderr, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    runs = [reply for reply in replies if "moves" in reply]
    # each paste: steps 2 and 3 (its own run), then 5
    assert [run["moves"] for run in runs] == [SUBMITTED, SUBMITTED, ILLEGAL] * 2
    players = [run["player"] for run in runs]
    assert len(set(players[:3])) == len(set(players[3:])) == 1 and players[0] != players[3]
    assert all(re.fullmatch(r"ada-\d+", player) for player in players)
    assert len(re.findall(r"^Location: /v1/runs/[0-9a-f]{16}\r?$", done.stdout, re.MULTILINE)) == 2
    assert list(shown_run()) == list(runs[1]), "step 3 shows a run as the API answers it, every field"
    board, place = [reply for reply in replies if "entries" in reply or "around" in reply][:2]
    shown_board, shown_place = shown_after('curl -s "$B/v1/leaderboards/classic?limit=3"')
    assert shape(shown_board) == shape(board), f"step 4 shows the board as the API answers it: {board}"
    assert shape(shown_place) == shape(place), f"step 4 shows the place as the API answers it: {place}"
    assert replies[-1].keys() == {"date", "seed"}
