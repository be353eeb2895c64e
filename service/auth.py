"""Bearer tokens: who is making this request: one of the service's own tokens, a studio's signed token (a
JWT, ``service.sign_in``) for the player linked to its account, or a studio's server key acting for the
player ``X-Scoundrel-Player`` names (``store.accounts.server_keys``)."""

import functools
from typing import NoReturn

from flask import g, request
from werkzeug.exceptions import HTTPException

from domain.errors import NameNotAllowed
from schemas.players import name_key
from store import find_player, moderator_for_token, player_for_token
from store.accounts import hash_token, is_server_key, link_new_player, linked_player, server_key_for_token
from store.base import TokenRevoked

from .api import error_response
from .context import db, referee
from .errors import abort
from .sign_in import KEYS_UNAVAILABLE, NOT_LINKED, Account, SignInRefused, looks_like_jwt

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="scoundrel"'}
PLAYER_HEADER = "X-Scoundrel-Player"  # the player a server key acts for


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
    name = player_for_bearer(token)
    if name is None:
        reject_token()
    return name


def signed_in(token: str) -> bool:
    """Whether ``token`` is a studio's token (a JWT, with issuers configured), not one of the service's."""
    return bool(referee().sign_in.issuers) and looks_like_jwt(token)


def studio_account(token: str) -> Account:
    """The studio account a studio's token signs in: 401 with its ``reason`` for a token refused, 503 while
    its issuer's keys cannot be fetched (``service.sign_in``)."""
    try:
        return referee().sign_in.verify(token)
    except SignInRefused as refused:
        if refused.reason == KEYS_UNAVAILABLE:
            abort(503, message=str(refused), extra={"reason": refused.reason}, headers={"Retry-After": "5"})
        abort(401, message=str(refused), extra={"reason": refused.reason}, headers=CHALLENGE)


def server_key_of(token: str) -> str | None:
    """The server key ``token`` is (noted in ``g.server_key``: the request log names it), or None; looked up
    once a request."""
    if not is_server_key(token):
        return None
    if "server_key" not in g:
        g.server_key = server_key_for_token(db(), token)
    return g.server_key


def verified_here(token: str) -> bool:
    """Whether the request's player is found from ``token`` here (a studio's token or a server key), rather
    than checked by the store's scripts against their own index of tokens."""
    return signed_in(token) or server_key_of(token) is not None


def _acted_for(reads: bool) -> str | None:
    """The player a server key acts for (``X-Scoundrel-Player``, in any case): 422 without one (None for a
    public read), 404 for no such player."""
    named = request.headers.get(PLAYER_HEADER)
    if not named:
        if reads:
            return None
        abort(422, message=f"A server key acts for a player: name them in {PLAYER_HEADER}.",
              errors={PLAYER_HEADER: ["Missing."]})
    player = find_player(db(), named) if name_key(named) is not None else None
    if player is None:
        abort(404, message=f"No player named {named!r}.")
    return player


def player_for_bearer(token: str, unlinked_reads: bool = False) -> str | None:
    """The player a bearer token acts as: the holder of one of the service's tokens, or the player linked to a
    studio's account (made on its first use when the issuer names players from a claim; 403 ``not_linked``
    until the player has chosen a name, ``POST /v1/players``, or None with ``unlinked_reads``: a public read
    answers such a token as it answers anyone), or the player a server key acts for (``_acted_for``)."""
    if server_key_of(token) is not None:
        return _acted_for(unlinked_reads)
    if not signed_in(token):
        return player_for_token(db(), token)
    account = studio_account(token)
    player = linked_player(db(), account.issuer.issuer, account.subject)
    if player is None and account.name is not None:
        if referee().name_policy.allows(account.name):
            player, _ = link_new_player(db(), account.issuer.issuer, account.subject, account.name)
        elif not unlinked_reads:  # the claimed name refused: the player chooses another (POST /v1/players)
            raise NameNotAllowed(account.name)
    if player is None and not unlinked_reads:
        abort(403, message="No player is linked to this account yet: choose a name with POST /v1/players, "
                           "sending this token.", extra={"reason": NOT_LINKED})
    return player


def optional_player() -> str | None:
    """The player whose token this request carries; None without a token or with a moderator's
    (who reads a player's resource as anyone else does); 401 for a token that is neither."""
    token = bearer_token()
    if token is None:
        return None
    g.player = player_for_bearer(token, unlinked_reads=True)
    if g.player is None and not verified_here(token) and moderator_for_token(db(), token) is None:
        reject_token()
    return g.player


