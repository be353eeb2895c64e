"""RULES.md stands alone: every file it cites is in the repository, and ``/rules`` serves that very text."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "RULES.md"
CITED_FILE = re.compile(r"`([\w./-]+\.(?:txt|json|md))`")


def test_every_file_the_rules_cite_is_in_the_repository():
    cited = CITED_FILE.findall(RULES.read_text(encoding="utf-8"))
    assert len(cited) >= 3  # the two source texts and the deal's vectors
    assert [path for path in cited if not (ROOT / path).is_file()] == []


def test_the_rules_page_serves_the_root_text():
    """``service/RULES.md`` (what ``/rules`` renders and the wheel ships) is the root's RULES.md, not a copy."""
    assert (ROOT / "service" / "RULES.md").read_bytes() == RULES.read_bytes()
