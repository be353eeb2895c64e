"""The public log's newest leaves, in Redis, and the secrets its pseudonyms are made with.

A change is appended to the log by the script that makes it (a job's
verdicts: ``lua/record_verdicts.lua``, through ``lua/_log.lua``; a void, a
restore, a re-verification; a sealed day's or a tournament's close, which
reveals its seeds: ``lua/close_sealed_day.lua``, ``lua/close_tournament.lua``;
a ban or hiding noted or lifted: ``lua/sanction_player.lua``; an erasure's
secret deleted: ``lua/forget_player.lua``): the leaf goes onto a Redis list
and the log's size counts it, in the same atomic step as the change: two
commands. The worker moves the list's head to the
archive (``store.log.tree``) and counts the leaves moved: the index of the
list's first leaf. A run's leaves are found by its id there.

A player appears in a leaf only as ``player_pseudonym``: an HMAC under a
secret of the player's own, made the first time one is needed and kept in
one hash. Erasure deletes the secret (``forget_player``), in the script that
appends the ``erase`` leaf of the pseudonym, and from then on nothing ties
the pseudonym to a name; the log itself never changes. A
process keeps the secrets it read for ``SECRETS_KEPT`` seconds, so a worker
asks Redis once for a player's many verdicts; an erased player has no runs
left to judge, and their name rests far longer (SCOUNDREL_NAME_COOL_OFF_DAYS).
"""

import secrets
import time
from collections.abc import Iterable

from domain.boards import boards_of
from domain.dealer import commitment
from domain.run import Run
from domain.transparency import ERASE, SEALED_SEED, Leaf, PlayerLeaf, SeedLeaf, moves_hash, player_pseudonym
from store.base import keys
from store.base.database import Database
from store.lua import LuaScript

SIZE, LEAVES, MOVED, SECRETS = keys.log_size(), keys.log_leaves(), keys.log_moved(), keys.log_secrets()
SECRETS_KEPT = 300.0  # seconds a process keeps a secret it read
_kept: dict[str, tuple[float, str]] = {}  # player → (until when, secret): this process's secrets
_FORGET_PLAYER = LuaScript("forget_player")


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
    return {name: player_pseudonym(bytes.fromhex(secret)) for name, secret in {**kept, **known}.items()}


def drop_kept(*players: str) -> None:
    """Forget this process's copies of the secrets of ``players`` (a rename moved one from the old name to
    the new; a copy kept under the new name would be of a player who held it before)."""
    for player in players:
        _kept.pop(player, None)


def forget_player(db: Database, player: str, at_ms: int) -> bool:
    """An erasure's step once the player's places are gone: their secret deleted, and the ``erase`` leaf of
    their pseudonym appended in the same script, so their pseudonym then names no one. Idempotent: whether
    this call deleted it (a player who never had a leaf has no secret, and gets no leaf)."""
    drop_kept(player)
    secret = db.redis.hget(SECRETS, player)
    if secret is None:
        return False
    leaf = PlayerLeaf(ERASE, at_ms, player_pseudonym(bytes.fromhex(secret)))
    return bool(_FORGET_PLAYER.run(db.redis, [SECRETS, *log_keys()], [player, *leaf.text_around_index()]))


def player_leaf_parts(db: Database, player: str, at_ms: int, kinds: Iterable[str]) -> list[str]:
    """The leaf of each change of ``kinds`` to all of ``player``'s places (``withhold``, ``show``), split
    around its index: the flat list a script that makes one of the changes picks its leaf from."""
    pseudonym = pseudonyms(db, [player])[player]
    return [part for kind in kinds for part in PlayerLeaf(kind, at_ms, pseudonym).text_around_index()]


def reveal_leaf_parts(seal: str, seeds: Iterable[str], at_ms: int) -> list[str]:
    """The ``reveal`` leaves of the seeds ``seal`` sealed (one a deck), each split around its index: the
    flat list a closing script appends, two items a leaf."""
    return [part for seed in seeds
            for part in SeedLeaf(at_ms, seal, seed, commitment(seed)).text_around_index()]


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
                player=pseudonym, boards=tuple(board.name for board in boards_of(run)),
                submitted_ms=run.submitted_ms)
