"""The rank key: higher score first, then the earlier submission, exactly."""

import datetime
import random

import pytest

from store.base.packing import LATEST_MS, SCORE_OFFSET, iso_time, pack


def test_a_higher_score_ranks_above_any_submission_time():
    assert pack(-220, 0) > pack(-221, 0)
    assert pack(1, LATEST_MS) > pack(0, 0)


def test_at_equal_scores_the_earlier_submission_ranks_first():
    assert pack(12, 1_000) > pack(12, 1_001)


def test_every_key_is_exact_as_a_redis_double():
    for score, ms in [(-SCORE_OFFSET, 0), (SCORE_OFFSET - 1, LATEST_MS), (30, 1_795_966_213_791)]:
        assert float(pack(score, ms)) == pack(score, ms) < 2**53


@pytest.mark.parametrize("score, ms", [(SCORE_OFFSET, 0), (-SCORE_OFFSET - 1, 0), (0, -1), (0, LATEST_MS + 1)])
def test_values_outside_the_range_are_refused(score, ms):
    with pytest.raises(ValueError):
        pack(score, ms)


def test_iso_time_matches_the_calendar_to_the_millisecond():
    rng = random.Random(7)
    for ms in [0, 999, 86_399_999, 86_400_000, 1_795_966_213_791] + [rng.randrange(LATEST_MS) for _ in range(2000)]:
        seconds, millis = divmod(ms, 1000)
        moment = datetime.datetime.fromtimestamp(seconds, tz=datetime.UTC)
        assert iso_time(ms) == moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis:03d}Z"
    assert iso_time("1795966213791") == "2026-11-29T15:30:13.791Z"
    assert iso_time(None) is None and iso_time("") is None
