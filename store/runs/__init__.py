"""A run's life in Redis: accepting a submission (``accepting``), recording its verdict with its board
places (``verdicts``), its stored form (``records``), its audit log (``audit``), reading it from
Redis or the archive (``history``), recomputing a player's places from all their runs
(``places``), and leaving for the archive and coming back (``removal``, ``archived_filter``)."""

from store.runs.accepting import Submission, accept_runs, submit_run
from store.runs.archived_filter import make_whole
from store.runs.history import find_runs, get_run, hot_run, player_runs, run_audit_log, run_audit_logs
from store.runs.records import dealt_move_times, load_run, load_runs, stored_fields
from store.runs.verdicts import record_verdicts, verdict_differs, verdict_summary

__all__ = [
    "Submission", "accept_runs", "submit_run", "make_whole", "find_runs", "get_run", "hot_run", "player_runs",
    "run_audit_log", "run_audit_logs", "dealt_move_times", "load_run", "load_runs", "stored_fields", "record_verdicts",
    "verdict_differs", "verdict_summary",
]
