"""``/v1/players/<name>/ban``, ``/hide`` and ``/rename``: moderators' sanctions of a player, and
``/v1/moderation-log``.

A ban takes the player's places off every board, forfeits their games in
play and refuses them new runs and games (403 ``reason: banned``,
``refuse_banned``) until it is lifted or its ``until`` comes; a hiding takes
the places off the boards and refuses nothing. Lifting the last of the two
gives the places back, recomputed from the player's runs
(``store.sanctions``). A forced rename moves everything of the player to a
new name and rests the old one (``store.privacy.rename``). Every action is
in the moderators' log.
"""

from flask import g

from domain.errors import PlayerBanned
from schemas.sanctions import (
    BanSchema,
    HideSchema,
    ModerationLogArgs,
    ModerationLogSchema,
    PlayerSanctionsSchema,
    RenamedSchema,
    RenameSchema,
)
from store.base import iso_time
from store.privacy import rename
from store.sanctions import Sanction, ban, ban_of, hide, hiding_of, moderation_log, unban, unhide

from .api import Blueprint, error_response
from .auth import moderator_endpoint
from .context import allowed_name, db, referee
from .errors import abort
from .players import registered

blp = Blueprint("player_moderation", __name__, url_prefix="/v1",
                description="Moderators' sanctions of players: bans and hidings")


def refuse_banned(player: str) -> None:
    """Raise ``PlayerBanned`` (403 ``reason: banned``) for a player whose ban is in force: asked before a
    new run or game is taken."""
    if (found := ban_of(db(), player)) is not None:
        raise PlayerBanned(found.until_ms)


def sanction_view(sanction: Sanction | None) -> dict | None:
    """A ban or a hiding as the API shows it to moderators."""
    if sanction is None:
        return None
    return {"reason": sanction.reason, "moderator": sanction.moderator, "since": iso_time(sanction.at_ms),
            "until": iso_time(sanction.until_ms)}


def sanctions_of(player: str) -> dict:
    """The player's ban in force and hiding, as ``PlayerSanctionsSchema`` dumps them."""
    return {"player": player, "ban": sanction_view(ban_of(db(), player)),
            "hidden": sanction_view(hiding_of(db(), player))}


@blp.route("/players/<name>/ban", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(BanSchema())
@blp.response(200, PlayerSanctionsSchema)
@error_response(blp, 404, "No such player")
def ban_player(body, name):
    """Ban the player: their places leave every board (the places below close the gap), their games in play
    are forfeited (R18), and new runs and games are refused (403, reason banned); with ``until``, the ban ends
    by itself then. Banning a banned player replaces the ban."""
    player = registered(name)
    until = body["until"]
    ban(db(), player, g.moderator, body["reason"], None if until is None else int(until.timestamp() * 1000))
    return sanctions_of(player)


@blp.route("/players/<name>/ban", methods=["DELETE"])
@moderator_endpoint(blp)
@blp.response(200, PlayerSanctionsSchema)
@error_response(blp, 404, "No such player")
@error_response(blp, 409, "The player is not banned")
def unban_player(name):
    """Lift the ban: the player's places come back, exactly those their runs earn (unless they are hidden)."""
    player = registered(name)
    unban(db(), player, g.moderator)
    return sanctions_of(player)


@blp.route("/players/<name>/hide", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(HideSchema())
@blp.response(200, PlayerSanctionsSchema)
@error_response(blp, 404, "No such player")
def hide_player(body, name):
    """Hide the player while evidence gathers: their places leave every board for everyone; they play on."""
    player = registered(name)
    hide(db(), player, g.moderator, body["reason"])
    return sanctions_of(player)


@blp.route("/players/<name>/hide", methods=["DELETE"])
@moderator_endpoint(blp)
@blp.response(200, PlayerSanctionsSchema)
@error_response(blp, 404, "No such player")
@error_response(blp, 409, "The player is not hidden")
def unhide_player(name):
    """Show the player again: their places come back (unless they are banned)."""
    player = registered(name)
    unhide(db(), player, g.moderator)
    return sanctions_of(player)


@blp.route("/players/<name>/rename", methods=["POST"])
@moderator_endpoint(blp)
@blp.arguments(RenameSchema())
@blp.response(200, RenamedSchema)
@error_response(blp, 404, "No such player")
@error_response(blp, 409, "The new name is taken, in this or another case, or rests after an erasure or a "
                          "rename (reason name_resting)")
@error_response(blp, 422, "A malformed name, or one the name policy refuses (reason name_not_allowed)")
def rename_player(body, name):
    """Rename the player (an offensive name): their runs, places on every board, follows, studio links, token,
    streak, league weeks, tournament entries and sanctions carry over to the new name (``name``; none: the
    next free ``player-<n>``), and the old name rests as an erased one does. Asked again after a rename
    stopped midway, it finishes that rename."""
    renamed = rename(db(), name, body["name"], g.moderator,
                     referee().settings.name_cool_off_seconds, allowed_name)
    if renamed is None:
        abort(404, message=f"No player named {name!r}.")
    return {"player": renamed.player, "previous": renamed.previous}


@blp.route("/players/<name>/sanctions")
@moderator_endpoint(blp)
@blp.response(200, PlayerSanctionsSchema)
@error_response(blp, 404, "No such player")
def player_sanctions(name):
    """The player's ban in force and hiding, if any."""
    return sanctions_of(registered(name))


@blp.route("/moderation-log")
@moderator_endpoint(blp)
@blp.arguments(ModerationLogArgs(), location="query")
@blp.response(200, ModerationLogSchema)
def log(page):
    """The moderators' actions, newest first: on players (ban, unban, hide, unhide, rename), on runs (a
    dispute's decision, void, restore, reverify, requeue), flags dismissed, reports closed and tournaments
    ended early; of one ``moderator``, ``action`` and ``player`` where given (as the desk's ``/desk/log``)."""
    total, entries = moderation_log(db(), page["offset"], page["limit"], page["only"])
    return {"total": total, "entries": [{**entry, "at": iso_time(entry["at_ms"]),
                                         "until": iso_time(entry.get("until_ms"))} for entry in entries]}
