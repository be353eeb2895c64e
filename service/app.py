"""The application factory: ``create_app(settings)`` builds one API.

Nothing happens at import time; tests build an app per test with their own
settings. OpenAPI is generated from the marshmallow schemas and served at
``/v1/openapi.json``, with Swagger UI at ``/v1/docs`` (``/v1/docs/`` redirects
there; its assets are served from the ``swagger-ui-bundle`` package, so the
docs work offline).
"""

import swagger_ui_bundle
from flask import Blueprint, Flask, redirect, request, url_for
from werkzeug.routing import Rule

import scoundrel
from settings import Settings
from store import Database
from worker.registry import JOBS

from . import (
    boards,
    compression,
    daily,
    desk,
    disputes,
    errors,
    flags,
    following,
    front_door,
    games,
    health,
    inbox,
    leagues,
    live,
    metrics,
    moderation,
    pages,
    play_page,
    player_data,
    player_moderation,
    players,
    profile,
    reports,
    request_log,
    runs,
    schedules,
    sealed,
    seasons,
    security,
    seeds,
    server_players,
    share_page,
    site,
    streaks,
    tournaments,
    transparency,
    webhooks,
)
from .api import CrossFieldRules, ErrorResponses, MarkdownLiterals, RefereeApi
from .context import Referee
from .errors import abort

DOCS_ASSETS = "/v1/docs-assets/"


def _openapi_config() -> dict:
    return {
        "API_TITLE": "Scoundrel Referee",
        "API_VERSION": scoundrel.ENGINE_VERSION,
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/v1",
        "OPENAPI_JSON_PATH": "openapi.json",
        "OPENAPI_SWAGGER_UI_PATH": "docs",
        "OPENAPI_SWAGGER_UI_URL": DOCS_ASSETS,
    }


def _require_json_body():
    """415 for a request body that is not JSON (every body the API reads is; the desk's pages post forms)."""
    has_body = request.content_length or request.headers.get("Transfer-Encoding")
    if request.method in ("POST", "PUT", "PATCH") and has_body and not request.is_json and \
            request.blueprint != desk.blp.name:
        abort(415, message="Send the body as JSON (Content-Type: application/json).")


def _docs_with_slash():
    """``/v1/docs/``, as people type it, leads to Swagger UI at ``/v1/docs``."""
    return redirect(url_for("api-docs.openapi_swagger_ui"), 308)


class BuiltWhenUsed(Rule):
    """werkzeug's URL rule, but for when its two URL builders are compiled: when it first builds a URL
    (``url_for``) rather than when it is added. werkzeug writes each builder as Python and compiles it, two
    thirds of the CPU an app costs (0.065 of 0.095 s, for some 150 rules), and most rules never build a URL:
    a page's links and the redirects build a few."""

    def _compile_builder(self, append_unknown: bool = True):
        compiled = None

        def build(rule: Rule, **values):
            nonlocal compiled
            if compiled is None:
                compiled = Rule._compile_builder(rule, append_unknown)
            return compiled(rule, **values)

        return build


class RefereeFlask(Flask):
    """Flask, its URL rules ``BuiltWhenUsed``."""

    url_rule_class = BuiltWhenUsed


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = RefereeFlask(__name__)
    app.config.update(_openapi_config(), MAX_CONTENT_LENGTH=settings.max_body_bytes)
    app.json.sort_keys = False  # type: ignore[attr-defined]  # Flask's DefaultJSONProvider, typed as its base
    db = Database.from_settings(settings, JOBS)
    app.extensions["referee"] = Referee(settings=settings, db=db)

    api = RefereeApi(app, spec_kwargs={"extra_plugins": [ErrorResponses(), CrossFieldRules(), MarkdownLiterals()]})
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    app.url_map.converters["day"] = daily.DayConverter
    api.register_converter(daily.DayConverter, daily.day_parameter)
    app.url_map.converters["player"] = players.PlayerNameConverter
    api.register_converter(players.PlayerNameConverter, players.player_parameter)
    app.url_map.converters["run_id"] = runs.RunIdConverter
    api.register_converter(runs.RunIdConverter, runs.run_id_parameter)
    app.url_map.converters["week"] = leagues.WeekConverter
    api.register_converter(leagues.WeekConverter, leagues.week_parameter)
    app.url_map.converters["season"] = seasons.SeasonConverter
    api.register_converter(seasons.SeasonConverter, seasons.season_parameter)
    for module in (front_door, health, players, runs, games, daily, sealed, seeds, disputes,
                   moderation, flags, streaks, seasons, webhooks, leagues, tournaments, server_players, player_data,
                   transparency):
        api.register_blueprint(module.blp)
    api.register_blueprint(player_moderation.blp)
    api.register_blueprint(profile.blp)
    api.register_blueprint(reports.blp)
    api.register_blueprint(boards.board_views())
    api.register_blueprint(schedules.blp)
    api.register_blueprint(inbox.blp)
    api.register_blueprint(games.player_blp)
    api.register_blueprint(leagues.player_blp)
    api.register_blueprint(following.blp)
    api.register_blueprint(live.blp)
    app.add_url_rule("/v1/docs/", view_func=_docs_with_slash)
    app.register_blueprint(front_door.pages_blp)
    app.register_blueprint(pages.blp)
    app.register_blueprint(play_page.blp)
    app.register_blueprint(site.blp)
    app.register_blueprint(share_page.blp)
    app.register_blueprint(desk.blp)
    app.register_blueprint(
        Blueprint("docs_assets", __name__, static_folder=swagger_ui_bundle.swagger_ui_path,
                  static_url_path=DOCS_ASSETS.rstrip("/"))
    )
    app.register_blueprint(metrics.blp)
    compression.init_app(app)
    request_log.init_app(app)
    security.init_app(app, settings)
    app.before_request(_require_json_body)
    errors.init_app(app)
    return app
