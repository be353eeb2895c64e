"""``/v1/server``: what a studio's backend does with a server key (``scoundrel server-key add``): register a player
linked to the studio's account id, look one up by it, and issue a player a new token (account recovery).

A server key also acts for a player on every player path, named in ``X-Scoundrel-Player`` (``service.auth``),
and never as a moderator. Its requests are in the request log with its name, and a run it submits names it in
its audit log.
"""

import functools

from flask import g

from schemas.players import PlayerTokenSchema, ServerPlayerCreateSchema, ServerPlayerSchema
from store import replace_token
from store.accounts import SERVER, link_new_player, linked_player

from .api import Blueprint, error_response
from .auth import BEARER, CHALLENGE, bearer_token, server_key_of
from .context import allowed_name, db
from .errors import abort

blp = Blueprint("server_players", __name__, url_prefix="/v1/server",
                description="A studio's backend, with a server key: its players by their account ids")


def server_key_required(view):
    """Run the view only for a server key (``g.server_key``): 401 without a valid one."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        token = bearer_token()
        if token is None or server_key_of(token) is None:
            abort(401, message="A server key is required: Authorization: Bearer <server key>.", headers=CHALLENGE)
        return view(*args, **kwargs)

    return guarded


def _linked(external_id: str) -> str:
    player = linked_player(db(), SERVER, external_id)
    if player is None:
        abort(404, message="No player is linked to that account id.")
    return player


@blp.route("/players", methods=["POST"])
@blp.doc(security=BEARER)
@server_key_required
@blp.arguments(ServerPlayerCreateSchema())
@blp.response(201, ServerPlayerSchema)
@blp.alt_response(200, schema=ServerPlayerSchema, description="The account id was linked already: its player")
@error_response(blp, 401, "No or wrong server key")
@error_response(blp, 409, "The name is taken, in this or another case")
def create(body):
    """Register a player linked to the studio's account id (once: the same id again answers its player)."""
    player, made = link_new_player(db(), SERVER, body["external_id"], allowed_name(body["name"]))
    return {"name": player, "external_id": body["external_id"]}, 201 if made else 200


@blp.route("/players/<external_id>")
@blp.doc(security=BEARER)
@server_key_required
@blp.response(200, ServerPlayerSchema)
@error_response(blp, 401, "No or wrong server key")
@error_response(blp, 404, "No player linked to that account id")
def find(external_id):
    """The player linked to the studio's account id."""
    return {"name": _linked(external_id), "external_id": external_id}


@blp.route("/players/<external_id>/token", methods=["POST"])
@blp.doc(security=BEARER)
@server_key_required
@blp.response(200, PlayerTokenSchema, description="A new token; the player's old one no longer works")
@error_response(blp, 401, "No or wrong server key")
@error_response(blp, 404, "No player linked to that account id")
def new_token(external_id):
    """Account recovery: a new token for the player linked to the account id, the old one revoked."""
    player = _linked(external_id)
    g.player = player
    return {"name": player, "token": replace_token(db(), player)}
