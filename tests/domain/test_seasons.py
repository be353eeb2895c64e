"""The season calendar (``domain.seasons``): UTC months, ISO weeks, and every instant in one season."""

from datetime import UTC, datetime

import pytest

from domain.seasons import Schedule, Season, parse_season, season_at


def ms(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp() * 1000)


def test_a_monthly_season_is_the_utc_month_from_its_first_midnight_to_the_next():
    season = season_at(Schedule.MONTHLY, ms("2026-12-01T12:28:00"))
    assert season == Season("2026-12", ms("2026-12-01T00:00:00"), ms("2027-01-01T00:00:00"))
    assert season.following() == Season("2027-01", ms("2027-01-01T00:00:00"), ms("2027-02-01T00:00:00"))


def test_the_last_millisecond_of_a_month_is_in_it_and_the_next_is_in_the_next():
    assert season_at(Schedule.MONTHLY, ms("2027-01-01T00:00:00") - 1).id == "2026-12"
    assert season_at(Schedule.MONTHLY, ms("2027-01-01T00:00:00")).id == "2027-01"


def test_month_ends_february_in_a_leap_year_and_not():
    assert parse_season("2028-02").ends_ms - parse_season("2028-02").starts_ms == 29 * 86_400_000
    assert parse_season("2027-02").ends_ms == ms("2027-03-01T00:00:00")
    assert parse_season("2026-04").ends_ms == ms("2026-05-01T00:00:00")


def test_a_weekly_season_is_the_iso_week_from_monday_midnight_utc():
    season = season_at(Schedule.WEEKLY, ms("2026-12-01T12:28:00"))  # a Tuesday
    assert season == Season("2026-W49", ms("2026-11-30T00:00:00"), ms("2026-12-07T00:00:00"))
    assert season_at(Schedule.WEEKLY, ms("2026-12-07T00:00:00") - 1).id == "2026-W49"
    assert season_at(Schedule.WEEKLY, ms("2026-12-07T00:00:00")).id == "2026-W50"


def test_weeks_across_the_year_boundary_belong_to_the_iso_year():
    assert season_at(Schedule.WEEKLY, ms("2026-12-31T23:59:59")).id == "2026-W53"  # 2026 has 53 ISO weeks
    assert season_at(Schedule.WEEKLY, ms("2027-01-03T23:59:59")).id == "2026-W53"  # a Sunday of 2027
    assert season_at(Schedule.WEEKLY, ms("2027-01-04T00:00:00")).id == "2027-W01"
    assert season_at(Schedule.WEEKLY, ms("2024-12-30T00:00:00")).id == "2025-W01"  # a Monday of 2024
    assert parse_season("2026-W53").following().id == "2027-W01"


def test_every_season_ends_where_the_next_starts():
    for schedule, first in ((Schedule.MONTHLY, "2026-11"), (Schedule.WEEKLY, "2026-W50")):
        season = parse_season(first)
        for _ in range(60):
            following = season.following()
            assert following.starts_ms == season.ends_ms and following.schedule is schedule
            assert season_at(schedule, season.ends_ms - 1) == season
            season = following


def test_an_id_says_its_own_calendar_and_round_trips():
    assert parse_season("2026-W49").schedule is Schedule.WEEKLY and parse_season("2026-12").schedule is Schedule.MONTHLY
    for schedule in Schedule:
        season = season_at(schedule, ms("2030-06-15T08:00:00"))
        assert parse_season(season.id) == season


@pytest.mark.parametrize("text", ["2026-13", "2026-00", "2026-W00", "2027-W53", "2026-W54", "2026-1", "26-12",
                                  "2026-12-01", "2026-w49", " 2026-12", "0000-01", "latest", "",
                                  "9999-12", "9999-W52"])  # the last two end past 9999-12-31
def test_what_is_not_a_season_is_refused(text):
    with pytest.raises(ValueError):
        parse_season(text)


def test_time_left_counts_down_to_the_end_and_stops_at_zero():
    season = parse_season("2026-12")
    assert season.left_ms(ms("2026-12-31T23:00:00")) == 3_600_000
    assert season.left_ms(ms("2027-01-02T00:00:00")) == 0
