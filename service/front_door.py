"""The front door: where a person or a program arriving at the service's root is led.

``/`` is a page of links for a browser (playing, the boards, the daily, the
rules, the API's docs), and the API's root for a client that asks for JSON
(``Accept: application/json``); ``/v1`` is the API's root for every client:
the versions the server verifies with and links to the OpenAPI document, its
docs and the pages; ``/favicon.ico`` is the site's icon. ``/rules`` is RULES.md, the normative ruleset, rendered
as a page (``service/RULES.md`` links to the repository's copy, so the wheel
ships the one text).
"""

import functools
from pathlib import Path

import markdown
from flask import Blueprint, jsonify, make_response, redirect, render_template, request, send_from_directory, url_for
from markupsafe import Markup

from schemas.runs import ApiRootSchema

from . import api
from .health import versions

RULES = Path(__file__).with_name("RULES.md")
STATIC = Path(__file__).with_name("static")
FAVICON = "favicon.svg"  # the pages link it from /assets/ (base.html)
NAME = "Scoundrel Referee"

blp = api.Blueprint("root", __name__, url_prefix="/v1", description="The API's root")
pages_blp = Blueprint("front_door", __name__, template_folder="templates")


def api_root() -> dict:
    """The API's root: the versions, and where the API's description and the pages are."""
    links = {
        "openapi": url_for("api-docs.openapi_json"),
        "docs": url_for("api-docs.openapi_swagger_ui"),
        "health": url_for("health.health"),
        "play": url_for("play.play"),
        "boards": url_for("site.boards"),
        "daily": url_for("site.daily_today"),
        "rules": url_for("front_door.rules"),
    }
    return {"name": NAME, **versions(), "links": links}


@blp.route("")
@blp.response(200, ApiRootSchema)
def root():
    """The API's root: the versions this server verifies with, and links to the OpenAPI document
    (``links.openapi``), its docs and the pages."""
    return api_root()


@pages_blp.route("/v1/")
def root_with_slash():
    """``/v1/``, as people type it, leads to the API's root."""
    return redirect(url_for("root.root"), 308)


@pages_blp.route("/favicon.ico")
def favicon():
    """The site's icon where browsers ask for it unprompted (Swagger UI's page, a JSON answer)."""
    return send_from_directory(STATIC, FAVICON, mimetype="image/svg+xml", max_age=86400)


@pages_blp.route("/")
def front():
    """A page of links for a browser; the API's root for a client that prefers JSON to HTML."""
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json":
        response = jsonify(ApiRootSchema().dump(api_root()))
    else:
        response = make_response(render_template("front.html", links=api_root()["links"], name=NAME))
    response.vary.add("Accept")
    return response


@functools.cache
def _rules_html() -> Markup:
    """RULES.md as HTML, rendered once per process: headings get ids, so a ruling's section can be linked."""
    text = RULES.read_text(encoding="utf-8")
    return Markup(markdown.markdown(text, extensions=["fenced_code", "tables", "toc"], output_format="html"))


@pages_blp.route("/rules")
def rules():
    """The ruleset the referee verifies with, as a page."""
    return render_template("rules.html", rules=_rules_html())
