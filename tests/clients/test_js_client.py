"""The JS client's own tests (``clients/js/test/``), run by ``node --test`` as one test of the suite: the
README's test command runs them beside the Python tests, in a core those leave idle, rather than after them.
``node --test clients/js/test/`` runs them alone; what they cover is under JavaScript client, Tests
(``docs/js-client.md``)."""

import re
import shutil
import subprocess

from .conftest import CLIENT


def test_the_js_clients_own_tests_all_pass_under_node():
    assert shutil.which("node"), "the JS client's tests need Node 20+ (the README's test command)"
    result = subprocess.run(["node", "--test", "test/"], cwd=CLIENT, capture_output=True, text=True, timeout=300,
                            check=False)
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    counts = dict(re.findall(r"^# (\w+) (\d+)$", result.stdout, re.MULTILINE))
    assert int(counts["pass"]) > 0 and counts["fail"] == counts["cancelled"] == "0", report
