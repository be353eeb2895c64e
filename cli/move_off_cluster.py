"""``scoundrel move-off-cluster CLUSTER_URL``: copy the data of a Redis Cluster of the previous release into
the one Redis the settings name.

``CLUSTER_URL`` names a node of the cluster; the one Redis is ``REDIS_URL``
(or the master of ``SCOUNDREL_SENTINELS``, or ``--data-dir``'s ``scoundrel
up``), empty, or holding this move's own partial copy. Without ``--apply``
it only counts what it would copy; with it, it copies every key of every
master to its place on the one Redis, then finishes what the previous
release's steps owed, as ``scoundrel migrate`` does
(``store.operations.move_off_cluster``). Safe to interrupt and run again: it
carries on. Stop the API and the workers first: a write made on the cluster
while it runs may not be copied. Then start them on the one Redis.
"""

import sys

from scoundrel.wording import plural
from settings import SettingsError, without_password

from .bulk_options import add_bulk_options
from .connecting import add_data_dir_option, connect
from .migrate import found
from .progress import progress_bar


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "move-off-cluster",
        help="copy the data of a Redis Cluster of the previous release into the one Redis (a dry run without --apply)",
        description="Copy every key of every master of the Redis Cluster that CLUSTER_URL is a node of into the one "
                    "Redis the settings name (REDIS_URL, SCOUNDREL_SENTINELS, else the one scoundrel up runs), "
                    "each under its name without its shard's tag: a key of one owner whole, the per-shard "
                    "indexes merged member by member, the per-shard counts summed; the archived-runs filter "
                    "(rebuilt from the archive as the service starts), expiring keys and the previous release's "
                    "step keys are left. Then finish what those steps owed, as scoundrel migrate does. Without "
                    "--apply, only count. Stop the API and the workers first, and unset "
                    "SCOUNDREL_REDIS_CLUSTER. The one Redis must be empty, or hold this move's own partial copy: "
                    "safe to interrupt and run again (it carries on); a finished move is not repeated.")
    parser.add_argument("cluster_url", metavar="CLUSTER_URL", help="a node of the cluster (redis://host:port)")
    add_bulk_options(parser, apply_help="copy (without it: only count)",
                     batch_help="keys read and written together (default: 500)")
    add_data_dir_option(parser)
    parser.set_defaults(func=run)


def _cluster(url: str):
    """A bytes client of the cluster ``url`` names; ``SettingsError`` if it is unreachable or no cluster."""
    from redis.cluster import RedisCluster
    from redis.exceptions import RedisClusterException, RedisError

    try:
        cluster = RedisCluster.from_url(url, socket_timeout=30)
        cluster.ping()
    except (RedisClusterException, RedisError, ValueError) as error:
        cause = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SettingsError(f"{without_password(url)}: not a reachable Redis Cluster ({cause})") from None
    return cluster


def run(args) -> int:
    from store.base import BULK_TIMEOUT
    from store.operations import MOVE_BATCH, MoveRefused, masters, move_off

    source = without_password(args.cluster_url)
    cluster = _cluster(args.cluster_url)
    bar = None
    try:
        db = connect(args, timeout=BULK_TIMEOUT, upgrade_archive=True, to_fill=True)
        try:
            if sys.stderr.isatty() and not args.quiet:
                bar = progress_bar(sum(master.dbsize() for _, master in masters(cluster)), " keys")
            tally = move_off(cluster, db, source, apply=args.apply, batch=args.batch or MOVE_BATCH,
                             progress=bar.update if bar is not None else None)
        except MoveRefused as refused:
            raise SettingsError(str(refused)) from None
        finally:
            db.close()
    finally:
        if bar is not None:
            bar.close()
        cluster.close()
    failed = not tally.whole or bool(tally.migrated and tally.migrated.changed)
    print(summary(tally, args.apply, source), file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0


SHOWN = 5  # keys named in a summary


def _named(keys: list[str]) -> str:
    shown = ", ".join(keys[:SHOWN])
    return shown + (f" and {len(keys) - SHOWN} more" if len(keys) > SHOWN else "")


def summary(tally, applied: bool, source: str) -> str:
    """One paragraph: what was (or would be) copied, passed over, left, and what to do next."""
    if tally.finished_before:
        return (f"scoundrel move-off-cluster: the move from the cluster at {source} finished before; nothing to do "
                f"(the service may have changed the data since: a new move needs an empty Redis)")
    line = (f"scoundrel move-off-cluster: {'copied' if applied else 'would copy'} "
            f"{tally.copied} {plural('key', tally.copied)} whole and {'merged' if applied else 'merge'} "
            f"{tally.merged} per-shard {plural('key', tally.merged)} into their one key, "
            f"{tally.present} there already (passed over), of {tally.examined} looked at on the "
            f"{tally.masters} {plural('master', tally.masters)} of the cluster at {source}"
            f"{' (carrying on a move stopped part way)' if tally.carried_on else ''}; left: {tally.left} of "
            f"the archived-runs filter (rebuilt from the archive), expiring keys and the previous release's step "
            f"keys, {tally.strangers} of other programs")
    if tally.unknown:
        line += (f"; {len(tally.unknown)} {plural('key', len(tally.unknown))} of no kind the service knows "
                 f"{'were' if applied else 'would be'} left ({_named(tally.unknown)}): this release cannot place them")
    if tally.conflicts:
        one = len(tally.conflicts) == 1
        them = "it" if one else "them"
        left = ("was" if one else "were") if applied else "would be"
        line += (f"; {len(tally.conflicts)} {plural('key', len(tally.conflicts))} of this Redis "
                 f"{'holds' if one else 'hold'} something else than the cluster's copy and {left} left as "
                 f"{'it is' if one else 'they are'} ({_named(tally.conflicts)}): were the writers stopped? "
                 f"Delete {them} here to copy {them} again")
    if not applied:
        return line + "; nothing written: run it with --apply"
    if not tally.whole:
        return line + "; the move is not finished: run it again once that is settled"
    migrated = tally.migrated
    if migrated is not None and migrated.anything:
        line += f"; then finished {found(migrated)}"
    if migrated is not None and migrated.changed:
        return line + f"; {migrated.changed} run(s) kept changing meanwhile: stop the writers and run it again"
    return line + ("; the move is finished: start the API and the workers with REDIS_URL (or SCOUNDREL_SENTINELS) "
                   "naming this Redis")