def is_moderator() -> bool:
    """Whether this request carries a moderator's token (a public read that shows moderators more)."""
    token = bearer_token()
    return token is not None and moderator_for_token(db(), token) is not None


def token_required(view):
    """Run the view only for a request with a bearer token (401 before any body is read).

    For a view that checks the token itself together with what it reads
    (one round trip), with ``reject_token`` when it is wrong.
    """

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if bearer_token() is None:
            abort(401, message="A player token is required: Authorization: Bearer <token>.", headers=CHALLENGE)
        return view(*args, **kwargs)

    return guarded


def reject_token() -> NoReturn:
    abort(401, message="The token is not valid.", headers=CHALLENGE)


def player_required(view):
    """Run the view only for a player with a valid token (401 before any body is read)."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        g.player = require_player()
        return view(*args, **kwargs)

    return guarded


def own(name: str) -> None:
    """403 unless this request's player (``player_required``) is the one ``name`` names, in any case."""
    if name_key(name) != name_key(g.player):
        abort(403, message="Only the player themselves may do this, with their own token.")


TOKEN_NAMES_KEPT = 10_000  # token hints an API process keeps; all forgotten at once when full


def submitter_required(view):
    """``player_required`` for a view whose store write checks the token itself in its atomic step
    (``store.runs.accept_runs``' ``token_hash``, here ``g.token_hash``), so a token seen before costs
    no lookup of its own.

    The player a token named is remembered as a hint only: the write stores nothing unless the
    token names that player still (``TokenRevoked``: 401), so a revoked or replaced token is
    refused as at once as with a lookup; a hint refused is looked up once more, and the view runs
    again for the player the token names now (a forced rename gives the token to the new name). A
    token never seen is looked up first, as everywhere (401 before any body is read); a remembered
    one whose request fails before the write (a malformed body) is looked up then, so a revoked
    token still gets its 401, not the body's 422.
    """

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        token = bearer_token()
        if token is None:
            abort(401, message="A player token is required: Authorization: Bearer <token>.", headers=CHALLENGE)
        if verified_here(token):  # with no token of the store's to check as it writes
            g.player, g.token_hash = player_for_bearer(token), ""
            return view(*args, **kwargs)
        names = referee().token_names
        g.token_hash = hash_token(token)
        hinted = names.get(g.token_hash)
        g.player = hinted or _looked_up(token, names)
        try:
            return view(*args, **kwargs)
        except TokenRevoked:
            names.pop(g.token_hash, None)
            if hinted is None:
                reject_token()
            # The hint may name the player before a moderator's forced rename: the token's player now, once.
            g.player = _looked_up(token, names)
            try:
                return view(*args, **kwargs)
            except TokenRevoked:
                names.pop(g.token_hash, None)
                reject_token()
        except HTTPException:
            if hinted and (named := player_for_token(db(), token)) != hinted:
                names.pop(g.token_hash, None)
                if named is None:  # revoked; else renamed, and the refusal stands as it is
                    reject_token()
            raise

    return guarded


def _looked_up(token: str, names: dict[str, str]) -> str:
    """The player ``token`` names, looked up (401 for none), and remembered as a hint."""
    name = player_for_token(db(), token)
    if name is None:
        reject_token()
    if len(names) >= TOKEN_NAMES_KEPT:
        names.clear()
    names[hash_token(token)] = name
    return name


def require_moderator() -> str:
    """The moderator authorising this request: 401 without a valid token, 403 for a player's."""
    token = bearer_token()
    if token is None:
        abort(401, message="A moderator token is required: Authorization: Bearer <token>.", headers=CHALLENGE)
    name = moderator_for_token(db(), token)
    if name is not None:
        return name
    if player_for_token(db(), token) is not None:
        abort(403, message="This needs a moderator; a player's token is not enough.")
    if server_key_of(token) is not None:
        abort(403, message="This needs a moderator; a server key acts for players only.")
    abort(401, message="The token is not valid.", headers=CHALLENGE)


# the OpenAPI security requirement of token-guarded operations
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
# ... and of operations that take a token but answer without one too (``optional_player``)
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}, {}]


def moderator_endpoint(blp):
    """What every moderator endpoint carries: the guard, and its token and 401/403 answers in the docs."""

    def decorate(view):
        guarded = moderator_required(view)
        guarded = error_response(blp, 403, "A player's token, not a moderator's")(guarded)
        guarded = error_response(blp, 401, "No or wrong moderator token")(guarded)
        return blp.doc(security=BEARER)(guarded)

    return decorate


def moderator_required(view):
    """Run the view only for a moderator (``g.moderator``), before any body is read."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        g.moderator = require_moderator()
        return view(*args, **kwargs)

    return guarded
