"""The workers' part in the flags for moderators (``store.moderation.flags``): a verified game's move timing,
its player's choices (clairvoyant), and the sealed daily starts the API queues.

All are safe to run twice: a run's flag has an id of its own, a game's
tally is kept once and a clairvoyant flag's id follows from the games it
cites, and a start noted twice is noted once. Flags never change a verdict:
games are judged after the verdicts are recorded, and a failure to flag is
only retried.
"""

import logging

from domain.run import Run
from scoundrel.rules import CLASSIC
from scoundrel.verdict import VERIFIED
from store import Database
from store.moderation import note_sealed_start as note_start
from store.moderation import note_tally, raise_clairvoyant_flag, raise_run_flags
from verification.clairvoyance import WINDOW, Tally, clairvoyance_finding, game_tally
from verification.move_timing import TimingLimits, timing_findings

from .process import database, settings

log = logging.getLogger("worker.flags")


def flag_timing(db: Database, runs: list[Run], limits: TimingLimits, kept: int) -> None:
    """Flag each dealt game among ``runs`` whose move timing a moderator should see."""
    for run in runs:
        if not run.dealt:
            continue
        findings = timing_findings(run.move_gaps, limits)
        if not findings:
            continue
        for finding, new in zip(findings, raise_run_flags(db, run, findings, kept), strict=True):
            if new:
                log.info("flag raised", extra={"run_id": run.id, "reason": finding.reason})


def flag_clairvoyance(db: Database, runs: list[Run], kept: int) -> None:
    """Judge each verified classic dealt game among ``runs`` (``verification.clairvoyance``), keep its tally, and
    flag its player when their recent games no flag cited yet chose the perfect way too often.

    Only ``classic``, the ranked mode, whose fair play the flag's limits were measured on (``bench/clairvoyance.py``).
    """
    for run in runs:
        if not (run.dealt and run.status == VERIFIED and run.variant == CLASSIC and run.seed):
            continue
        tally = game_tally(run.seed, run.moves or (), run.variant)
        games = note_tally(db, run, tally.n, tally.k, WINDOW)
        finding = clairvoyance_finding([(game.run_id, Tally(game.telling, game.perfect)) for game in games])
        if finding is not None and raise_clairvoyant_flag(db, run.player, games, run.submitted_ms, finding, kept):
            log.info("flag raised", extra={"player": run.player, "reason": finding.reason})


def note_sealed_start(day: str, address_hash: str, player: str, run_id: str) -> str | None:
    """The job the API queues when a sealed daily game starts: note it; the address's flag id, if any."""
    flag_id = note_start(database(), day, address_hash, player, run_id, settings().flags_kept)
    if flag_id is not None:
        log.info("shared address flagged", extra={"flag_id": flag_id, "player": player, "date": day})
    return flag_id
