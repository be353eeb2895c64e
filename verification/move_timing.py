"""Judging how a dealt game's moves were timed: what a moderator should look at, never a verdict.

The server times every move of a dealt game (``store.games.dealt``: the gap in
ms since the move before). A person reads each room before moving, so
their gaps are hundreds of milliseconds and vary with how hard the choice
is; a program's are a few milliseconds (``fast_moves``), or, when it waits
on purpose to look human, nearly all the same (``steady_rhythm``).

Only decisions are timed: the first move's gap (since the deal) is not
between moves, and the later moves of one request (a batch, gap 0) are one
decision with the first. A game with fewer than ``min_moves`` timed moves
is not judged: too few to tell a person from a program.

The spread is robust (the median absolute deviation over the median, not
the standard deviation over the mean), so one long pause in a game, the
player answering the door or a program stalling once, neither hides a
metronome nor makes one of a person.
"""

from dataclasses import dataclass
from statistics import median

from settings import Settings
from store.moderation import FAST_MOVES, STEADY_RHYTHM, Finding


@dataclass(frozen=True)
class TimingLimits:
    """Below what a game's timing is worth a flag (settings ``SCOUNDREL_FLAG_*``, defaults there)."""

    fast_ms: float  # median gap between moves
    steady_spread: float  # spread of the gaps
    min_moves: int  # timed moves a game needs to be judged

    @classmethod
    def from_settings(cls, settings: Settings) -> "TimingLimits":
        return cls(settings.flag_fast_ms, settings.flag_steady_spread, settings.flag_min_moves)


def decision_gaps(move_gaps: str) -> list[int]:
    """The gaps (ms) between one decision and the next, from a run's ``move_gaps``."""
    gaps = [int(gap) for gap in move_gaps.split()]
    return [gap for gap in gaps[1:] if gap > 0]


def spread(gaps: list[int]) -> float:
    """The median absolute deviation of ``gaps`` over their median (gaps are positive)."""
    middle = median(gaps)
    return median(abs(gap - middle) for gap in gaps) / middle


def timing_findings(move_gaps: str, limits: TimingLimits) -> list[Finding]:
    """What the timing of a dealt game's moves is worth a moderator's look for: [] for a person's game."""
    gaps = decision_gaps(move_gaps)
    if len(gaps) < max(limits.min_moves, 1):
        return []
    middle, spread_ = median(gaps), spread(gaps)
    seen = {"median_ms": middle, "spread": round(spread_, 3), "timed_moves": len(gaps)}
    findings = []
    if middle < limits.fast_ms:
        findings.append(Finding(FAST_MOVES, {**seen, "limit_ms": limits.fast_ms}))
    if spread_ < limits.steady_spread:
        findings.append(Finding(STEADY_RHYTHM, {**seen, "limit": limits.steady_spread}))
    return findings
