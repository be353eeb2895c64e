"""``scoundrel move-to-cluster``: copy the service's data from its one Redis into a Redis Cluster.

``REDIS_URL`` (or ``--data-dir``'s ``scoundrel up``) names the one Redis,
``--to`` a node of the cluster. Without ``--apply`` it only counts what it
would copy; with it, it copies every key to its place on the cluster
(``store.cluster_move``). Safe to interrupt and run again: it carries on,
passing over what is there. Stop the API and the workers first: a write
made while it runs may not be copied. Then start them on the cluster
(``SCOUNDREL_REDIS_CLUSTER=true``, ``REDIS_URL`` a node of it,
``SCOUNDREL_QUEUE_URL`` the queues' Redis).
"""

import sys

from scoundrel.wording import plural
from settings import SettingsError, without_password

from .bulk_options import add_bulk_options
from .connecting import add_operator_options, connect
from .progress import progress_bar


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "move-to-cluster", help="copy the data of the one Redis into a Redis Cluster (a dry run without --apply)",
        description="Copy every key of the service's one Redis (REDIS_URL, else the one scoundrel up runs) into "
                    "the Redis Cluster one of whose nodes --to names, each under its shard's tag, the per-shard "
                    "indexes spread by shard; RQ's queues and the archived-runs filter are left (the sweeper "
                    "queues the pending runs again, the service rebuilds the filter). Without --apply, only "
                    "count. Stop the API and the workers first. Safe to interrupt and run again (it carries on); "
                    "refuses a cluster holding any other data.")
    parser.add_argument("--to", required=True, metavar="URL", help="a node of the cluster (redis://host:port)")
    add_bulk_options(parser, apply_help="copy (without it: only count)",
                     batch_help="keys read and written together (default: 500)")
    add_operator_options(parser)
    parser.set_defaults(func=run)


def _cluster(url: str):
    """A bytes client of the cluster ``url`` names; ``SettingsError`` if it is unreachable or no cluster."""
    from redis.cluster import RedisCluster
    from redis.exceptions import RedisClusterException, RedisError

    try:
        cluster = RedisCluster.from_url(url, socket_timeout=30)
        cluster.ping()
    except (RedisClusterException, RedisError) as error:
        cause = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SettingsError(f"--to {without_password(url)}: not a reachable Redis Cluster ({cause})") from None
    return cluster


def run(args) -> int:
    from store.cluster_move import BATCH, MoveRefused, move
    from store.database import BULK_TIMEOUT
    from store.layout_migration import migrate

    from .connecting import settings_for

    settings = settings_for(args)
    if settings.redis_cluster:
        raise SettingsError("REDIS_URL names a cluster already (SCOUNDREL_REDIS_CLUSTER is set): point it at the "
                            "one Redis to copy from, and --to at the cluster")
    db = connect(args, timeout=BULK_TIMEOUT)
    bar = None
    try:
        if migrate(db, apply=False).anything:
            raise SettingsError("the one Redis holds runs or keys of an older layout, which a cluster never "
                                "reads: run scoundrel migrate --apply first")
        target = _cluster(args.to)
        if sys.stderr.isatty() and not args.quiet:
            bar = progress_bar(db.raw.dbsize(), " keys")
        try:
            tally = move(db.raw, target, without_password(settings.redis_url), apply=args.apply,
                         batch=args.batch or BATCH, progress=bar.update if bar is not None else None)
        except MoveRefused as refused:
            raise SettingsError(f"{refused}; nothing was written") from None
        finally:
            target.close()
    finally:
        if bar is not None:
            bar.close()
        db.close()
    print(summary(tally, args.apply, without_password(args.to)), file=sys.stderr if tally.unknown else sys.stdout)
    return 1 if tally.unknown else 0


def summary(tally, applied: bool, to: str) -> str:
    """One paragraph: what was (or would be) copied, passed over, left, and what to do next."""
    if tally.finished_before:
        return (f"scoundrel move-to-cluster: the move into the cluster at {to} finished before; nothing copied "
                f"(its service may have changed the data since: a new move needs an empty cluster)")
    copied = f"{tally.copied} {plural('key', tally.copied)}"
    line = (f"scoundrel move-to-cluster: {'copied' if applied else 'would copy'} {copied} into the cluster "
            f"at {to}, {tally.present} there already (passed over), of {tally.examined} in the one Redis; "
            f"left: {tally.queue} of RQ's queues (the sweeper queues the pending runs again), "
            f"{tally.rebuilt} of the archived-runs filter or the write probe (rebuilt from the archive, or expiring), "
            f"{tally.strangers} of other programs")
    if tally.unknown:
        shown = ", ".join(tally.unknown[:5])
        line += (f"; {len(tally.unknown)} {plural('key', len(tally.unknown))} of no kind the service knows "
                 f"{'were' if applied else 'would be'} left ({shown}): this release cannot place them")
    if not applied:
        return line + "; nothing written: run it with --apply"
    return line + ("; start the API and workers with SCOUNDREL_REDIS_CLUSTER=true, REDIS_URL a node of the "
                   "cluster and SCOUNDREL_QUEUE_URL the queues' Redis")
