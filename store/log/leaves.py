"""The public log's newest leaves, in Redis, and the secrets its pseudonyms are made with.

A change is appended to the log by the script that makes it (a job's
verdicts: ``lua/record_verdicts.lua``, through ``lua/_log.lua``): the leaf
goes onto a Redis list and the log's size counts it, in the same atomic step
as the change: two commands. The worker moves the list's head to the
archive (``store.log.tree``) and counts the leaves moved: the index of the
list's first leaf. A run's leaves are found by its id there.

A player appears in a leaf only as ``player_pseudonym``: an HMAC under a
secret of the player's own, made the first time one is needed and kept in
one hash. Erasure deletes the secret (``forget_player``), and from then on
nothing ties the pseudonym to a name; the log itself never changes. A
process keeps the secrets it read for ``SECRETS_KEPT`` seconds, so a worker
asks Redis once for a player's many verdicts; an erased player has no runs
left to judge, and their name rests far longer (SCOUNDREL_NAME_COOL_OFF_DAYS).
"""

import secrets
import time
from collections.abc import Iterable

from domain.dealer import commitment
from domain.run import Run
from domain.transparency import Leaf, moves_hash, player_pseudonym
from store.base import keys
from store.base.database import Database

SIZE, LEAVES, MOVED, SECRETS = keys.log_size(), keys.log_leaves(), keys.log_moved(), keys.log_secrets()
SECRETS_KEPT = 300.0  # seconds a process keeps a secret it read
_kept: dict[str, tuple[float, str]] = {}  # player → (until when, secret): this process's secrets
SEALED_SEED = "commitment:"  # a sealed seed's place in a leaf: this, then its commitment


def log_keys() -> list[str]:
    """The keys a script that appends a leaf is given, last (``lua/_log.lua``)."""
    return [SIZE, LEAVES]


def pseudonyms(db: Database, players: Iterable[str]) -> dict[str, str]:
    """Each player's pseudonym, making the secrets of those who have none yet: one read for those this
    process has not kept, and a write for the new ones (HSETNX: two workers making one at once agree on
    the first)."""
    now = time.monotonic()
    kept = {name: held[1] for name in set(players) if (held := _kept.get(name)) and held[0] > now}
    names = sorted(set(players) - set(kept))
    known = dict(zip(names, db.redis.hmget(SECRETS, names), strict=True)) if names else {}
    new = [name for name, secret in known.items() if secret is None]
    if new:
        with db.redis.pipeline(transaction=False) as pipe:
            for name in new:
                pipe.hsetnx(SECRETS, name, secrets.token_hex(32))
            pipe.hmget(SECRETS, new)
            *_, made = pipe.execute()
        known.update(zip(new, made, strict=True))
    _kept.update((name, (now + SECRETS_KEPT, secret)) for name, secret in known.items())
    return {name: player_pseudonym(bytes.fromhex(secret), name) for name, secret in {**kept, **known}.items()}


def forget_player(client, player: str) -> None:
    """Delete the player's secret (an erasure): their pseudonym in the log then names no one."""
    client.hdel(SECRETS, player)
    _kept.pop(player, None)


def leaf_parts(db: Database, run: Run, kind: str, at_ms: int) -> tuple[str, str]:
    """``leaf_of`` the change, split around its index for the script that makes the change to append."""
    return leaf_of(run, kind, at_ms, pseudonyms(db, [run.player])[run.player]).text_around_index()


def leaf_of(run: Run, kind: str, at_ms: int, pseudonym: str) -> Leaf:
    """The leaf of a change ``kind`` that leaves ``run`` as it is given (its status, score, ruleset and engine
    after the change): its seed in the clear, or its commitment for a sealed deal (a sealed daily's, a
    tournament's sealed deck's)."""
    seed = run.seed or ""
    return Leaf(kind=kind, time_ms=at_ms, run=run.id, origin=run.origin, variant=run.variant,
                seed=SEALED_SEED + commitment(seed) if run.seal else seed, moves=moves_hash(run.moves or ()),
                verdict=run.status, score=run.score, ruleset=run.ruleset or "", engine=run.engine or "",
                player=pseudonym)
