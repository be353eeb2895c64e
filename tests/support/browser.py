"""Headless Chromium for the page tests, and axe-core's accessibility check run inside it.

Debian's Chromium through Playwright (no browser download): its headless
shell (package ``chromium-headless-shell``) where installed, the same
engine without the windowed browser around it, which renders the page tests
for two thirds of the CPU (the board pages in Chromium took 29 s of CPU
with ``chromium``, 19 s with the shell); else ``chromium`` itself. A test
that needs one is skipped, with the apt command, where both are missing. axe-core
comes from its npm package (``tests/pages/package.json``, locked), installed
on first use with ``npm ci`` so that the README's test command works on a
fresh clone. It is evaluated through the DevTools protocol, which the pages'
strict CSP does not apply to, so the page under test keeps its real policy.

The pages Chromium loads are served by the test process itself (``serving``):
the module's in-process stack's app (``tests.support.in_process``) behind
werkzeug's threaded HTTP server on a free port, so a browser test starts no
Redis, gunicorn or worker of its own. The worker's steps run when the test
runs them (``stack.work``, ``stack.until``, ``stack.wait_final``): a test that
waits for a page to show what a worker does waits with ``until_shown`` (or
``stack.until``), which runs the worker between looks.
"""

import atexit
import fcntl
import logging
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = next((path for path in (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))
                 if path.exists()), Path("/usr/bin/chromium"))
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PAGE_TESTS = Path(__file__).resolve().parents[1] / "pages"
AXE = PAGE_TESTS / "node_modules" / "axe-core" / "axe.min.js"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SERIOUS = ("serious", "critical")  # axe's two highest impacts: what the pages must not have
# axe-core's run, its rules of a lower impact left out: a rule with an impact gives each of its violations that
# impact (axe-core's ``finalizeRuleResult``), so they could find no serious one. Every rule of axe-core 4.14 has
# one; those left out (landmarks, headings' order, ``region``...) cost a run 0.02 s of its 0.134 s of CPU.
AXE_RUN = """serious => axe.run(document, {resultTypes: ['violations'], rules: Object.fromEntries(axe._audit.rules
  .filter(rule => rule.impact && !serious.includes(rule.impact)).map(rule => [rule.id, {enabled: false}]))})
  .then(result => result.violations)"""
WIDTHS = (1280, 375)  # desktop, and a small phone: every page is checked at both
SCREENSHOT_QUALITY = 85  # JPEG: text still sharp enough to read
KEEP_SCREENSHOTS = False  # ``pytest --screenshots`` sets it (``tests/conftest.py``); see ``screenshot``


_LAUNCHED: dict = {}  # this test process's Playwright and Chromium, once launched (see ``chromium``)


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium browser (Playwright's ``Browser``); skips the test where Chromium is missing.

    One browser a test process, launched on first use and handed to every module that asks: a
    launch (Playwright's driver, Chromium's browser, GPU and network processes) costs about a
    second of CPU. A test opens a context of its own (``browser.new_context``), as isolated from
    the others as a browser of its own, or takes its module's one page made as a fresh browser's
    (``blank_slate``). What a module leaves open is closed when it is done, as closing its own
    browser did; the browser is closed when the process exits.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium-headless-shell or /usr/bin/chromium "
                    "(apt-get install chromium-headless-shell); see the README's test command")
    if "browser" not in _LAUNCHED:
        playwright = sync_api.sync_playwright().start()
        try:
            _LAUNCHED["browser"] = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        except BaseException:
            playwright.stop()
            raise
        _LAUNCHED["playwright"] = playwright
        atexit.register(_close)
    browser = _LAUNCHED["browser"]
    try:
        yield browser
    finally:
        for context in browser.contexts:
            context.close()


def _close() -> None:
    _LAUNCHED.pop("browser").close()
    _LAUNCHED.pop("playwright").stop()


def blank_slate(page, origin: str, viewport: dict | None = None):
    """``page`` as a fresh browser's, nothing loaded: what the pages of ``origin`` stored (cookies, local and
    session storage, IndexedDB, caches) and the HTTP cache emptied, its routes, init scripts (``init_script``)
    and granted permissions gone, its console problems (``page.problems``) cleared, at ``viewport`` (1280 by
    900 unless given). One page made so before each test serves a module's tests in turn: a context and page
    of their own cost Chromium a renderer each, and the page's scripts and axe-core's compiled again (a test
    that loads and checks /play cost 0.69 s of CPU so, 0.45 s on a page made blank)."""
    if page.url.startswith(origin + "/"):
        page.evaluate("() => sessionStorage.clear()")  # the tab's own, which no storage type of DevTools holds
    page.goto("about:blank")
    page.unroute_all(behavior="wait")
    for script in getattr(page, "init_scripts", ()):
        script.close()
    page.init_scripts = []
    page.context.clear_cookies()
    page.context.clear_permissions()
    if not hasattr(page, "devtools"):
        page.devtools = page.context.new_cdp_session(page)
    page.devtools.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    page.devtools.send("Network.clearBrowserCache")
    page.set_viewport_size(viewport or {"width": WIDTHS[0], "height": 900})
    page.problems.clear()
    return page


