"""``/v1/players``: registration and a player's runs."""

from werkzeug.routing import BaseConverter

from domain.sealing import shown
from schemas.paging import PageArgs
from schemas.players import PlayerCreateSchema, PlayerNameSchema, PlayerTokenSchema, name_key
from schemas.runs import RunPageSchema
from store import create_player, find_player, moderator_for_token, player_runs, replace_token
from store.accounts import link_new_player

from .api import Blueprint, error_response
from .auth import (
    BEARER,
    CHALLENGE,
    OPTIONAL_BEARER,
    bearer_token,
    is_moderator,
    moderator_endpoint,
    player_for_bearer,
    reject_token,
    require_player,
    server_key_of,
    signed_in,
    studio_account,
)
from .context import allowed_name, db, revealed
from .errors import abort

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Players")

ME = "me"  # ``/v1/players/me``, the player a token acts as: never a player's name (names are 3-32 characters)


class PlayerNameConverter(BaseConverter):
    """``<player:…>``: a path segment other than ``me``, so that ``/v1/players/me`` is the one operation its
    document lists (its ``Allow`` lists GET, not the DELETE of ``/v1/players/<name>``)."""

    regex = f"(?!{ME}$)[^/]+"


def player_parameter(converter: PlayerNameConverter) -> dict:
    """The OpenAPI schema of a ``<player:…>`` path parameter."""
    return {"type": "string", "pattern": f"^(?!{ME}$)[^/]+$", "description": "a player's name, in any case"}


def player_named(name: str) -> str | None:
    """The player ``name`` names, as registered (found in any case: ``schemas.players.name_key``), or None.
    Text that is no name finds no one, and never reaches the store, whose keys fold case more widely."""
    return find_player(db(), name) if name_key(name) is not None else None


def registered(name: str) -> str:
    """The player's name as registered, found in any case; else 404."""
    player = player_named(name)
    if player is None:
        abort(404, message=f"No player named {name!r}.")
    return player


def account_holder(name: str, moderators: bool = False) -> tuple[str, str, str]:
    """``(the player, who acts: player, server_key or moderator, their name)`` for a request that may act on
    the account ``name`` names: the player's own token or a studio's token signing them in, a studio's
    server key (for any of its players), or with ``moderators`` a moderator's token. 401 without a token or
    with one that is none of those, 403 for another player's (or a moderator's where it may not), 404 for no
    such player."""
    token = bearer_token()
    if token is None:
        abort(401, message="A player token is required: Authorization: Bearer <token>.", headers=CHALLENGE)
    if (key := server_key_of(token)) is not None:
        return registered(name), "server_key", key
    if (moderator := moderator_for_token(db(), token)) is not None:
        if not moderators:
            abort(403, message="Only the player themselves, or a studio's server key, may do this.")
        return registered(name), "moderator", moderator
    player = player_for_bearer(token)
    if player is None:
        reject_token()
    if name_key(name) != name_key(player):
        abort(403, message="Only the player themselves may do this, with their own token.")
    return player, "player", player


@blp.route("", methods=["POST"])
@blp.doc(security=OPTIONAL_BEARER)
@blp.arguments(PlayerCreateSchema())
@blp.response(201, PlayerTokenSchema)
@blp.alt_response(200, schema=PlayerTokenSchema, description="With a studio's token whose account is linked "
                                                              "already: that player (token null)")
@error_response(blp, 401, "A studio's token refused (reason)")
@error_response(blp, 409, "The name is taken, in this or another case")
@error_response(blp, 422, "A malformed name, or one the name policy refuses (reason name_not_allowed)")
def register(body):
    """Register a player; the token in the answer is shown this once. ``Ada`` and ``ADA`` are one name.
    With a studio's token (``Authorization: Bearer <JWT>``, docs/integrators.md) the player is linked to its
    account instead, and the answer holds no token: the studio's tokens sign the player in."""
    allowed_name(body["name"])
    token = bearer_token()
    if token is None or not signed_in(token):
        return {"name": body["name"], "token": create_player(db(), body["name"])}
    account = studio_account(token)
    player, made = link_new_player(db(), account.issuer.issuer, account.subject, body["name"])
    return {"name": player, "token": None}, 201 if made else 200


@blp.route(f"/{ME}")
@blp.doc(security=BEARER)
@blp.response(200, PlayerNameSchema, headers={"Cache-Control": {"description": "no-store",
                                                                 "schema": {"type": "string"}}})
@error_response(blp, 401, "No or wrong token (a studio's: with its reason)")
@error_response(blp, 403, "A studio's account with no player yet (reason not_linked)")
def me():
    """The player a bearer token acts as: one of the service's tokens, or a studio's (an embedded /play asks
    whose the token it was handed is, docs/integrators.md). A studio's account with no player yet is a 403
    ``not_linked``: the player then chooses a name (``POST /v1/players`` with the token)."""
    return {"name": require_player()}, 200, {"Cache-Control": "no-store"}


@blp.route("/<name>/runs")
@blp.arguments(PageArgs(), location="query")
@blp.response(200, RunPageSchema)
@error_response(blp, 404, "No such player")
def runs_of(page, name):
    """A player's runs, newest first; the name in any case."""
    player = registered(name)
    total, runs = player_runs(db(), player, page["offset"], page["limit"])
    moderator = is_moderator()
    return {"player": player, "total": total, "runs": [shown(run, revealed, moderator) for run in runs]}


@blp.route("/<name>/revoke-token", methods=["POST"])
@moderator_endpoint(blp)
@blp.response(200, PlayerTokenSchema, description="The old token no longer works; hand the new one to the player")
@error_response(blp, 404, "No such player")
def revoke_token(name):
    """Revoke a player's token (a moderator's call) and issue the replacement, shown this once."""
    player = registered(name)
    token = replace_token(db(), player)
    if token is None:
        abort(404, message=f"No player named {name!r}.")
    return {"name": player, "token": token}
