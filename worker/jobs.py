"""The verification job: replay stored runs and record their verdicts.

A plain function of run ids, as RQ wants (one id for a single submission,
a share of a batch otherwise): it loads what it needs, replays, and records
each verdict in one atomic, idempotent step, so running it twice changes
nothing. A job that raises is retried; when it keeps failing,
``verification_failed`` marks its run ``error`` with the reason, so no run
is silently dropped (and a worker killed mid-job is ``store.queue.pending``'s
business).
"""

import logging
from dataclasses import replace

from redis.exceptions import RedisError
from rq import get_current_job

from domain.run import PENDING, Run
from store import load_runs, record_verdicts
from store.base import count_job_failure, first_line
from store.queue import forget_carried, mark_error, requests_of, split_pending
from store.sanctions import keep_withheld
from verification import judge
from verification.move_timing import TimingLimits

from .flags import flag_clairvoyance, flag_timing
from .leagues import join_leagues
from .process import database, settings
from .webhooks import after_verdicts

log = logging.getLogger("worker.jobs")


def _worker_name() -> str:
    """The RQ worker running this job, as the run's audit log names it."""
    job = get_current_job()
    return (job.worker_name if job else None) or "worker"


def verify_runs(*run_ids: str, carried: dict[str, dict[str, str]] | None = None) -> dict[str, str]:
    """Replay each run with the current engine; returns each run's status afterwards.

    One job verifies one submitted run, or a share of a batch, or the runs a
    dispatcher took from the intake, whose hashes it carries (``carried``:
    run id → the fields stored at the run's submission, ``store.queue.intake``):
    those are judged unread, the others loaded in one round trip, and their
    verdicts recorded in one more. The verdicts' script writes none for a run
    that is no longer pending or its player's as judged (a job run again, a
    run voided, erased or renamed meanwhile): those runs are read then, and any
    still pending judged and recorded again, so every step below sees each run
    as it is stored.
    The events recorded with them are handed to the webhook queue
    (``worker.webhooks``), never waited for. A player's first counted game of a week puts them in a league
    cohort (``worker.leagues``). Then a dealt game's move timing may raise flags for moderators
    (``worker.flags``), whatever the verdict and however often this runs, and a verified one is judged for
    its player's clairvoyant flag.
    """
    db = database()
    worker = _worker_name()
    requested = requests_of(get_current_job())
    runs = dict(zip(run_ids, load_runs(db, run_ids, carried), strict=True))
    statuses, verdicts = _verify(db, runs, worker, requested)
    unwritten = [run.id for run, _, written in verdicts if not written]
    if unwritten:
        runs.update(zip(unwritten, load_runs(db, unwritten), strict=True))
        again, verdicts_again = _verify(db, {run_id: runs[run_id] for run_id in unwritten}, worker, requested)
        statuses.update(again)
        verdicts = [judged for judged in verdicts if judged[2]] + verdicts_again
    judged_verdicts = [(run, verdict) for run, verdict, _ in verdicts]
    keep_withheld(db, [run.player for run, verdict in judged_verdicts if verdict["status"] == "verified"])
    after_verdicts(db)  # the events recorded with the verdicts, handed to a job on the webhook queue
    join_leagues(db, judged_verdicts)
    judged = {run.id: verdict["status"] for run, verdict in judged_verdicts}
    settled = [replace(run, status=judged.get(run.id, run.status)) for run in runs.values() if run is not None]
    flag_timing(db, settled, TimingLimits.from_settings(settings()), settings().flags_kept)
    flag_clairvoyance(db, settled, settings().flags_kept)
    return statuses


def _verify(db, runs: dict[str, Run | None], worker: str,
            requested: dict[str, str]) -> tuple[dict[str, str], list[tuple[Run, dict, bool]]]:
    """Judge each pending run of ``runs`` and record the verdicts, logging each one written: each run's status
    (a run gone is "missing"), and each ``(run, verdict, whether it was written)``."""
    statuses, verdicts = {}, []
    for run_id, run in runs.items():
        if run is None:
            statuses[run_id] = "missing"
        elif run.status != PENDING:
            statuses[run_id] = run.status
        else:
            verdict = judge(run)
            verdicts.append((run, verdict))
            statuses[run_id] = verdict["status"]
    recorded = [(run, verdict, written) for (run, verdict), written
                in zip(verdicts, record_verdicts(db, verdicts, worker=worker), strict=True)]
    for run, verdict, written in recorded:
        if written:
            log.info("verdict recorded", extra={"run_id": run.id,
                                                 "request_id": requested.get(run.id) or run.request_id,
                                                 "status": verdict["status"],
                                                 "code": (verdict.get("error") or {}).get("code", "")})
    return statuses, recorded


def verification_failed(job, connection, exc_type, exc_value, traceback):
    """RQ's failure callback: count the failure; on the last attempt settle the job's runs.

    A job of one run marks it ``error``: the reason names the kind of
    failure, never its internals; the worker's log has the traceback under
    the run's request id. A job of several runs (a batch's share) is split
    into one job per run still pending, so one bad run does not take its
    neighbours down with it. A last attempt cut short by Redis (away, or
    refusing writes) is no fault of the runs: they stay pending, and the
    sweeper queues them again once nothing runs their job (``store.queue.pending``). A job kept failed
    keeps no copy of its runs' hashes (``store.queue.queues.forget_carried``).
    """
    db = database()
    run_ids = list(job.args)
    count_job_failure(db)
    requested = requests_of(job)
    # the requests of its runs: a batch's one, or the several a job of the intake serves, space-separated
    context = {"run_ids": run_ids, "request_id": " ".join(sorted(set(requested.values()) - {""}))}
    if job.retries_left:
        log.warning("verification failed; retrying", exc_info=(exc_type, exc_value, traceback),
                    extra={**context, "retries_left": job.retries_left})
        return
    try:
        forget_carried(db, job)
    except RedisError as error:
        log.warning("failed job's copies of its runs not dropped", extra={**context, "error": first_line(error)})
    if issubclass(exc_type, RedisError):
        log.warning("verification cut short by redis; its runs stay pending for the sweeper",
                    exc_info=(exc_type, exc_value, traceback), extra=context)
        return
    if len(run_ids) > 1:
        log.warning("verification of a batch failed; verifying its runs one by one",
                    exc_info=(exc_type, exc_value, traceback), extra=context)
        for run_id in split_pending(db, requested):
            log.info("queued alone", extra={"run_id": run_id, "request_id": requested[run_id]})
        return
    log.error("verification failed for good", exc_info=(exc_type, exc_value, traceback), extra=context)
    mark_error(db, run_ids[0], "verification_failed",
               f"Verification failed ({exc_type.__name__}) on every attempt; a moderator can re-queue it.",
               actor=job.worker_name or "worker")

