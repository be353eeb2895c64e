"""``scoundrel moderator …`` and ``scoundrel server-key …``: add, list and revoke the holders of a kind of token
(REDIS_URL, else the Redis scoundrel up runs). Each kind is a ``Kind``: its command, its noun, its store calls."""

import sys
from collections.abc import Callable
from dataclasses import dataclass

from .connecting import add_operator_options, connect


@dataclass(frozen=True)
class Kind:
    """One kind of token holder as the operator manages it; the store's calls are imported when run."""

    command: str  # "moderator", "server-key"
    noun: str  # "moderator", "server key"
    capital: str  # "Moderator", "Server key"
    what: str  # the help line of its command
    calls: Callable[[], tuple[Callable, Callable, Callable]]  # its create, list and revoke (after ``connect``)


def _add(kind: Kind, args) -> int:
    from marshmallow import ValidationError

    from domain.errors import NameTaken
    from schemas.players import PlayerCreateSchema

    try:
        PlayerCreateSchema().load({"name": args.name})
    except ValidationError as invalid:
        print(f"scoundrel {kind.command} add: {invalid.messages_dict['name'][0]}", file=sys.stderr)
        return 2
    db = connect(args)
    create, _, _ = kind.calls()
    try:
        token = create(db, args.name)
    except NameTaken as taken:
        ignoring_case = "" if taken.registered == args.name else " (names ignore case)"
        print(f"scoundrel {kind.command} add: a {kind.noun} named {taken.registered!r} exists{ignoring_case}",
              file=sys.stderr)
        return 1
    print(f"{kind.capital} {args.name} created. Its token is shown this once; keep it secret:")
    print(token)
    return 0


def _show(kind: Kind, args) -> int:
    db = connect(args)
    from store.base import iso_time

    _, listed, _ = kind.calls()
    for holder in listed(db):
        print(f"{holder['name']}\t{iso_time(holder['created_ms'])}")
    return 0


def _revoke(kind: Kind, args) -> int:
    db = connect(args)
    _, _, revoke = kind.calls()
    revoked = revoke(db, args.name)
    if revoked is None:
        print(f"scoundrel {kind.command} revoke: no {kind.noun} named {args.name!r}", file=sys.stderr)
        return 1
    print(f"{kind.capital} {revoked} revoked; its token no longer works.")
    return 0


def register_kind(subparsers, kind: Kind) -> None:
    parser = subparsers.add_parser(
        kind.command, help=kind.what,
        description=f"Manage {kind.noun}s in the Redis at REDIS_URL, else the one scoundrel up runs.",
    )
    actions = parser.add_subparsers(title="actions", metavar="ACTION", required=True)
    adding = actions.add_parser("add", help=f"create a {kind.noun}; prints its token as the last line")
    adding.add_argument("name", metavar="NAME",
                        help=f"the {kind.noun}'s name: 3-32 of A-Z a-z 0-9 _ -, a letter or digit among them; "
                             "unique ignoring case")
    adding.set_defaults(func=lambda args: _add(kind, args))
    listing = actions.add_parser("list", help=f"list {kind.noun}s")
    listing.set_defaults(func=lambda args: _show(kind, args))
    revoking = actions.add_parser("revoke", help=f"remove a {kind.noun} and invalidate its token")
    revoking.add_argument("name", metavar="NAME", help=f"the {kind.noun} to revoke, as listed")
    revoking.set_defaults(func=lambda args: _revoke(kind, args))
    for action in (adding, listing, revoking):
        add_operator_options(action)
