"""Issue 32: what a newcomer meets first: ``/``, ``/v1``, ``/rules`` and the favicon.

``/`` leads a browser to the pages and a program that asks for JSON to the
API's root, which ``/v1`` is for everyone; ``/rules`` is RULES.md as a page.
Their answers are read through the app (they touch no store); the pages
in Chromium at 1280 and 375 px are ``test_in_chromium.py``'s.
"""

import pytest

from tests.support.stores import app_without_redis

PAGE_LINKS = {"play": "/play", "boards": "/boards", "daily": "/daily", "rules": "/rules"}
API_LINKS = {"openapi": "/v1/openapi.json", "docs": "/v1/docs", "health": "/v1/health"}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """The app on a Redis that is not there: the front door needs none."""
    return app_without_redis(tmp_path_factory.mktemp("front")).test_client()


def test_v1_is_the_apis_root_with_links_to_its_description_and_the_pages(client):
    answer = client.get("/v1")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    root = answer.get_json()
    assert root["name"] == "Scoundrel Referee" and root["ruleset"] == "scoundrel-1" and root["deal"] == "deal-v1"
    assert root["links"] == {**API_LINKS, **PAGE_LINKS}
    assert client.get("/v1/").status_code == 308 and client.get("/v1/").headers["Location"].endswith("/v1")
    assert "/v1" in client.get("/v1/openapi.json").get_json()["paths"]


@pytest.mark.parametrize("accept", ["application/json", "application/json, text/html;q=0.5"])
def test_the_root_answers_a_program_that_asks_for_json_with_the_apis_root(client, accept):
    answer = client.get("/", headers={"Accept": accept})
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.get_json() == client.get("/v1").get_json()
    assert "Accept" in answer.headers["Vary"]


@pytest.mark.parametrize("accept", [None, "*/*", "text/html,application/xhtml+xml,*/*;q=0.8"])
def test_the_root_is_a_page_of_links_for_a_browser(client, accept):
    answer = client.get("/", headers={"Accept": accept} if accept else {})
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    for path in (*PAGE_LINKS.values(), "/v1/docs", "/v1/openapi.json"):
        assert f'href="{path}"' in html, path
    assert "Accept" in answer.headers["Vary"]


def test_rules_is_the_ruleset_as_a_page(client):
    answer = client.get("/rules")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    assert "<h1" in html and "the official ruleset the service verifies" in html
    assert "<strong>R1 Deck.</strong>" in html  # the rulings, rendered from the Markdown
    assert 'id="the-deal-deal-v1"' in html  # a section can be linked


def test_the_api_docs_show_markdown_literals_not_the_docstrings_rst(client):
    """Swagger UI renders an operation's description as CommonMark (``x`` would show its backticks) and its
    summary as plain text, where any backtick shows: no summary holds one."""
    document = client.get("/v1/openapi.json").get_data(as_text=True)
    assert "``" not in document
    operations = [operation for methods in client.get("/v1/openapi.json").get_json()["paths"].values()
                  for operation in methods.values() if isinstance(operation, dict) and "responses" in operation]
    assert [operation["summary"] for operation in operations if "`" in operation.get("summary", "")] == []
    health = client.get("/v1/openapi.json").get_json()["paths"]["/v1/health"]["get"]
    assert "with status degraded and queues down" in health["summary"]
    assert any("`" in operation.get("description", "") for operation in operations)  # descriptions keep theirs


def test_the_favicon_is_served(client):
    for path in ("/favicon.ico", "/assets/favicon.svg"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.mimetype == "image/svg+xml"
        assert b"<svg" in answer.data
