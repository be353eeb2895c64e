"""Flags for moderators: games worth a look, raised by the workers, never acted on by themselves.

A flag points a moderator at a run (``fast_moves``, ``steady_rhythm``: how
its moves were timed, ``verification.move_timing``) or at players
(``shared_address``: several of them started one day's sealed daily from one
client address; ``clairvoyant``: one whose dealt games chose as if they saw
the deck, ``store.moderation.clairvoyance``). It never blocks play and never
changes a verdict; a moderator looks, and dismisses it or acts on the run the
usual way.

Each flag is a hash (``keys.flag``) listed, newest first, in one sorted set
per (reason or any, status or any) (``keys.flags``) and under each run it
names (``keys.run_flags``). A run's flag has an id derived from its reason
and run, so a verification job that runs twice raises it once. Only the
newest ``flags_kept`` (a setting) are kept: raising one more forgets the
oldest in the same script, so flags take a bounded share of Redis.

Addresses are never stored: the API hashes the client address with a
secret key (HMAC-SHA-256, ``service.start_flags``) and the players of one
(day, hash) are kept until a week after the day (``keys.flag_address``); the
flag itself names only the players, their runs and the day. A shared_address
flag's id is random, so once the address's key expires nothing links the
flag to the address, even for whoever holds the secret.
"""

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta

from domain.daily_seed import closes_ms
from domain.errors import FlagDismissed, NoSuchFlag, NoSuchRun
from domain.run import Run
from store.base import keys
from store.base.clock import now_ms
from store.base.database import Database
from store.base.listing import indexed_page
from store.moderation import scripts
from store.queue.queues import enqueue_sealed_start
from store.runs.history import hot_run
from store.sanctions.sanctions import DISMISS_FLAG, log_action

# The reasons, the one home of these words (the schemas, the workers and the Lua scripts get them from here).
FAST_MOVES = "fast_moves"
STEADY_RHYTHM = "steady_rhythm"
SHARED_ADDRESS = "shared_address"
CLAIRVOYANT = "clairvoyant"  # a player who chose as if they saw the dealt deck (``verification.clairvoyance``)
RUN_REASONS = (FAST_MOVES, STEADY_RHYTHM)  # about one run, which the flag names as its run_id
REASONS = (*RUN_REASONS, SHARED_ADDRESS, CLAIRVOYANT)
OPEN = "open"
DISMISSED = "dismissed"
STATUSES = (OPEN, DISMISSED)
DISMISSED_EVENT = "flag_dismissed"  # the audit entry a dismissal leaves on the flag's run
ADDRESS_KEPT = timedelta(days=7)  # an address's hash is forgotten this long after its day (UTC) ends


@dataclass(frozen=True)
class Flag:
    """A stored flag: what it is about, what was seen (``detail``), and its dismissal once there is one."""

    id: str
    reason: str
    status: str
    players: list[str]
    run_ids: list[str]  # for a run's flag, its run; for shared_address, each player's sealed daily run
    detail: dict
    created_ms: int
    dismissed_by: str | None = None
    dismissed_ms: int | None = None
    note: str = ""

    @property
    def run_id(self) -> str | None:
        """The run a run's flag is about; None for a flag about players."""
        return self.run_ids[0] if self.reason in RUN_REASONS and self.run_ids else None

    @classmethod
    def from_fields(cls, fields: dict) -> "Flag":
        return cls(id=fields["id"], reason=fields["reason"], status=fields["status"],
                   players=fields.get("players", "").split(), run_ids=fields.get("runs", "").split(),
                   detail=json.loads(fields.get("detail") or "{}"), created_ms=int(fields["created_ms"]),
                   dismissed_by=fields.get("dismissed_by") or None,
                   dismissed_ms=int(fields["dismissed_ms"]) if fields.get("dismissed_ms") else None,
                   note=fields.get("note", ""))


@dataclass(frozen=True)
class Finding:
    """What a check saw in a run: the reason to flag it and the figures behind it."""

    reason: str
    detail: dict


def listed_in(reason: str, status: str) -> list[str]:
    """The indexes a flag of ``reason`` with ``status`` is in; the first is every flag's."""
    return [keys.flags(), keys.flags(reason), keys.flags("", status), keys.flags(reason, status)]


def every_index() -> list[str]:
    """Every flag index: what a forgotten flag leaves."""
    return [keys.flags(reason, status) for reason in ("", *REASONS) for status in ("", *STATUSES)]


def run_flag_id(reason: str, run_id: str) -> str:
    """A run's flag id, the same every time: raising it twice finds the first."""
    return hashlib.sha256(f"flag\n{reason}\n{run_id}".encode()).hexdigest()[:16]