def init_script(page, script: str) -> None:
    """Runs ``script`` in each document ``page`` loads before the document's own, until the page is next made
    blank (``blank_slate``)."""
    page.init_scripts = [*getattr(page, "init_scripts", ()), page.add_init_script(script)]


class Site:
    """A WSGI app served over HTTP from a thread of the test process: where Chromium loads the pages."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.base = f"http://127.0.0.1:{self.server.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="site", daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()


@contextmanager
def serving(stack) -> Iterator[Site]:
    """The in-process ``stack``'s app served over HTTP while the block runs (werkzeug's log of each request
    left out: the app logs its requests itself)."""
    quiet = logging.getLogger("werkzeug")
    level = quiet.level
    quiet.setLevel(logging.WARNING)
    site = Site(stack.app)
    try:
        yield site
    finally:
        site.close()
        quiet.setLevel(level)


def until_shown(stack, locator, text: str | None = None, timeout: float = 60.0) -> None:
    """Waits until the page shows ``locator`` (holding ``text``, if given), the worker's steps run meanwhile
    (``stack.until``): for what a page shows once the workers have done their part (a verdict, a share)."""
    stack.until(lambda: locator.is_visible() and (text is None or text in locator.inner_text()),
                f"{locator} showing {text!r}" if text else f"{locator} shown", timeout)


def console_problems(page) -> list[str]:
    """Collects the page's script errors and console errors (a CSP violation is one) as they happen."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


@contextmanager
def own_page(browser, width: int = 1280, **options) -> Iterator:
    """A page in a browser context of its own, ``width`` px wide, its console problems collected as
    ``page.problems``: the page a module's tests take in turn (each made blank by ``blank_slate`` where a test
    needs a fresh browser), one renderer for them all. ``options`` go to ``new_context``."""
    context = browser.new_context(viewport={"width": width, "height": 900}, **options)
    page = context.new_page()
    page.problems = console_problems(page)
    try:
        yield page
    finally:
        context.close()


def _axe_source() -> str:
    """axe-core's script, installed from the lock file once (a file lock keeps parallel test processes to one npm)."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("needs npm to install axe-core (tests/pages/package.json)")
        with open(PAGE_TESTS / ".npm-install.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not AXE.exists():
                subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=PAGE_TESTS, check=True,
                               capture_output=True)
    return AXE.read_text()


def console_clean(page, *refused: int) -> None:
    """No console error on ``page`` (its ``problems``, from ``console_problems``) but the browser's own note of
    each refusal of the API the test caused (statuses ``refused``)."""
    notes = tuple(f"Failed to load resource: the server responded with a status of {status}" for status in refused)
    assert [problem for problem in page.problems if not problem.startswith(notes)] == []


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    violations = page.evaluate(AXE_RUN, list(SERIOUS))
    return [f"{violation['id']} ({violation['impact']}): {violation['help']} at "
            + ", ".join(str(node["target"]) for node in violation["nodes"])
            for violation in violations if violation["impact"] in SERIOUS]


def screenshot(page, name: str, full_page: bool = True) -> None:
    """Keeps a screenshot ``<name>.jpg`` under test-artifacts/ for a person to look at, when the run was asked
    for them (``pytest --screenshots``): the full page, or (``full_page`` False) the first screen only, what a
    reader sees before scrolling. They check nothing, and the browser tests' hundred cost a tenth of those
    tests' CPU (the three browser modules took 88, 88 and 85 s without them against 100, 95 and 91 s with
    them, alternating), so a run keeps none unless asked. A JPEG: Chromium encodes a page 2,800 px tall as a
    PNG for 0.8 s of CPU, as a JPEG for 0.16 s."""
    if KEEP_SCREENSHOTS:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.jpg"), full_page=full_page, type="jpeg",
                        quality=SCREENSHOT_QUALITY)


def each_width(page, height: int = 900) -> Iterator[int]:
    """``page`` resized to each of ``WIDTHS`` in turn (the width yielded): one load serves both widths. The pages'
    layout is all CSS (no script of theirs reads the width), so the media queries lay the same page out again
    at each; a new context and load for each width cost Chromium a renderer, the page's scripts and axe-core's
    injection again."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        yield width


def looked_at(page, name: str, full_page: bool = True, frame=None, shown: str | None = None) -> None:
    """At each width: the page (or its ``frame``) no wider than the screen, no serious axe violation, and a
    screenshot ``<name>-<width>`` if the run keeps them (``screenshot``; the element ``shown`` scrolled into
    view first, if given)."""
    for width in each_width(page):
        checked = frame or page
        assert not scrolls_sideways(checked), f"{name} at {width} px"
        assert serious_violations(checked) == [], f"{name} at {width} px"
        if shown:
            checked.locator(shown).scroll_into_view_if_needed()
        screenshot(page, f"{name}-{width}", full_page)


def scrolls_sideways(page) -> bool:
    """Whether the page is wider than its viewport (at 375 px, a layout that does not fit a phone)."""
    return bool(page.evaluate("() => document.documentElement.scrollWidth > document.documentElement.clientWidth"))
