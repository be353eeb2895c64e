"""``scoundrel moderator add|list|revoke``: managing moderators (REDIS_URL, else the Redis scoundrel up runs)."""

import sys

from .connecting import add_operator_options, connect


def add(args) -> int:
    from marshmallow import ValidationError

    from domain.errors import NameTaken
    from schemas.players import PlayerCreateSchema
    from store import create_moderator

    try:
        PlayerCreateSchema().load({"name": args.name})
    except ValidationError as invalid:
        print(f"scoundrel moderator add: {invalid.messages_dict['name'][0]}", file=sys.stderr)
        return 2
    try:
        token = create_moderator(connect(args), args.name)
    except NameTaken as taken:
        ignoring_case = "" if taken.registered == args.name else " (names ignore case)"
        print(f"scoundrel moderator add: a moderator named {taken.registered!r} exists{ignoring_case}",
              file=sys.stderr)
        return 1
    print(f"Moderator {args.name} created. Its token is shown this once; keep it secret:")
    print(token)
    return 0


def show(args) -> int:
    from store import list_moderators
    from store.base.packing import iso_time

    for moderator in list_moderators(connect(args)):
        print(f"{moderator['name']}\t{iso_time(moderator['created_ms'])}")
    return 0


def revoke(args) -> int:
    from store import revoke_moderator

    revoked = revoke_moderator(connect(args), args.name)
    if revoked is None:
        print(f"scoundrel moderator revoke: no moderator named {args.name!r}", file=sys.stderr)
        return 1
    print(f"Moderator {revoked} revoked; its token no longer works.")
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "moderator", help="add, list or revoke moderators",
        description="Manage moderators in the Redis at REDIS_URL, else the one scoundrel up runs.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    adding = actions.add_parser("add", help="create a moderator; prints its token as the last line")
    adding.add_argument("name", metavar="NAME")
    adding.set_defaults(func=add)
    listing = actions.add_parser("list", help="list moderators")
    listing.set_defaults(func=show)
    revoking = actions.add_parser("revoke", help="remove a moderator and invalidate its token")
    revoking.add_argument("name", metavar="NAME")
    revoking.set_defaults(func=revoke)
    for action in (adding, listing, revoking):
        add_operator_options(action)
