"""``scoundrel player ban|unban|hide|unhide|show|rename``: moderators' sanctions of a player from the command
line, as ``/v1/players/<name>/ban``, ``/hide`` and ``/rename`` do them (docs/moderation.md), each in the
moderators' log."""

import argparse
import sys
from datetime import UTC, datetime

from .connecting import add_operator_options, connect, settings_for

OPERATOR = "operator"  # the moderators' log's name for the command line, unless --moderator names someone


def _until(text: str) -> int:
    """An ISO 8601 time with a zone, in the future, as ms since 1970."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 time such as 2027-01-01T00:00:00Z") from None
    if moment.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no zone: add Z or +01:00")
    if moment <= datetime.now(UTC):
        raise argparse.ArgumentTypeError(f"{text!r} is not in the future")
    return int(moment.timestamp() * 1000)


def _new_name(text: str) -> str:
    """A name a player may register (the API's own check: ``schemas.players.new_player_name``)."""
    from marshmallow import ValidationError

    from schemas.players import new_player_name

    try:
        return new_player_name(text)
    except ValidationError as refused:
        raise argparse.ArgumentTypeError(f"{text!r}: {' '.join(map(str, refused.messages))}") from None


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "player", help="ban, unban, hide or unhide a player, or show their sanctions",
        description="Moderators' sanctions of a player (REDIS_URL, else the Redis scoundrel up runs), as the API's "
                    "/v1/players/<name>/ban and /hide: a ban withholds the player's places from every board, "
                    "forfeits their games in play and refuses their new runs and games; a hiding withholds the "
                    "places and refuses nothing. Lifting the last gives the places back. A rename moves all the "
                    "player's runs, places and accounts to a new name, and rests the old one.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True, dest="action")
    for action, said, reason in (("ban", "ban the player (with --until, until then)", True),
                                 ("unban", "lift the player's ban", False),
                                 ("hide", "hide the player's places from everyone while evidence gathers", True),
                                 ("unhide", "show the player's places again", False),
                                 ("show", "show the player's ban and hiding", False),
                                 ("rename", "rename the player (an offensive name): all theirs carries over, and "
                                            "the old name rests as an erased one does", False)):
        sub = actions.add_parser(action, help=said, description=said[0].upper() + said[1:] + ".")
        sub.add_argument("name", help="the player (in any case)")
        if reason:
            sub.add_argument("--reason", required=True, help="why, for the moderators' log")
        if action == "ban":
            sub.add_argument("--until", type=_until, default=None,
                             help="when the ban ends by itself (ISO 8601 with a zone); default: until lifted")
        if action == "rename":
            sub.add_argument("--to", type=_new_name, default=None, metavar="NEW",
                             help="the new name; default: the next free player-<n>")
        if action != "show":
            sub.add_argument("--moderator", default=OPERATOR,
                             help=f"the name the moderators' log gives the action (default: {OPERATOR})")
        add_operator_options(sub)
        sub.set_defaults(func=run)


def run(args) -> int:
    from domain.errors import NotSanctioned
    from store.accounts import find_player
    from store.base import BULK_TIMEOUT, iso_time
    from store.sanctions import ban, ban_of, hide, hiding_of, unban, unhide

    db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True)
    try:
        if args.action == "rename":
            return _rename(db, args)
        player = find_player(db, args.name)
        if player is None:
            print(f"scoundrel player: no player named {args.name!r}", file=sys.stderr)
            return 1
        try:
            if args.action == "ban":
                ban(db, player, args.moderator, args.reason, args.until)
            elif args.action == "unban":
                unban(db, player, args.moderator)
            elif args.action == "hide":
                hide(db, player, args.moderator, args.reason)
            elif args.action == "unhide":
                unhide(db, player, args.moderator)
        except NotSanctioned as refused:
            print(f"scoundrel player: {refused.message}", file=sys.stderr)
            return 1
        banned, hidden = ban_of(db, player), hiding_of(db, player)
    finally:
        db.close()
    ban_said = "not banned" if banned is None else (
        f"banned by {banned.moderator} ({banned.reason})"
        + (f" until {iso_time(banned.until_ms)}" if banned.until_ms is not None else ""))
    hide_said = "not hidden" if hidden is None else f"hidden by {hidden.moderator} ({hidden.reason})"
    print(f"scoundrel player: {player}: {ban_said}; {hide_said}")
    return 0


def _rename(db, args) -> int:
    """The rename, and its answer: one line on stdout, or one on stderr and status 1 for a refusal."""
    from domain.errors import NameNotAllowed, NameTaken
    from domain.names import NamePolicy
    from store.privacy import rename

    settings = settings_for(args)
    try:
        renamed = rename(db, args.name, args.to, args.moderator, settings.name_cool_off_seconds,
                         NamePolicy.of(settings.name_blocklist).check)
    except (NameNotAllowed, NameTaken) as refused:
        print(f"scoundrel player: {refused.message}", file=sys.stderr)
        return 1
    if renamed is None:
        print(f"scoundrel player: no player named {args.name!r}", file=sys.stderr)
        return 1
    print(f"scoundrel player: {renamed.previous} is now {renamed.player}")
    return 0
