"""``scoundrel player ban|unban|hide|unhide|show``: moderators' sanctions of a player from the command line,
as ``/v1/players/<name>/ban`` and ``/hide`` do them (docs/moderation.md), each in the moderators' log."""

import argparse
import sys
from datetime import UTC, datetime

from .connecting import add_operator_options, connect

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


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "player", help="ban, unban, hide or unhide a player, or show their sanctions",
        description="Moderators' sanctions of a player (REDIS_URL, else the Redis scoundrel up runs), as the API's "
                    "/v1/players/<name>/ban and /hide: a ban withholds the player's places from every board, "
                    "forfeits their games in play and refuses their new runs and games; a hiding withholds the "
                    "places and refuses nothing. Lifting the last gives the places back.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True, dest="action")
    for action, said, reason in (("ban", "ban the player (with --until, until then)", True),
                                 ("unban", "lift the player's ban", False),
                                 ("hide", "hide the player's places from everyone while evidence gathers", True),
                                 ("unhide", "show the player's places again", False),
                                 ("show", "show the player's ban and hiding", False)):
        sub = actions.add_parser(action, help=said, description=said[0].upper() + said[1:] + ".")
        sub.add_argument("name", help="the player (in any case)")
        if reason:
            sub.add_argument("--reason", required=True, help="why, for the moderators' log")
        if action == "ban":
            sub.add_argument("--until", type=_until, default=None,
                             help="when the ban ends by itself (ISO 8601 with a zone); default: until lifted")
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
