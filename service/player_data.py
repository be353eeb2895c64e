"""A player's data, as the GDPR has a player ask for it: ``GET /v1/players/<name>/export`` (everything the
service holds about them, in one JSON document) and ``DELETE /v1/players/<name>`` (all of it erased); and
``GET /v1/erasures``, the moderators' log of erasures.

The export is the player's own (their token or a studio's token signing
them in) or a studio's server key's. Each part is the JSON the API shows
elsewhere, from Redis and the archive alike (``store.privacy.personal_data``
finds it all). What is kept out: moderators' flags about the player and
their notes on them (a flag's dismissal in a run's audit log included),
which are the moderators' work (docs/integrators.md says so); a token's
hash; and what no player may see yet, a sealed deal before its day or
tournament is over. An erasure (``store.privacy.erasure``) may be asked
for by the same callers, or a moderator.
"""

from dataclasses import asdict

from flask import make_response

from domain.boards import Order
from domain.dealer import position
from domain.sealing import shown
from schemas.export import ErasedSchema, ErasureLogSchema, ExportSchema
from schemas.paging import PageArgs
from store import board_position, ladder_position, privacy
from store.accounts import MOST_FOLLOWED, following_page
from store.base import now_ms
from store.boards import ranking
from store.games import games_in_play
from store.moderation import DISMISSED_EVENT, dispute_view
from store.privacy import begin_erasure, erase, erasure_log
from store.rewards import player_inbox
from store.runs import run_audit_logs
from store.tournaments import load_tournaments

from .api import Blueprint, error_response
from .auth import BEARER, moderator_endpoint
from .context import db, referee, revealed
from .games import game_view
from .leagues import league_weeks
from .players import account_holder
from .streaks import streak_json
from .tournaments import tournament_view

blp = Blueprint("player_data", __name__, url_prefix="/v1", description="A player's data: export and erasure")



@blp.route("/players/<name>/export")
@blp.doc(security=BEARER)
@blp.response(200, ExportSchema, headers={"Content-Disposition": {"description": "attachment; filename="
                                                                                 "scoundrel-<name>.json",
                                                                  "schema": {"type": "string"}}})
@error_response(blp, 401, "No or wrong token")
@error_response(blp, 403, "Another player's token, or a moderator's")
@error_response(blp, 404, "No such player")
def export(name):
    """Everything the service holds about the player: account, studios' links, every run with its moves,
    verdict and audit log, games in play, places, streak, follows and followers, disputes filed, league
    weeks, tournaments and rewards. For the player themselves or a studio's server key."""
    player, _, _ = account_holder(name)
    document = ExportSchema().dump(exported(player))
    response = make_response(document)
    response.headers["Content-Disposition"] = f'attachment; filename="scoundrel-{player}.json"'
    return response


def exported(player: str) -> dict:
    """The export of ``player`` (as registered), as ``ExportSchema`` dumps it."""
    account = privacy.account(db(), player)
    runs, places = [], []
    for batch in privacy.run_batches(db(), player):
        runs += _runs_with_audit(batch)
        places += [place for board in privacy.boards_held(batch) if (place := place_held(board, player))]
    _, following = following_page(db(), player, 0, MOST_FOLLOWED)
    return {
        "exported_ms": now_ms(),
        "player": {**account, "links": [{"issuer": issuer, "subject": subject}
                                        for issuer, subject in sorted(account["links"].items())]},
        "runs": runs,
        "games_in_play": [game_view(game, position(game)) for game in games_in_play(db(), player)],
        "places": list({place["board"]: place for place in places}.values()),
        "streak": streak_json(player),
        "following": following,
        "followers": privacy.followers(db(), player),
        "disputes": [dispute_view(fields) for fields in privacy.disputes_filed(db(), player)],
        "leagues": league_weeks(player),
        "tournaments": [tournament_view(tournament, player) for tournament in
                        load_tournaments(db(), privacy.tournaments_entered(db(), player))],
        "rewards": player_inbox(db(), player),
    }


def _runs_with_audit(runs: list) -> list[dict]:
    """The runs as anyone may see them, each with its audit log (a flag's dismissal left out: the moderators')."""
    logs = run_audit_logs(db(), [run.id for run in runs])
    return [{**asdict(shown(run, revealed)), "audit": [entry for entry in log if entry["event"] != DISMISSED_EVENT]}
            for run, log in zip(runs, logs, strict=True)]


def place_held(board, player: str) -> dict | None:
    """The player's place on ``board`` (a ``BoardId``), or None."""
    if board.board.order is Order.LATEST:
        found = ladder_position(db(), board, player, 0)
    else:
        found = board_position(db(), ranking(board), player, 0)
    if found is None:
        return None
    found.pop("around", None)
    return {**found, "board": board.api, "page": board.page}


@blp.route("/players/<player:name>", methods=["DELETE"])
@blp.doc(security=BEARER)
@blp.response(200, ErasedSchema, description="Erased, the archive's share too")
@blp.alt_response(202, schema=ErasedSchema, description="Erased from Redis; the archive's share of a very long "
                                                        "history waits for scoundrel erase --finish")
@error_response(blp, 401, "No or wrong token")
@error_response(blp, 403, "Another player's token")
@error_response(blp, 404, "No such player")
def erase_player(name):
    """Erase the player: account, tokens, studios' links, runs, games, places (the boards close the gap; a
    past season's standings and a closed day's sealed board keep the place under a pseudonym, deleted-<n>),
    streak, follows, disputes, league weeks, tournament entries. For the player themselves, a studio's
    server key or a moderator. The name may be registered again after SCOUNDREL_NAME_COOL_OFF_DAYS; a
    player.erased webhook event tells the studios to erase their copies."""
    player, kind, who = account_holder(name, moderators=True)
    erasure = begin_erasure(db(), player)
    by = (kind, erasure.pseudonym if kind == "player" else who)  # the log never names the player
    erased = erase(db(), erasure, by, referee().settings.name_cool_off_seconds)
    return {"name": player, "erased": True, "finished": not erased.archive_left}, 202 if erased.archive_left else 200


@blp.route("/erasures")
@moderator_endpoint(blp)
@blp.arguments(PageArgs(), location="query")
@blp.response(200, ErasureLogSchema)
def erasures(page):
    """The erasures done, newest first: when, by whom, and the pseudonym the player's kept places show; never
    the name, nor what was erased."""
    total, entries = erasure_log(db(), page["offset"], page["limit"])
    return {"total": total, "entries": entries}
