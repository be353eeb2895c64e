"""A page's HTML as the server rendered it, read as a browser with JavaScript off reads it.

The pages are server-rendered (their scripts only add to them), so what a page says,
links to and lists is checked on the HTML the in-process stack answers, without a browser:
CSS selectors (BeautifulSoup with soupsieve, the selectors Playwright takes) and each
element's text as ``innerText`` gives it (whitespace collapsed, a line for each block).
A browser is for what needs one: the layout, the scripts, axe-core (``tests.support.browser``).
"""

import re

import requests
from bs4 import BeautifulSoup, Comment, NavigableString, Tag

# Elements that start a line of their own in ``innerText``; what is inside these is never shown as text.
BLOCKS = frozenset(("address", "article", "aside", "blockquote", "dd", "details", "div", "dl", "dt", "fieldset",
                    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
                    "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tr", "ul", "br",
                    "caption", "thead", "tbody", "tfoot"))
UNSHOWN = frozenset(("script", "style", "template", "head", "title"))
SPACES = re.compile(r"[ \t\n\r\f]+")  # what CSS collapses: not the no-break space


def inner_text(element: Tag) -> str:
    """The element's text as a browser's ``innerText`` gives it: runs of white space one space, each block a
    line of its own, a table's cells apart by a tab, nothing of a script, a style or a hidden element."""
    pieces: list[str] = []

    def walk(node) -> None:
        for child in node.children:
            if isinstance(child, Comment):
                continue
            if isinstance(child, NavigableString):
                pieces.append(SPACES.sub(" ", str(child)))
            elif isinstance(child, Tag) and child.name not in UNSHOWN and not child.has_attr("hidden"):
                block = child.name in BLOCKS
                pieces.append("\n" if block else "")
                walk(child)
                pieces.append("\n" if block else "\t" if child.name in ("td", "th") else "")

    walk(element)
    lines = ("".join(pieces)).split("\n")
    return "\n".join(line.strip(" ") for line in lines if line.strip(" \t")).strip()


class Rendered:
    """A page as answered: ``response`` and its HTML, looked up by CSS selectors."""

    def __init__(self, response: requests.Response):
        assert response.headers["Content-Type"].startswith("text/html"), response.headers["Content-Type"]
        self.response = response
        self.html = response.text
        self.soup = BeautifulSoup(self.html, "html.parser")

    def all(self, selector: str) -> list[Tag]:
        return self.soup.select(selector)

    def one(self, selector: str) -> Tag:
        """The first element ``selector`` finds; there must be one."""
        found = self.soup.select_one(selector)
        assert found is not None, f"no {selector} on the page"
        return found

    def count(self, selector: str) -> int:
        return len(self.all(selector))

    def text(self, selector: str = "body") -> str:
        """``innerText`` of the first element ``selector`` finds."""
        return inner_text(self.one(selector))

    def text_content(self, selector: str) -> str:
        """``textContent`` of the first element ``selector`` finds: its text as written, white space and all."""
        return self.one(selector).get_text()

    def attribute(self, selector: str, name: str) -> str | None:
        value = self.one(selector).get(name)
        return " ".join(value) if isinstance(value, list) else value

    def rows(self, selector: str = "table.places tbody tr") -> list[list[str]]:
        """Each row's cells, their ``innerText`` trimmed."""
        return [[inner_text(cell) for cell in row.find_all(("td", "th"), recursive=False)]
                for row in self.all(selector)]


def rendered(stack, path: str, status: int = 200) -> Rendered:
    """The page at ``path`` as ``stack`` answers it, which must be ``status``."""
    response = stack.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return Rendered(response)
