"""Issue 44, item 11: no page of the documentation site asks another origin for anything.

MkDocs Material left to its defaults fetches its fonts from Google Fonts
and, on a page with a diagram, Mermaid from unpkg.com: a reader's address
handed to third parties. The site is built (``mkdocs build --strict``, the
``docs`` extra; skipped without it), served from a local server, and every
page is loaded in headless Chromium, each request recorded: all of them go to
the site's own origin. The built HTML is read as well, for a resource (a
stylesheet, a script, an image, a preconnect) named on another origin.
"""

import functools
import subprocess
import sys
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.deploy.test_docs import nav_pages
from tests.support.browser import chromium

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
OWN_SCHEMES = ("data", "blob", "about")  # no request to any server


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The documentation site, built as ``.ci/run`` builds it."""
    built = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(built)],
                   cwd=ROOT, check=True, capture_output=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": ""})
    return built


@pytest.fixture(scope="module")
def served(site) -> Iterator[str]:
    """The built site over http on a free port: its origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def pages(site: Path) -> list[str]:
    """Every page of the built site, as paths from its root."""
    return sorted("/" + str(page.relative_to(site)).removesuffix("index.html") for page in site.rglob("*.html"))


class _Resources(HTMLParser):
    """The URLs a page loads as it is read: scripts, stylesheets, icons, preconnects, images, frames."""

    LOADING_LINKS = frozenset(("stylesheet", "icon", "preconnect", "preload", "dns-prefetch", "modulepreload",
                               "manifest"))

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if tag == "link" and self.LOADING_LINKS & set((named.get("rel") or "").split()):
            self.urls.append(named.get("href") or "")
        elif tag in ("script", "img", "iframe", "source", "audio", "video", "embed") and named.get("src"):
            self.urls.append(named["src"] or "")


def off_origin(url: str, origin: str = "") -> bool:
    """Whether loading ``url`` asks a server other than ``origin``'s (a relative URL asks the page's own)."""
    parts = urlsplit(url)
    if parts.scheme in OWN_SCHEMES or not (parts.scheme or parts.netloc):
        return False
    return f"{parts.scheme}://{parts.netloc}" != origin


def test_no_page_names_a_resource_on_another_origin(site):
    found = {}
    for path in pages(site):
        reader = _Resources()
        reader.feed((site / path.lstrip("/") / ("index.html" if path.endswith("/") else "")).read_text())
        if outside := [url for url in reader.urls if off_origin(url)]:
            found[path] = outside
    assert len(pages(site)) == len(nav_pages()) + 1  # and 404.html
    assert found == {}


# Where a page's search worker is and what it searches: the theme's configuration in the page, resolved.
SEARCH = """() => { const config = JSON.parse(document.getElementById("__config").textContent);
  return [new URL(config.search, document.baseURI).href, new URL(config.base, document.baseURI).href]; }"""


def test_every_page_in_a_browser_asks_only_its_own_origin(site, served):
    """Every request of every page, the search worker's included: the theme starts the same worker (its script
    and the site's base from the page's configuration) on every page, which fetches the site's search index and
    builds it, half of this test's CPU when it was built on each page. Its requests are recorded on the first
    page; every other page is held to the same worker and base, and its start is refused there."""
    outside, mermaid, searched = {}, "", None
    with chromium() as browser:
        context = browser.new_context()
        page = context.new_page()
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        for path in pages(site):
            asked.clear()
            page.goto(served + path, wait_until="networkidle")
            if elsewhere := [url for url in asked if off_origin(url, served)]:
                outside[path] = elsewhere
            if searched is None:
                searched = page.evaluate(SEARCH)
                assert searched[0] in asked and f"{searched[1]}search/search_index.json" in asked  # the worker ran
                page.route(searched[0], lambda route: route.abort())
            else:
                assert page.evaluate(SEARCH) == searched, path
            if path == "/architecture/":  # a page with diagrams: they are drawn by the site's own Mermaid
                mermaid = page.evaluate("() => typeof mermaid.render")
                assert f"{served}/assets/javascripts/mermaid.min.js" in asked
        context.close()
    assert outside == {}
    assert mermaid == "function"
