"""The README stays a front door, and its links into the documentation site resolve.

The site itself is checked by ``mkdocs build --strict`` in ``.ci/run`` (every
page in the nav, every link and anchor between pages); the README is not a page
of the site, so its links into ``docs/`` are checked here, without mkdocs or
the network.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 400
DOCS_LINK = re.compile(r"\]\((docs/[^)#\s]*)(?:#([^)\s]+))?\)")


def heading_anchors(page: Path) -> set[str]:
    """The ids MkDocs gives the page's headings (Python-Markdown's toc slugs), outside code blocks."""
    anchors, fenced = set(), False
    for line in page.read_text().splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#{1,6} (.+)", line)):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).replace("`", "")
            anchors.add(re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", text).strip().lower()))
    return anchors


def test_the_readme_is_at_most_400_lines():
    lines = len(README.read_text().splitlines())
    assert lines <= MAX_LINES, f"README.md has {lines} lines: move detail into a page under docs/"


def test_every_readme_link_into_docs_names_a_page_that_is_there():
    links = DOCS_LINK.findall(README.read_text())
    assert links, "the README links into the documentation site"
    for path, anchor in links:
        target = ROOT / path
        assert target.is_file(), f"README links to {path}, which does not exist"
        if anchor:
            assert anchor in heading_anchors(target), f"README links to {path}#{anchor}: no such heading there"


def test_operations_says_what_health_answers_while_the_queues_redis_is_down():
    """200 ``degraded`` (submissions taken, verdicts waiting), as api.md says and
    tests/hardening/test_redis_faults.py holds the service to; not the 503 of the data's Redis."""
    text = " ".join((ROOT / "docs" / "operations.md").read_text().split())
    start = text.index("The queues' Redis down")
    said = text[start:text.index("the workers wait for it", start)]
    assert '`/v1/health` answers 200 `{"status": "degraded", "redis": "up", "queues": "down"' in said, said
    assert "503" not in said


def nav_pages() -> list[str]:
    """The pages of the site's navigation in mkdocs.yml, in order (its entries ``- Title: page.md``)."""
    nav = (ROOT / "mkdocs.yml").read_text().split("\nnav:\n", 1)[1]
    return re.findall(r"^\s+- [^\n]*?:\s+(\S+\.md)$", nav, re.MULTILINE)


def test_the_home_page_links_every_page_of_the_navigation():
    """docs/index.md is the site's map: a page in the nav that it does not list is one a reader misses."""
    home = (ROOT / "docs" / "index.md").read_text()
    pages = nav_pages()
    assert "leagues.md" in pages and "par.md" in pages, pages
    missing = [page for page in pages if page != "index.md" and f"]({page})" not in home]
    assert missing == [], f"docs/index.md does not link {missing}"