def raise_run_flags(db: Database, run: Run, findings: list[Finding], kept: int) -> list[bool]:
    """Flag ``run`` for each finding, in one round trip; True where a flag is new."""
    raised = now_ms()
    with db.redis.pipeline(transaction=False) as pipe:
        for finding in findings:
            fields = {"reason": finding.reason, "status": OPEN, "created_ms": raised, "players": run.player,
                      "runs": run.id, "detail": json.dumps(finding.detail, separators=(",", ":"))}
            scripts.raise_flag(pipe, flag_id=run_flag_id(finding.reason, run.id),
                               listed_in=listed_in(finding.reason, OPEN), every_index=every_index(),
                               raised_ms=raised, kept=kept, runs=[run.id], fields=fields)
        return [bool(answer) for answer in pipe.execute()]


def forget_address_at(day: str) -> int:
    """When an address's hash noted on ``day`` (ISO date) is forgotten: a week after the day, in s since 1970."""
    return closes_ms(day) // 1000 + int(ADDRESS_KEPT.total_seconds())


def queue_sealed_start(db: Database, day: str, address_hash: str, player: str, run_id: str) -> None:
    """Queue the worker's note that ``player`` started ``day``'s sealed daily (its run to be ``run_id``)
    from the address hashing to ``address_hash`` (``note_sealed_start``). Retried like a verification."""
    enqueue_sealed_start(db, (day, address_hash, player, run_id))


def note_sealed_start(db: Database, day: str, address_hash: str, player: str, run_id: str, kept: int) -> str | None:
    """Note a sealed daily start; the id of the address's shared_address flag once two or more players
    started from it (raised with the second, completed with each next), else None. Idempotent."""
    raised = now_ms()
    fields = {"reason": SHARED_ADDRESS, "status": OPEN, "created_ms": raised,
              "detail": json.dumps({"date": day}, separators=(",", ":"))}
    flag_id = scripts.note_shared_address(
        db.redis, address_key=keys.flag_address(day, address_hash), player=player, run_id=run_id,
        forget_at=forget_address_at(day), new_id=secrets.token_hex(8), listed_in=listed_in(SHARED_ADDRESS, OPEN),
        every_index=every_index(), raised_ms=raised, kept=kept, fields=fields)
    return flag_id or None


def get_flag(db: Database, flag_id: str) -> Flag:
    """A flag. Raises ``NoSuchFlag``."""
    fields = db.redis.hgetall(keys.flag(flag_id))
    if not fields:
        raise NoSuchFlag(flag_id)
    return Flag.from_fields(fields)


def flag_page(db: Database, reason: str | None, status: str | None, offset: int, limit: int) -> tuple[int, list[Flag]]:
    """``(total, flags)``: a page of the flags of ``reason`` with ``status`` (None: any), newest first."""
    total, found = indexed_page(db, keys.flags(reason or "", status or ""), keys.flag, offset, limit,
                                newest_first=True)
    return total, [Flag.from_fields(fields) for fields in found]


def run_flags(db: Database, run_id: str) -> list[Flag]:
    """Every flag naming the run, newest first."""
    return runs_flags(db, [run_id])


def runs_flags(db: Database, run_ids: list[str]) -> list[Flag]:
    """Every flag naming any of the runs, once each, newest first: two round trips."""
    with db.redis.pipeline(transaction=False) as pipe:
        for run_id in run_ids:
            pipe.smembers(keys.run_flags(run_id))
        flag_ids = sorted(set().union(*pipe.execute()))
    with db.redis.pipeline(transaction=False) as pipe:
        for flag_id in flag_ids:
            pipe.hgetall(keys.flag(flag_id))
        found = [Flag.from_fields(fields) for fields in pipe.execute() if fields]
    return sorted(found, key=lambda flag: flag.created_ms, reverse=True)


def dismiss_flag(db: Database, flag_id: str, moderator: str, note: str) -> Flag:
    """Dismiss an open flag: it stays, dismissed, with who, when and the note; a run's flag leaves a
    ``flag_dismissed`` entry in that run's audit log (an archived run comes back to Redis first).

    Raises ``NoSuchFlag`` or ``FlagDismissed``.
    """
    flag = get_flag(db, flag_id)
    run_id = flag.run_id
    if run_id is not None:
        try:
            hot_run(db, run_id)
        except NoSuchRun:
            run_id = None  # a run no store holds: the flag is dismissed all the same, with no run to log it on
    answer = scripts.dismiss_flag(
        db.redis, flag_id=flag_id, open_indexes=listed_in(flag.reason, OPEN)[2:],
        dismissed_indexes=listed_in(flag.reason, DISMISSED)[2:], run_id=run_id, moderator=moderator,
        at_ms=now_ms(), note=note, open_status=OPEN, dismissed_status=DISMISSED, event=DISMISSED_EVENT)
    if answer == "missing":
        raise NoSuchFlag(flag_id)
    if answer == "dismissed":
        raise FlagDismissed()
    dismissed = get_flag(db, flag_id)
    for player in dismissed.players:  # one line a player it names: each player's log finds it
        log_action(db, DISMISS_FLAG, player, moderator, dismissed.dismissed_ms or now_ms(), flag_id=flag_id,
                   flag=dismissed.reason, run_id=dismissed.run_id, reason=note)
    return dismissed
