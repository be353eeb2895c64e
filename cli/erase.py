"""``scoundrel erase``: erase a player on request, as ``DELETE /v1/players/<name>`` does, whatever the size of
their history in the archive; or finish every erasure begun and not finished (a request whose archive share
was too long to erase in it, a process stopped midway). Safe to interrupt and run again."""

import sys

from .connecting import add_operator_options, connect, settings_for

OPERATOR = ("cli", "operator")  # who the erasure log says asked


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "erase", help="erase a player and everything the service holds about them; or finish erasures begun",
        description="Erase the player NAME from Redis and the archive (SCOUNDREL_ARCHIVE_URL, else SQLite in the "
                    "data directory): account, tokens, links, runs, games, places (a past season's standings and "
                    "a closed day's sealed board keep the place under a pseudonym), follows, disputes, leagues, "
                    "tournament entries; the name rests SCOUNDREL_NAME_COOL_OFF_DAYS. With --finish, carry every "
                    "erasure begun and not finished to its end. Safe to interrupt and run again.")
    parser.add_argument("name", nargs="?", help="the player to erase (in any case)")
    parser.add_argument("--finish", action="store_true", help="finish the erasures begun and not finished")
    add_operator_options(parser)
    parser.set_defaults(func=run)


def run(args) -> int:
    from store.accounts import find_player
    from store.base import BULK_TIMEOUT
    from store.privacy import begin_erasure, erase, finish_erasures

    if bool(args.name) == args.finish:
        print("scoundrel erase: name one player, or give --finish (not both)", file=sys.stderr)
        return 2
    db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True)
    cool_off = settings_for(args).name_cool_off_seconds
    try:
        if args.finish:
            finished = finish_erasures(db, OPERATOR, cool_off)
            print(f"scoundrel erase: {len(finished)} erasure(s) finished")
            return 0
        player = find_player(db, args.name)
        if player is None:
            print(f"scoundrel erase: no player named {args.name!r}", file=sys.stderr)
            return 1
        erasure = begin_erasure(db, player)
        erased = erase(db, erasure, OPERATOR, cool_off, archive_inline=None)
    finally:
        db.close()
    print(f"scoundrel erase: {player} erased; {_places_kept(erased.runs, erasure.pseudonym)}")
    return 0


def _places_kept(runs: int, pseudonym: str) -> str:
    """What became of the player's places: with no run, they held none, and the pseudonym names them in the log
    of erasures alone."""
    if not runs:
        return f"they had no runs, so no place keeps them (the log of erasures names them {pseudonym})"
    return (f"{runs} run(s); a place kept on a past season's standings or a closed day's sealed board "
            f"shows as {pseudonym}")
