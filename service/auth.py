"""Bearer tokens: who is making this request."""

import functools

from flask import g, request
from flask_smorest import abort

from store import player_for_token

from .context import db

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="scoundrel"'}


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def require_player() -> str:
    """The name of the player whose token authorises this request; 401 otherwise."""
    token = bearer_token()
    if token is None:
        abort(401, message="A player token is required: Authorization: Bearer <token>.", headers=CHALLENGE)
    name = player_for_token(db(), token)
    if name is None:
        abort(401, message="The token is not valid.", headers=CHALLENGE)
    return name


def player_required(view):
    """Run the view only for a player with a valid token (401 before any body is read)."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        g.player = require_player()
        return view(*args, **kwargs)

    return guarded
