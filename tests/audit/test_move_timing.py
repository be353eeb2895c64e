"""Judging a dealt game's move timing (``verification.move_timing``): what a moderator is pointed at.

Pure: gaps in, findings out, against the default limits (``Settings``), so these read like the
rules the README's "Fair play" states.
"""

from settings import Settings
from store.moderation.flags import FAST_MOVES, STEADY_RHYTHM
from verification.move_timing import TimingLimits, decision_gaps, spread, timing_findings

LIMITS = TimingLimits.from_settings(Settings())


def gaps(*values: int) -> str:
    """A run's ``move_gaps``: the first move's gap (since the deal), then one per move after it."""
    return " ".join(map(str, values))


def reasons(move_gaps: str) -> list[str]:
    return [finding.reason for finding in timing_findings(move_gaps, LIMITS)]


def test_the_defaults_are_a_quarter_second_a_tenth_and_ten_moves():
    assert (LIMITS.fast_ms, LIMITS.steady_spread, LIMITS.min_moves) == (250.0, 0.1, 10)


def test_only_decisions_are_timed_not_the_deal_nor_a_batch_s_later_moves():
    assert decision_gaps(gaps(40_000, 900, 0, 0, 1200, 0, 700)) == [900, 1200, 700]
    assert decision_gaps("") == []


def test_a_program_at_machine_speed_is_fast_moves():
    found = timing_findings(gaps(500, *[3, 4, 3, 5, 3, 4, 12, 3, 4, 3, 4]), LIMITS)
    assert [finding.reason for finding in found][0] == FAST_MOVES
    assert found[0].detail == {"median_ms": 4, "spread": 0.25, "timed_moves": 11, "limit_ms": 250.0}


def test_a_person_is_not_flagged():
    person = gaps(6000, 1800, 650, 2400, 900, 3100, 1200, 700, 4400, 1500, 980, 2100, 760)
    assert reasons(person) == []


def test_a_person_who_sends_a_room_in_one_request_is_not_flagged():
    batched = gaps(5000, 1700, 0, 0, 2300, 0, 800, 0, 0, 3000, 1100, 0, 1900, 650, 0, 2600, 1250, 4000)
    assert reasons(batched) == []


def test_a_program_that_sleeps_a_second_between_moves_is_steady_rhythm_not_fast_moves():
    sleeper = gaps(1000, 1003, 1001, 998, 1002, 1000, 999, 1004, 1001, 1000, 1002)
    assert reasons(sleeper) == [STEADY_RHYTHM]


def test_one_long_pause_does_not_hide_a_metronome():
    paused = gaps(1000, 1003, 1001, 998, 60_000, 1000, 999, 1004, 1001, 1000, 1002)
    assert reasons(paused) == [STEADY_RHYTHM]
    assert spread([1003, 1001, 998, 60_000, 1000, 999, 1004, 1001, 1000, 1002]) < 0.01


def test_a_game_with_fewer_than_ten_timed_moves_is_not_judged():
    assert reasons(gaps(500, *[3] * 9)) == []
    assert reasons(gaps(500, *[3] * 10)) == [FAST_MOVES, STEADY_RHYTHM]
    assert reasons(gaps(500, *[3] * 9, 0, 0)) == []  # a batch's later moves are no decisions
