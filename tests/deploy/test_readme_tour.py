"""The README's curl tour, pasted into bash as it stands, against a real stack.

Each step must run (``set -euo pipefail``: a failing curl or a missing field
stops it), read back the runs it submitted rather than ids of the README
writer's own, and a run must have the fields the README shows in step 3.
"""

import json
import re
import subprocess
import uuid
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
TOUR = "A tour with curl against"
SUBMITTED = ["C5b", "S8b", "H6", "flee", "D2", "C13b"]
ILLEGAL = ["S8b", "S3w"]


def tour() -> str:
    text = README.read_text()
    start = text.index("```sh\n", text.index(TOUR)) + len("```sh\n")
    return text[start:text.index("```", start)]


def shown_run(block: str) -> dict:
    """The run step 3 shows, from the comment lines under its curl."""
    lines = block[block.index("curl -s $B/v1/runs/$RUN"):].splitlines()[1:]
    shown = []
    for line in lines:
        if not line.startswith("#"):
            break
        shown.append(line.removeprefix("#").strip())
    return json.loads("".join(shown))


def test_the_tour_runs_as_pasted_and_shows_a_whole_run(stack):
    name = f"tour-{uuid.uuid4().hex[:8]}"
    block = tour().replace("B=http://127.0.0.1:8000", f"B={stack.base}")
    block = block.replace('"name": "ada"', f'"name": "{name}"').replace("players/ada", f"players/{name}")
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + block], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    runs = [reply for reply in replies if "moves" in reply]
    assert [run["moves"] for run in runs] == [SUBMITTED, SUBMITTED, ILLEGAL]  # 2 and 3, then 5: its own run
    assert {run["player"] for run in runs} == {name}
    assert re.search(r"^Location: /v1/runs/[0-9a-f]{16}\r?$", done.stdout, re.MULTILINE)
    assert list(shown_run(tour())) == list(runs[1]), "step 3 shows a run as the API answers it, every field"
    assert replies[-1].keys() == {"date", "seed"}
