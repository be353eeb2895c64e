"""Schedules: tournaments made from a cron expression, each occurrence once (``schedules``)."""

from store.schedules.schedules import (
    create_schedule,
    delete_schedule,
    load_schedule,
    make_due,
    make_scheduled,
    pause_schedule,
    schedule_page,
)

__all__ = ["create_schedule", "delete_schedule", "load_schedule", "make_due", "make_scheduled", "pause_schedule",
           "schedule_page"]
